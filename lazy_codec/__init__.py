"""PEP 810 lazy imports (`lazy import x`) for CPython 3.9-3.14, by a source codec.

PYTEST_DONT_REWRITE (pytest loads lazy_codec._pytest_plugin, and would warn
in mode "all" that this package was imported before it could rewrite it)
"""
__version__ = '0.1.0'

import sys as _sys

# The stable names rewritten code calls: bytecode cached by one release must
# run with the next, so these never change meaning.  Rewritten code reaches
# them as attributes of the builtin ENTRY_NAME, with no import (a replaced
# builtins.__import__, and tests that watch it, see none at a lazy
# statement); the .pth makes that object at start, and so does this module,
# for runs without the .pth (`python -S -m lazy_codec run`, IPython).  The
# object is a module outside sys.modules whose first use of a name loads the
# runtime.  Bytecode cached by 0.1 imports the same names from ENTRY_MODULE.
ENTRY_NAME = '__lazy_codec_abi1__'
ENTRY_POINTS = ('lazy_import', 'lazy_from', 'maybe_lazy_import', 'maybe_lazy_from', 'syntax_error')
ENTRY_MODULE = 'lazy_codec._abi1'


def _entry_point(*args, **kwargs):
    """the entry object's __getattr__ (args: the name); and, until the runtime
    is loaded, builtins.__lazy_import__ as the .pth makes it: this, through
    the .pth's `entry`, bound to the entry object (args: it, then the call's)"""
    name = args[0]
    if type(name) is not str:
        runtime = _sys.modules['_frozen_importlib']._gcd_import('lazy_codec._runtime')
        return runtime.dunder_lazy_import(_sys._getframe(2), args[1:], kwargs)
    if name in ENTRY_POINTS:
        # not an import statement: a replaced builtins.__import__ sees none
        runtime = _sys.modules['_frozen_importlib']._gcd_import('lazy_codec._runtime')
        return runtime.entry_point(name)  # which fills in the entry object
    raise AttributeError(f'module {ENTRY_NAME!r} has no attribute {name!r}')


def _install_entry() -> None:
    import builtins
    # (3.15+ too: a file that is not UTF-8, or a lazy statement 3.15 rejects,
    # still becomes a module that raises through it)
    if ENTRY_NAME not in vars(builtins):
        entry = type(_sys)(ENTRY_NAME)
        entry.__getattr__ = _entry_point
        setattr(builtins, ENTRY_NAME, entry)


_install_entry()


def register_codec() -> None:
    """the entry point of lazy_codec.start (PEP 829: 3.15 runs it at start in
    place of the .pth's import line): registers the codec, whose module is
    imported only when a file with the cookie is decoded"""
    import codecs
    codecs.register(_search)
    if 'install' in _sys.argv:  # as the .pth does: see _startup.before_install
        from lazy_codec._startup import before_install
        before_install()


def _search(name):
    if name == 'lazy':
        from lazy_codec._codec import search
        return search(name)
    return None


def load_ipython_extension(ipython):
    """`%load_ext lazy_codec`: lazy statements in IPython/Jupyter cells"""
    from lazy_codec._ipython import load_ipython_extension
    load_ipython_extension(ipython)


def unload_ipython_extension(ipython):
    from lazy_codec._ipython import unload_ipython_extension
    unload_ipython_extension(ipython)
