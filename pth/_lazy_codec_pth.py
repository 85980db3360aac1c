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


# 3.15's sys functions until the runtime is loaded: each (this function
# bound to its name) loads it at its first call (the runtime puts its own in
# sys then) and calls the runtime's
def sys_api_stub(name, *args, **kwargs):
    import lazy_codec.runtime.api  # noqa: F401

    return getattr(sys, name)(*args, **kwargs)


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
_fix_co_filename = sys.modules['_imp']._fix_co_filename
ENTRY_NAME = '__lazy_codec_abi1__'


_importing = set()  # threads in _loader: lazy_codec's import compiles its own modules


# (comments, not docstrings, here: this module's bytecode is loaded at every start)
def _loader(data=None):
    # lazy_codec._loader; with `data`, only if its first two lines name the
    # `lazy` codec (a cheap test first: the word, in those lines; then the
    # cookie's own reader).  None where lazy_codec cannot be imported (pip's
    # isolated build environments run this .pth with their own sys.path).
    # One function, not two: each costs every start its unmarshalling
    if data is not None:
        end = data.find(b'\n', data.find(b'\n', 0, 300) + 1, 400)
        if data.find(b'lazy', 0, 400 if end < 0 else end) < 0:
            return None
    me = _get_ident()
    if me in _importing:
        return None  # lazy_codec's own modules (which have no cookie) while it is imported
    _importing.add(me)
    try:
        if data is not None:
            from lazy_codec.rewrite.cookie import cookie_name

            if cookie_name(data) != b'lazy':
                return None
        from lazy_codec import _loader
    except ImportError:
        return None
    finally:
        _importing.discard(me)
    return _loader


def source_to_code(self, data, path, *, _optimize=-1):
    loader = _loader(data) if type(data) is bytes else None
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


# the environment as the interpreter started with it, a plain dict (bytes
# keys on POSIX): os.environ's misses raise and catch a KeyError inside, 31 K
# instructions for two at every start on 3.12
_environ = getattr(sys.modules.get('posix'), 'environ', None)
if _environ is None:  # (Windows: os.environ, whose keys are str)
    _environ, _MODE_VARIABLE, _REPORT_VARIABLE = os.environ, 'PYTHON_LAZY_IMPORTS', 'LAZY_CODEC_REPORT'
else:
    _MODE_VARIABLE, _REPORT_VARIABLE = b'PYTHON_LAZY_IMPORTS', b'LAZY_CODEC_REPORT'
if sys.flags.ignore_environment:  # -E, -I: as on 3.15, no PYTHON* variable is read
    _MODE_VARIABLE = None
if sys.version_info < (3, 15):
    # (unless installed: `lazy-codec run` loads this module again)
    if getattr(_SourceLoader.get_code, '__module__', None) != __name__:
        _plain_source_to_code, _plain_get_code = _SourceLoader.source_to_code, _SourceLoader.get_code
        for function in (source_to_code, get_code):
            # in place (what importlib does to a cached module's code whose
            # file moved): code.replace would make a copy, 14 K instructions
            # each at every start on 3.12
            _fix_co_filename(function.__code__, _IMPORTLIB_FILE)
            setattr(_SourceLoader, function.__name__, function)
    # 3.15's sys API (not a module __getattr__ on sys: CPython specializes no
    # attribute load from a module whose dict has one, so every `sys.x` of a
    # program, importlib's at each import, would run unspecialized).  The
    # runtime, when it loads, puts its own in sys; sys.lazy_modules is empty
    # until the first lazy statement, which loads the runtime (unless the
    # runtime's are there: this module run again, by `lazy-codec run`)
    if 'lazy_modules' not in vars(sys):
        sys.set_lazy_imports = sys_api_stub.__get__('set_lazy_imports')
        sys.get_lazy_imports = sys_api_stub.__get__('get_lazy_imports')
        sys.set_lazy_imports_filter = sys_api_stub.__get__('set_lazy_imports_filter')
        sys.get_lazy_imports_filter = sys_api_stub.__get__('get_lazy_imports_filter')
        sys.lazy_modules = set()
    builtins.ImportCycleError = type(
        'ImportCycleError', (ImportError,), {'__doc__': 'Import produces a cycle.', '__module__': 'builtins'}
    )
    builtins.__lazy_import__ = entry.__get__(builtins.__lazy_codec_abi1__)
    if 'lazy_imports' in sys._xoptions or _MODE_VARIABLE in _environ or _REPORT_VARIABLE in _environ:
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
