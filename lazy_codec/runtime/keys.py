"""The key of a lazy binding in a module dict, and the dict edits made on it.

A lazy name is bound in its module's dict under a `LazyName` key: a str
subclass whose hash is the name's, so that every lookup of the name compares
it, and its `__eq__` runs.  What that compare does (a load imports the
target and makes the entry plain; a peek leaves it alone) is
lazy_codec.runtime.lookup's, which installs it on the class (with the
accelerator, the C base's compare and hash do the common case and call
lookup's for the rest).  Modules keep their class: `type(mod) is
types.ModuleType` throughout, as on 3.15.
"""

import sys
from _functools import partial
from _operator import methodcaller
from types import ModuleType

from lazy_codec.runtime.accelerator import accel
from lazy_codec.runtime.state import LiveKeys

TYPE_CHECKING = False  # (mypy reads `if TYPE_CHECKING:` blocks as true; typing is not imported)
if TYPE_CHECKING:
    from lazy_codec.runtime.lazy import LazyImportType

# the key's base: with the accelerator, a str whose compare and hash are in C
_KeyBase = str if accel is None else accel.KeyBase


class LazyName(_KeyBase):  # type: ignore[valid-type, misc]
    """the key of a lazy binding in a module dict (see the module docstring);
    its attributes: `namespace`, the dict it is bound in; `lazy`, the lazy
    object until the name is used (then None; again the lazy object when one
    is stored back under a used key: see EscapedName); `live`, its
    namespace's LiveKeys; `resolving`, the thread that imports the target,
    while it does; `running`, the partial module a use inside that import
    was given"""

    if TYPE_CHECKING:  # (for mypy: no __annotations__ at run time)
        namespace: dict
        lazy: 'LazyImportType | None'
        live: LiveKeys
        resolving: int | None
        running: ModuleType | None
    if accel is None:
        resolving = running = None  # (defaults: most keys never set them; C's are slots)

    def __reduce__(self):
        return str, (str(self),)


class EscapedName(LazyName):
    """a lazy key whose lazy object a peek handed out (`vars(m)[name]`,
    mock's save): its class is changed to this one then (a type check in
    settle, where an attribute would cost every first use).  The entry keeps
    this key after its first use, so that the lazy object stored back under
    the name (mock's restore) is resolved at its next load, as 3.15 resolves
    a lazy object wherever a load finds it; the dict is not rebuilt plain"""

    __slots__ = ()


_call = methodcaller('__call__')


def in_one_call(*calls) -> None:
    """run `calls` (C functions with their arguments bound) as one C call:
    no other thread runs between them, as a thread switch needs bytecode.
    That holds under the GIL only: on a free-threaded build (3.13t, 3.14t)
    another thread can run meanwhile, and lazy_codec is not made for those
    builds yet (its dict edits rely on this)."""
    any(map(_call, calls))


def replace_key(namespace: dict, old, new, value) -> None:
    """the entry under `old` made the entry `new: value`: delete then insert,
    as one C call.  Neither frees the table that a lookup in progress (one
    that called a lazy key's __eq__) reads: a resize makes the new table
    before freeing the old; a rebuild would not be safe there.  The name
    moves to the end of the dict."""
    in_one_call(partial(namespace.__delitem__, old), partial(namespace.__setitem__, new, value))


def plain_key(key: str) -> str:
    """the exact, interned str for a lazy key's name"""
    return sys.intern(str(key))
