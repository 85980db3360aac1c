"""What lazy_codec.pth runs at every interpreter start in the environment
(`import _lazy_codec_pth`, its one line): a top-level module of its own, so
that its bytecode is cached (pip compiles it at install) and a start loads it
rather than compiling source (exec'd from the .pth line itself, its compile
took 3.0 M instructions of a 37.9 M `python -c pass` on 3.11; loaded from its
cached bytecode, 0.9 M).  It imports nothing (`builtins`, `codecs`, `os`,
`sys` are loaded by then) and does not import lazy_codec.

It registers the `lazy` codec, whose module is imported only when a file
with the cookie is decoded; on 3.9-3.14 it puts 3.15's sys API in sys,
functions that load the runtime at their first call; it reads
-X lazy_imports / PYTHON_LAZY_IMPORTS / LAZY_CODEC_* only when one is set.
It makes the builtin through which rewritten code reaches the runtime with
no import (lazy_codec/_entry.py does the same where no .pth ran), and 3.15's
builtins ImportCycleError and __lazy_import__ (until the runtime, which puts
its own there, is loaded by its first call: `entry` bound to the entry
object).  With `install` among the arguments, it loads the codec before pip
installs anything (pip compiles there, and 26.3 blocks imports while
installing).  Imported once: a venv's site-packages processed twice by site
finds it in sys.modules.

PYTEST_DONT_REWRITE (pytest marks the files of a plugin's distribution for
its assertion rewrite, and would warn that this one was imported before it)
"""

import builtins
import codecs
import os
import sys


def search(name):
    if name == 'lazy':
        try:
            from lazy_codec._codec import search
        except ImportError as exc:
            raise LookupError(
                f'unknown encoding: lazy (lazy_codec is not importable: {exc}; reinstall it)'
            ) from None
        return search(name)


# 3.15's sys functions until the runtime is loaded: each loads it at its
# first call (the runtime puts its own in sys then) and calls the runtime's
def set_lazy_imports(*args, **kwargs):
    import lazy_codec.runtime.api  # noqa: F401

    return sys.set_lazy_imports(*args, **kwargs)


def get_lazy_imports(*args, **kwargs):
    import lazy_codec.runtime.api  # noqa: F401

    return sys.get_lazy_imports(*args, **kwargs)


def set_lazy_imports_filter(*args, **kwargs):
    import lazy_codec.runtime.api  # noqa: F401

    return sys.set_lazy_imports_filter(*args, **kwargs)


def get_lazy_imports_filter(*args, **kwargs):
    import lazy_codec.runtime.api  # noqa: F401

    return sys.get_lazy_imports_filter(*args, **kwargs)


def entry(*a, **k):
    return sys.modules['_frozen_importlib']._gcd_import('lazy_codec._entry').entry_point(*a, **k)


codecs.register(search)
builtins.__lazy_codec_abi1__ = type(sys)('__lazy_codec_abi1__')
builtins.__lazy_codec_abi1__.__getattr__ = entry
# -- the source loaders (3.9-3.14): what 3.15's compiler does that ours cannot --
#
# Every source module is compiled by importlib's SourceLoader.source_to_code
# (imports, `python -m`, runpy, py_compile and compileall, pip's byte-compiling)
# and loaded by its get_code; both are wrapped here, at no cost to a module
# that uses no lazy syntax (see lazy_codec/_loader.py, which does the work):
# - source_to_code: a file with the `lazy` cookie is rewritten before it is
#   compiled (the codec's own decoding stays plain UTF-8, for the tools that
#   read the file as text); a file without it that fails to compile is
#   compiled again through the rewrite when it has lazy syntax (3.15 source);
# - get_code: code that names __lazy_modules__ and was not rewritten (a
#   module valid on this interpreter) is taken from the rewrite, cached apart.
# Their code claims importlib's file name, so that the interpreter trims their
# frames from a traceback as it trims importlib's (import.c's
# remove_importlib_frames), and an error there looks as it does without them.
_external = sys.modules['_frozen_importlib_external']
_SourceLoader = _external.SourceLoader
_without_frames = _external._bootstrap._call_with_frames_removed
_IMPORTLIB_FILE = _SourceLoader.get_code.__code__.co_filename
_get_ident = sys.modules['_thread'].get_ident
ENTRY_NAME = '__lazy_codec_abi1__'


_reading_cookie = set()  # threads in has_lazy_cookie: its own import compiles lazy_codec's modules


# (comments, not docstrings, here: this module's bytecode is loaded at every start)
def has_lazy_cookie(data):
    # do the first two lines of `data` name the `lazy` codec?  A cheap test
    # first (the word, in those lines), then the cookie's own reader
    end = data.find(b'\n', data.find(b'\n', 0, 300) + 1, 400)
    if data.find(b'lazy', 0, 400 if end < 0 else end) < 0:
        return False
    me = _get_ident()
    if me in _reading_cookie:
        return False  # lazy_codec's own modules (which have no cookie) while it is imported
    _reading_cookie.add(me)
    try:
        from lazy_codec.rewrite.cookie import cookie_name

        return cookie_name(data) == b'lazy'
    except ImportError:  # (see _loader)
        return False
    finally:
        _reading_cookie.discard(me)


def _loader():
    # lazy_codec._loader, or None where lazy_codec cannot be imported (pip's
    # isolated build environments run this .pth with their own sys.path)
    try:
        from lazy_codec import _loader
    except ImportError:
        return None
    return _loader


def source_to_code(self, data, path, *, _optimize=-1):
    loader = _loader() if type(data) is bytes and has_lazy_cookie(data) else None
    if loader is not None:
        return _without_frames(
            compile, loader.rewritten_text(data), path, 'exec', dont_inherit=True, optimize=_optimize
        )
    try:
        return _plain_source_to_code(self, data, path, _optimize=_optimize)
    except SyntaxError:
        loader = _loader() if type(data) is bytes and b'lazy' in data else None
        text = None if loader is None else loader.source_of_lazy_syntax(data)
        if text is None:
            raise
    # (outside the handler: its error would chain to the first)
    return _without_frames(compile, text, path, 'exec', dont_inherit=True, optimize=_optimize)


def get_code(self, fullname):
    code = _plain_get_code(self, fullname)
    names = getattr(code, 'co_names', ())
    if '__lazy_modules__' in names and ENTRY_NAME not in names:
        loader = _loader()
        if loader is not None:
            return loader.lazy_modules_code(self, fullname)
    return code


def install_loader_hooks():
    global _plain_source_to_code, _plain_get_code
    if getattr(_SourceLoader.get_code, '__module__', None) == __name__:
        return  # installed (lazy-codec run loads this module again)
    _plain_source_to_code, _plain_get_code = _SourceLoader.source_to_code, _SourceLoader.get_code
    for function in (source_to_code, get_code):
        function.__code__ = function.__code__.replace(co_filename=_IMPORTLIB_FILE)
        setattr(_SourceLoader, function.__name__, function)


if sys.version_info < (3, 15):
    install_loader_hooks()
    # 3.15's sys API (not a module __getattr__ on sys: CPython specializes no
    # attribute load from a module whose dict has one, so every `sys.x` of a
    # program, importlib's at each import, would run unspecialized).  The
    # runtime, when it loads, puts its own in sys; sys.lazy_modules is empty
    # until the first lazy statement, which loads the runtime (unless the
    # runtime's are there: this module run again, by `lazy-codec run`)
    if 'lazy_modules' not in vars(sys):
        sys.set_lazy_imports = set_lazy_imports
        sys.get_lazy_imports = get_lazy_imports
        sys.set_lazy_imports_filter = set_lazy_imports_filter
        sys.get_lazy_imports_filter = get_lazy_imports_filter
        sys.lazy_modules = set()
    builtins.ImportCycleError = type(
        'ImportCycleError', (ImportError,), {'__doc__': 'Import produces a cycle.', '__module__': 'builtins'}
    )
    builtins.__lazy_import__ = entry.__get__(builtins.__lazy_codec_abi1__)
    if (
        'lazy_imports' in sys._xoptions
        or 'PYTHON_LAZY_IMPORTS' in os.environ
        or 'LAZY_CODEC_REPORT' in os.environ
    ):
        try:
            from lazy_codec._startup import start
        except ImportError:
            pass
        else:
            start()
# This module outlives the interpreter's module teardown (the codec registry,
# sys and SourceLoader hold its functions, and so its globals): a reference
# to os from here kept os alive too, which cost 3.14 0.4 M instructions at
# exit, 1.1% of `python -c pass`.  No function here uses os.
del os
if 'install' in sys.argv:
    try:
        from lazy_codec._startup import before_install
    except ImportError:
        pass
    else:
        before_install()
