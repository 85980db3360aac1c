"""`-X lazy_imports=MODE` and `PYTHON_LAZY_IMPORTS=MODE`, read at interpreter
start by the .pth line (only when one of them is set), as 3.15 reads them:
-X first; a bad value is a fatal error with 3.15's words and exit status.
And LAZY_CODEC_REPORT: a report at exit (see report.py)."""

import os
import sys


def start() -> None:
    """what the .pth line calls when one of the options is set"""
    ignored = sys.flags.ignore_environment  # -E, -I: PYTHON_LAZY_IMPORTS too (lazy_codec's own not)
    apply(
        sys._xoptions.get('lazy_imports'),
        None if ignored else os.environ.get('PYTHON_LAZY_IMPORTS') or None,
        os.environ.get('LAZY_CODEC_REPORT'),
    )


def apply(xoption, environ, report=None) -> None:
    if report:
        from lazy_codec.tools.report import enable

        enable(report)
    if xoption is None and environ is None:
        return
    if xoption is not None:
        mode, source = xoption, '-X lazy_imports'
    else:
        mode, source = environ, 'PYTHON_LAZY_IMPORTS'
    if mode not in ('all', 'normal'):
        os.write(
            2,
            (
                f'Fatal Python error: config_init_lazy_imports: {source}: invalid value; '
                "expected 'all' or 'normal'\nPython runtime state: preinitialized\n\n"
            ).encode(),
        )
        os._exit(1)
    if mode == 'all':
        # the import hooks only: the runtime loads at the first lazy import
        # (a program with few imports must not pay for it at start), and
        # takes the mode from them (see state.controls)
        from lazy_codec.runtime import mode_all

        mode_all.install()
        if os.environ.get('LAZY_CODEC_MAIN_SCRIPT') == '1':  # opt-in: its cost, see the README
            mode_all.reach_main_script()


def before_install() -> None:
    """what the .pth line calls when `install` is among the arguments: in
    pip's process, load the codec before pip installs anything.  pip
    byte-compiles what it installs in its own process, and from 26.3 on it
    blocks every import once installing starts (`encodings.lazy`, which the
    stdlib's codec search tries first, and the codec's own modules).  With
    the codec in the codec registry's cache and its modules, and those the
    source loader's hooks call, in sys.modules, pip compiles cookie modules
    and 3.15 source without the cookie with no import."""
    if not _running_pip():
        return
    import codecs

    codecs.lookup('lazy')
    if sys.version_info < (3, 15):  # 3.15+ decode as UTF-8: no rewrite
        from lazy_codec import _loader  # noqa: F401 (what the source loader's hooks call)
        from lazy_codec.rewrite import (
            emitter,  # noqa: F401 (and lexer, statements, verdicts)
            sources,  # noqa: F401 (and cookie)
            tokenized,  # noqa: F401 (the lexer's fallback, and tokenize)
        )
        from lazy_codec.runtime import mode_all  # noqa: F401 (__lazy_modules__ modules' code)


def _running_pip() -> bool:
    program = sys.argv[0] if sys.argv else ''
    if program == '-m':  # `python -m pip`; sys.orig_argv is 3.10+ (no pip
        # that blocks imports runs on 3.9)
        return 'pip' in getattr(sys, 'orig_argv', ('pip',))
    # pip, pip3, pip3.12; __pip-runner__.py (`pip --python PYTHON`)
    return 'pip' in os.path.basename(program)


def load_pth_module() -> None:
    """what the .pth line does (`import _lazy_codec_pth`: the codec, the
    entry object, 3.15's sys API and the source loaders' hooks), where no
    .pth ran (`python -S`, lazy_codec on PYTHONPATH): that module from
    site-packages, beside the package, or from the source tree's pth/"""
    if '_lazy_codec_pth' in sys.modules:
        return
    try:
        import _lazy_codec_pth  # noqa: F401
    except ImportError:
        pass
    else:
        return
    import importlib.util

    package = os.path.dirname(os.path.abspath(__file__))
    for path in (
        os.path.join(os.path.dirname(package), '_lazy_codec_pth.py'),
        os.path.join(os.path.dirname(package), 'pth', '_lazy_codec_pth.py'),
    ):
        if os.path.exists(path):
            spec = importlib.util.spec_from_file_location('_lazy_codec_pth', path)
            if spec is None or spec.loader is None:
                continue
            module = importlib.util.module_from_spec(spec)
            sys.modules['_lazy_codec_pth'] = module
            spec.loader.exec_module(module)
            return
