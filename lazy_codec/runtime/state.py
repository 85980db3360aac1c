"""The runtime's mutable state, all of it, each piece with its invariant and
the lock it is under.  A leaf: it imports no other module of the runtime, so
that every module may read and change the state without importing the code
that first needed it.  The C accelerator is handed these objects at setup
(api._accelerate) and reads `controls` through its slots.
"""

import os
import sys
from _thread import RLock
from _weakref import ref as _weakref

TYPE_CHECKING = False  # (mypy reads `if TYPE_CHECKING:` blocks as true; typing is not imported)
if TYPE_CHECKING:
    from typing import Any


# Which runtime runs, chosen once as the runtime loads and never changed:
# the C accelerator's extension module (built where the install found a
# compiler and the interpreter's headers), or None where the pure runtime
# runs alone: LAZY_CODEC_PURE=1, a free-threaded build (the accelerator, as
# the runtime's dict edits, relies on the GIL), or no extension built.
# (Here, not in a module of its own: each module the runtime loads at its
# first statement costs that statement about 0.18 M instructions.)
def _accelerator():
    if os.environ.get('LAZY_CODEC_PURE') == '1':
        return None
    gil_enabled = getattr(sys, '_is_gil_enabled', None)
    if gil_enabled is not None and not gil_enabled():
        return None
    try:
        import lazy_codec.runtime._accel as _accel  # (a built extension: mypy has no stub of it)
    except ImportError:  # (not built: no compiler or no headers at install)
        return None
    return _accel


accel = _accelerator()


# Guards the check-then-replace of a lazy entry in a module dict (threads
# reifying one name at once bind it once) and every table below marked
# "under binding_lock".  Never held while importing; re-entrant, as a lookup
# made under it can run a lazy key's __eq__.  With the accelerator its own
# re-entrant lock, which C takes without a call (_accel_c/state.c).
binding_lock = RLock() if accel is None else accel.BindingLock()


# -- the controls: 3.15's sys.set_lazy_imports and filter, and the recorder --
class Controls:
    """what decides how a statement binds, read at every statement (by C
    through these slots): `mode`, 'normal' (`lazy` statements and
    __lazy_modules__) or 'all' (every eligible import); `filter`, None or
    3.15's filter, called at each potentially lazy import (falsy: eager);
    `recorder`, None or what is told of each binding and each resolution
    while `lazy-codec report` records (lazy_codec.tools.report.Recorder:
    created(lazy, bound, importer), start(lazy) -> token, finish(lazy,
    token, ok, frame))"""

    __slots__ = ('mode', 'filter', 'recorder')

    def __init__(self) -> None:
        self.mode = 'normal'
        self.filter = None
        self.recorder: Any = None


controls = Controls()


# -- live keys: when a namespace's last lazy name is used -------------------
class LiveKeys:
    """the count of a namespace's lazy keys not yet used: when it falls to 0
    the dict is rebuilt (no scan of the dict at each first use).  Held by
    each of those keys (`key.live`), so that it lives exactly as long as one
    of them does; `live_keys` holds it weakly.  `count` under binding_lock."""

    __slots__ = ('count', '__weakref__')

    def __init__(self) -> None:
        self.count = 0


# namespace id -> a weak reference to its LiveKeys.  Invariant: a live entry
# is the LiveKeys of the dict that has that id now: a dict freed with unused
# lazy names takes its keys, and so its LiveKeys, with it, and the next dict
# at that address finds a dead reference, not a stale count.  Under binding_lock.
live_keys: dict = {}


def live_keys_of(namespace: dict) -> LiveKeys:
    """(under binding_lock) the LiveKeys of `namespace`, made at its first lazy key"""
    found = live_keys.get(id(namespace))
    live = found() if found is not None else None
    if live is None:
        live = LiveKeys()
        live_keys[id(namespace)] = _weakref(live)
    return live


# -- the modules lazy statements named ---------------------------------------
def initializing(module) -> bool:
    """is `module` still running, as 3.15 asks: its spec's `_initializing`
    is anything but False (compared, never converted to bool); an Exception
    while asking counts as not running (a KeyboardInterrupt goes on)"""
    try:
        spec = getattr(module, '__spec__', None)
        return spec is not None and getattr(spec, '_initializing', False) is not False
    except Exception:
        return False


def loaded(name: str) -> bool:
    """is module `name` imported, as sys.lazy_modules counts it on 3.15: in
    sys.modules, not None (a blocked import), and not still running"""
    module = sys.modules.get(name)
    return module is not None and not initializing(module)


class _LazyModules(set):
    """names of modules that lazy statements asked for and that are not
    imported yet; `sys.lazy_modules` on 3.15.  Invariant, as seen by a
    reader: a name leaves when its module is imported, by whatever means
    (pruned when it is looked at, never by a scan at each import)"""

    __slots__ = ()

    def _pruned(self):
        for name in [name for name in set.__iter__(self) if loaded(name)]:
            self.discard(name)
        return self

    def __contains__(self, name):
        if not set.__contains__(self, name):
            return False
        if loaded(name):  # only this name: no scan of the set
            self.discard(name)
            return False
        return True

    def __iter__(self):
        return set.__iter__(self._pruned())

    def __len__(self):
        return set.__len__(self._pruned())

    def __repr__(self):
        return set.__repr__(set(self._pruned()))


_LazyModules.__name__ = _LazyModules.__qualname__ = 'set'
_LazyModules.__module__ = 'builtins'
lazy_modules = _LazyModules(vars(sys).get('lazy_modules', ()))  # not getattr: see the .pth
if sys.version_info < (3, 15):
    setattr(sys, 'lazy_modules', lazy_modules)

# Submodules waiting to be attached to a package not imported yet, or still
# running (see modules.attach_submodules); under binding_lock.
# parent name -> the child names to bind in it once it is imported
waiting_children: dict = {}
# parent name -> a lazy object whose statement named a child (an error at a
# first use points at its line); present while the parent's spec is a _DoneWatch
waiting_origin: dict = {}

# -- what the rebuilder has to do: under binding_lock ------------------------
# namespaces to rebuild plain, by id (each had its last lazy name used)
dirty: dict = {}
# (namespace, key, value) of keys settled in place because a for loop that
# may iterate `namespace` was running (see lookup.settle).  Each costs its
# name a Python __eq__ call per lookup until swapped, once no such loop runs;
# until then the dict is not rebuilt either
unswapped: list = []

# -- code objects that identify what a frame is doing -------------------------
# ids of the code objects of the import statements that resolution runs
# (each kept alive by resolution's cache): a lookup made by one of them is the
# import machinery resolving the name
statement_code_ids: set = set()
# the Python compare of a lazy key (lookup.key_eq), put here when lookup
# loads: a thread with a frame of it is inside a dict lookup, and the
# rebuilder must not free that dict's table meanwhile
lookup_codes: set = set()
# the globals of the modules whose own dict operations hash lazy keys
# (binding's, the rebuilder's, lookup's: settle, bind, replace_key, a
# rebuild), each put here when its module loads: they never read a key, so a
# key's hash answers them at once (C reads the same list).  With the
# accelerator the rebuilder and lookup load at their first need, so the list
# grows; nothing is removed
runtime_globals: list = []
