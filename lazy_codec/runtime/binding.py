"""Lazy bindings in module dicts: the key a lazy name is bound under, the
dict edits made on it, and making a binding.

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

from lazy_codec.runtime.access import ModuleType, store_after_call
from lazy_codec.runtime.lazy import LazyImportType
from lazy_codec.runtime.state import (
    LiveKeys,
    accel,
    binding_lock,
    controls,
    live_keys,
    live_keys_of,
    runtime_globals,
    waiting_origin,
)

runtime_globals.append(globals())  # (see state.runtime_globals)
TYPE_CHECKING = False  # (mypy reads `if TYPE_CHECKING:` blocks as true; typing is not imported)

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
        lazy: LazyImportType | None
        live: LiveKeys
        resolving: int | None
        running: ModuleType | None
    # No __dict__ (nor weak references), as a str has none: with the
    # accelerator its attributes are the C base's; a dict of its own would
    # cost each key's allocation and each collection that visits it
    __slots__ = ('namespace', 'lazy', 'live', 'resolving', 'running') if accel is None else ()

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


# the accelerator's change of an entry where it stands (see
# _accel_c/dict_entries.c), or None
_replace_in_place = None if accel is None else accel.replace_key


def replace_key(namespace: dict, old, new, value) -> None:
    """the entry under `old` made the entry `new: value`.  With the
    accelerator, where it stands: the name keeps its place in the dict and
    the dict its size, so an iteration of it in any frame goes on, as on
    3.15, whose entries keep their key.  Else (the pure runtime, or a table
    of str keys only, which a lazy key cannot enter in place): delete then
    insert, as one C call; the name moves to the end of the dict.  Neither
    frees the table that a lookup in progress (one that called a lazy key's
    __eq__) reads: a resize makes the new table before freeing the old; a
    rebuild would not be safe there."""
    if _replace_in_place is None or not _replace_in_place(namespace, old, new, value):
        in_one_call(partial(namespace.__delitem__, old), partial(namespace.__setitem__, new, value))


def replaces_in_place() -> bool:
    """does replace_key keep entries where they stand (a table of any keys)?"""
    return _replace_in_place is not None and accel.entries_in_place()


def plain_key(key: str) -> str:
    """the exact, interned str for a lazy key's name"""
    return sys.intern(str(key))


# -- making lazy bindings ------------------------------------------------------
_MISSING = object()


def bind(namespace, name: str, lazy, record: bool = True) -> None:
    """bind `name` in `namespace` to `lazy` (a LazyImportType) lazily"""
    recorder = controls.recorder
    if recorder is not None and record:
        recorder.created(lazy, name, lazy._globals.get('__name__'))
    if type(namespace) is not dict:  # e.g. exec() with a mapping: no key trick
        namespace[name] = lazy.resolve()
        return
    with binding_lock:
        bound = namespace.get(name)  # (a peek: reifies nothing)
        old_key = bound._key if type(bound) is LazyImportType else None
        if old_key is not None and old_key.namespace is namespace and old_key.lazy is bound:
            # the statement ran before and its binding was never used:
            # rebind that key (found through its value, without a scan)
            lazy._key = old_key
            old_key.lazy = lazy
            old_key.resolving = None
            namespace[old_key] = lazy
            return
        key = LazyName(name)
        key.namespace = namespace
        key.lazy = lazy
        key.resolving = key.running = None
        lazy._key = key
        found = live_keys.get(id(namespace))  # (_live_keys_of, inline: every statement runs it)
        live = found() if found is not None else None
        if live is None:
            live = live_keys_of(namespace)
        key.live = live
        live.count += 1
        if name not in namespace:
            namespace[key] = lazy
        else:
            # a plain binding (an eager import before, a reload, a key that
            # `import *` copied from another module): safe anywhere (see
            # replace_key)
            replace_key(namespace, name, key, lazy)


def rebind(namespace: dict, name: str, lazy, value) -> None:
    """`name`, bound to `lazy` in `namespace`, bound to `value` instead,
    unless another thread rebound it meanwhile"""
    with binding_lock:
        if namespace.get(name, _MISSING) is lazy:
            namespace[name] = value


def bind_where_stored(lazy, frame) -> None:
    """`x = __lazy_import__(...)` (x a module global) and `mod.x =
    __lazy_import__(...)` (mod a module): bind the lazy object there now, as
    a lazy binding, so that the store that follows the call (which keeps an
    equal key) leaves a binding whose load reifies, as on 3.15"""
    target = store_after_call(frame)
    if target is not None and type(target[0]) is dict:
        bind(target[0], target[1], lazy)


def bind_alias(namespace: dict, name: str, lazy) -> None:
    """bind `name` in `namespace` to `lazy`, a lazy object bound elsewhere,
    lazily (its own binding, the lazy object's `_key`, is left as it is)"""
    with binding_lock:
        key = EscapedName(name)
        key.namespace = namespace
        key.lazy = lazy
        key.resolving = key.running = None
        key.live = live_keys_of(namespace)
        key.live.count += 1
        if name not in namespace:
            namespace[key] = lazy
        else:
            replace_key(namespace, name, key, lazy)


# -- a running package's submodules, attached when importlib marks it done --
ModuleSpec = sys.modules['_frozen_importlib'].ModuleSpec

# What attaches a package's waiting submodules (state.waiting_children) once
# it is done: the accelerator's, or resolution.attach_submodules, set as
# resolution loads (the pure runtime loads it at its start).  Here, with the
# class that calls it, so that a lazy statement in a running package loads
# no module that waits for a first need (LOADED_ON_DEMAND).
attach_waiting = None if accel is None else accel.attach_submodules


class DoneWatch(ModuleSpec):  # type: ignore[misc, valid-type]
    """the class of a running package's spec while lazy statements wait to
    attach its submodules: importlib's `spec._initializing = False`, when the
    package is done, attaches them (3.15 does then), and the spec is a plain
    ModuleSpec again"""

    __slots__ = ()

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if name == '_initializing' and value is False:
            object.__setattr__(self, '__class__', ModuleSpec)
            origin = waiting_origin.pop(self.name, None)
            parent = sys.modules.get(self.name)
            if origin is not None and parent is not None and getattr(parent, '__spec__', None) is self:
                attach_waiting(self.name, origin)  # type: ignore[misc]
