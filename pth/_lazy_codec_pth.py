"""What lazy_codec.pth runs at every interpreter start in the environment
(`import _lazy_codec_pth`, its one line): a top-level module of its own, so
that its bytecode is cached (pip compiles it at install) and a start loads it
rather than compiling source (exec'd from the .pth line itself, its compile
took 3.0 M instructions of a 37.9 M `python -c pass` on 3.11; loaded from its
cached bytecode, 0.9 M).  It imports nothing (`codecs`, `os`, `sys` are
loaded by then) and does not import lazy_codec.

It registers the `lazy` codec, whose module is imported only when a file
with the cookie is decoded; on 3.9-3.14 it makes 3.15's sys API load the
runtime when first asked for (a module __getattr__ on sys); it reads
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
import codecs
import os
import sys


def search(name):
    if name == 'lazy':
        try:
            from lazy_codec._codec import search
        except ImportError as exc:
            raise LookupError('unknown encoding: lazy (lazy_codec is not importable: %s; reinstall it)' % exc) from None
        return search(name)


def api(name):
    if name in {'set_lazy_imports', 'get_lazy_imports', 'set_lazy_imports_filter', 'get_lazy_imports_filter', 'lazy_modules'}:
        import lazy_codec.runtime.api  # which puts them in sys
        return vars(sys)[name]
    raise AttributeError("module 'sys' has no attribute %r" % name)


def entry(*a, **k):
    return sys.modules['_frozen_importlib']._gcd_import('lazy_codec._entry').entry_point(*a, **k)


codecs.register(search)
import builtins
builtins.__lazy_codec_abi1__ = type(sys)('__lazy_codec_abi1__')
builtins.__lazy_codec_abi1__.__getattr__ = entry
if sys.version_info < (3, 15):
    vars(sys)['__getattr__'] = api
    builtins.ImportCycleError = type('ImportCycleError', (ImportError,), {'__doc__': 'Import produces a cycle.', '__module__': 'builtins'})
    builtins.__lazy_import__ = entry.__get__(builtins.__lazy_codec_abi1__)
    if 'lazy_imports' in sys._xoptions or 'PYTHON_LAZY_IMPORTS' in os.environ or \
            'LAZY_CODEC_LAZY_MODULES' in os.environ or 'LAZY_CODEC_REPORT' in os.environ:
        try:
            from lazy_codec._startup import start
        except ImportError:
            pass
        else:
            start()
if 'install' in sys.argv:
    try:
        from lazy_codec._startup import before_install
    except ImportError:
        pass
    else:
        before_install()
