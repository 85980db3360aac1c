"""The entry ABI, in one place: how rewritten code reaches the runtime.

Rewritten code calls the runtime's entry points (lazy_codec.rewrite's
ENTRY_POINTS) as attributes of a builtin object (ENTRY_NAME), with no
import: a replaced builtins.__import__, and tests that watch it, see none at
a lazy statement.  The .pth makes that object at interpreter start (its
`entry` function is the object's __getattr__, and, bound to it, the stub of
builtins.__lazy_import__ until the runtime replaces it); `install_entry`
makes the same object where no .pth ran (`python -S -m lazy_codec run`,
IPython).  Its first use of a name loads the runtime, which fills the
object in.  Bytecode cached by 0.1 imports the same names from ENTRY_MODULE
(lazy_codec._abi1).  These names never change meaning: bytecode cached by
one release must run with the next.
"""

import sys

from lazy_codec.rewrite import ENTRY_NAME, ENTRY_POINTS

ENTRY_MODULE = 'lazy_codec._abi1'


def entry_point(*args, **kwargs):
    """the entry object's __getattr__ (args: the name); and, until the runtime
    is loaded, builtins.__lazy_import__ as the .pth makes it: this, through
    the .pth's `entry`, bound to the entry object (args: it, then the call's)"""
    name = args[0]
    if 'lazy_codec.runtime.api' not in sys.modules:
        sys.modules['_frozen_importlib']._gcd_import('lazy_codec.runtime').load()
    if type(name) is not str:
        runtime = sys.modules['_frozen_importlib']._gcd_import('lazy_codec.runtime.api')
        return runtime.dunder_lazy_import(sys._getframe(2), args[1:], kwargs)
    if name in ENTRY_POINTS:
        # not an import statement: a replaced builtins.__import__ sees none
        runtime = sys.modules['_frozen_importlib']._gcd_import('lazy_codec.runtime.api')
        return runtime.entry_point(name)  # which fills in the entry object
    raise AttributeError(f'module {ENTRY_NAME!r} has no attribute {name!r}')


def install_entry() -> None:
    """make the builtin entry object, unless the .pth made it"""
    import builtins

    # (3.15+ too: a file that is not UTF-8, or a lazy statement 3.15 rejects,
    # still becomes a module that raises through it)
    if ENTRY_NAME not in vars(builtins):
        entry = type(sys)(ENTRY_NAME)
        setattr(entry, '__getattr__', entry_point)
        setattr(builtins, ENTRY_NAME, entry)
