"""Lazy bindings in module dicts, and what a lookup of one does.

A lazy name is bound in its module's dict under a `LazyName` key: a str
subclass whose hash is the name's, so that every lookup of the name compares
it, and its `__eq__` runs.  `__eq__` looks at the frame doing the lookup: a
load of the name (LOAD_NAME, LOAD_GLOBAL, attribute access on the module, ...)
imports the target and replaces the entry by a plain str key and the real
object (`settle`); a store, a delete, `globals()[...]` or `in` leave it alone.
Once a module's last lazy name is gone its dict is rebuilt
(lazy_codec.runtime.rebuilder).  Modules keep their class: `type(mod) is
types.ModuleType` throughout, as on 3.15 (pickle, cloudpickle and dill
dispatch on the exact type).
"""

import sys
from _thread import RLock, get_ident
from _weakref import ref as _weakref
from types import ModuleType

from lazy_codec.runtime.accelerator import accel
from lazy_codec.runtime.bytecode import (
    NAME_LOADS,
    STDLIB_SITE,
    copies_read,
    current_offset,
    hands_value_out,
    ignores_errors,
    in_dict_loop,
    is_loading,
    is_star_import,
    reads_key,
    store_after,
    store_after_call,
)
from lazy_codec.runtime.rebuilder import plain_key, rebuild_later, replace_key, swap_later

# Guards the check-then-replace of a lazy entry in a module dict, so that
# threads reifying one name at once bind it once, and what waits for the
# rebuilder.  Never held while importing; re-entrant, as a lookup made under
# it can run __eq__.
binding_lock = RLock()


class LiveKeys:
    """the count of a namespace's lazy keys not yet used: when it falls to 0
    the dict is rebuilt (no scan of the dict at each first use).  Held by
    each of those keys (`key.live`), so that it lives exactly as long as one
    of them does; the table below holds it weakly.  `count` under
    binding_lock."""

    __slots__ = ('count', '__weakref__')

    def __init__(self) -> None:
        self.count = 0


# namespace id -> a weak reference to its LiveKeys.  Invariant: a live entry
# is the LiveKeys of the dict that has that id now: a dict freed with unused
# lazy names takes its keys, and so its LiveKeys, with it, and the next dict
# at that address finds a dead reference, not a stale count.  Under binding_lock.
_live_keys: dict = {}


def _live_keys_of(namespace: dict) -> LiveKeys:
    """(under binding_lock) the LiveKeys of `namespace`, made at its first lazy key"""
    found = _live_keys.get(id(namespace))
    live = found() if found is not None else None
    if live is None:
        live = LiveKeys()
        _live_keys[id(namespace)] = _weakref(live)
    return live


TYPE_CHECKING = False  # (mypy reads `if TYPE_CHECKING:` blocks as true; typing is not imported)

# lazy_codec.tools.report.Recorder while a report is asked for, else None
# (set by record_with): told of each binding made and each resolution
recorder: 'Recorder | None' = None


class Recorder:
    """what record_with's recorder is told (lazy_codec.tools.report's is one)"""

    def created(self, lazy, bound: str, importer: str) -> None:
        pass

    def start(self, lazy) -> object:
        return None

    def finish(self, lazy, started, ok: bool, frame) -> None:
        pass


_getframe = sys._getframe
_str_eq = str.__eq__
_MISSING = object()
_HANDLE_FROMLIST_CODE = sys.modules['_frozen_importlib']._handle_fromlist.__code__


# the key's base: with the accelerator, a str whose compare and hash are in C
# (see the end of LazyName)
_KeyBase = str if accel is None else accel.KeyBase


class LazyName(_KeyBase):  # type: ignore[valid-type, misc]
    """the key of a lazy binding in a module dict (see the module docstring);
    its attributes: `namespace`, the dict it is bound in; `lazy`, the lazy
    object until the name is used (then None; again the lazy object when one
    is stored back under a used key: see EscapedName); `resolving`, the thread that
    imports the target, while it does; `running`, the partial module a use
    inside that import was given"""

    if TYPE_CHECKING:  # (for mypy: no __annotations__ at run time)
        namespace: dict
        lazy: 'reify.LazyImportType | None'
        live: LiveKeys
        resolving: int | None
        running: ModuleType | None
    resolving = running = None  # (defaults: most keys never set them)

    def __hash__(self, _getframe=_getframe, _str_hash=str.__hash__):
        # Called only when this key object itself is looked up (a plain name
        # has its own hash): `from m import *` and `getattr(m, k) for k in
        # dir(m)` do, and must reify as on 3.15. (Defaults, not globals: at
        # exit, module dicts are cleared, this module's too, through their keys)
        frame = _getframe(0).f_back  # None when hashed by C with no Python caller
        if (
            frame is not None
            and frame.f_globals is not _OUR_GLOBALS
            and frame.f_globals is not _REBUILDER_GLOBALS
            and self.lazy is not None
            and reads_key(frame)
            and not (self.lazy._attached and is_star_import(frame))
        ):
            # (of a package without __all__, `import *` copies a submodule's
            # lazy binding as it is: on 3.15 that binding is not in the
            # package's dict, and the import does not resolve it)
            exc = settle(self, self.namespace)
            if exc is not None:
                raise exc
        return _str_hash(self)

    def __eq__(self, other):
        if _str_eq(self, other) is not True:
            return False
        frame = _getframe(1)
        if self.lazy is None:
            # used, yet still a key: settled in place (an escaped key, a loop),
            # or put back by a restore of a copy (mock.patch.dict)
            loading = _rearmed(self, frame)
            if not loading:
                return True
        else:
            loading = is_loading(frame)  # (STDLIB_SITE: see below)
            if not loading:
                if hands_value_out(frame) and not _in_runtime(frame):
                    return _handed_out(self, frame)
                return True
        namespace = self.namespace
        op = frame.f_code.co_code[current_offset(frame)]
        if op in NAME_LOADS and frame.f_globals is not namespace:
            # copied into another dict by `from m import *` (whose own
            # lookups cannot be seen): the lookup is in the frame's namespace
            for candidate in (frame.f_locals, frame.f_globals):
                if type(candidate) is dict and candidate.get(self, _MISSING) is not _MISSING:
                    namespace = candidate
                    break
        if self.resolving == get_ident():
            if id(frame.f_code) in reify.statement_code_ids or frame.f_code is _HANDLE_FROMLIST_CODE:
                # the import machinery, resolving this name: as before the
                # binding existed, there is no such name yet (so that `from .
                # import sub`, run in `sub`'s own package, imports it), until
                # the import of the submodule stores it (then the module is
                # found, and the package's module __getattr__ is not called)
                return type(namespace.get(self, None)) is not reify.LazyImportType
            lazy = self.lazy
            assert lazy is not None  # (settle sets `resolving` while the key is lazy)
            if lazy._attached:
                running = sys.modules.get(lazy._name)
                if running is not None:
                    # a package's submodule, used inside its own import (its
                    # code reads pkg.sub): the module being run, as importlib
                    # gives it; until that import ends (see settle)
                    with binding_lock:
                        namespace[self] = running  # (in place: the lookup goes on)
                        self.running = running
                    return True
            return reify.raising(
                reify.ImportCycleError(
                    f'cannot import name {lazy._name!r} (most likely due to a circular import)',
                    name=lazy._base or lazy._name,
                )
            )
        if loading is STDLIB_SITE:
            return _stdlib_site_load(self, namespace, frame)
        exc = settle(self, namespace, frame)
        if exc is not None:
            return reify.raising(exc)
        # the dict has changed: the lookup in progress starts again and
        # finds the real object under a plain key
        return True

    def __ne__(self, other):
        return not self.__eq__(other)

    def __reduce__(self):
        return str, (str(self),)


# what a lookup that compares a key runs in Python (rebuilder._in_lookup
# looks for its frames); with the accelerator, the C compare and hash do the
# common case and call these for the rest, and the key's attributes are the
# C base's slots
key_eq = LazyName.__eq__
key_hash = LazyName.__hash__
if accel is not None:
    for _attribute in ('__eq__', '__ne__', '__hash__', 'resolving', 'running'):
        delattr(LazyName, _attribute)


class EscapedName(LazyName):
    """a lazy key whose lazy object a peek handed out (`vars(m)[name]`,
    mock's save): its class is changed to this one then (a type check in
    settle, where an attribute would cost every first use).  The entry keeps
    this key after its first use, so that the lazy object stored back under
    the name (mock's restore) is resolved at its next load, as 3.15 resolves
    a lazy object wherever a load finds it; the dict is not rebuilt plain"""

    __slots__ = ()


# the two modules whose own dict operations hash lazy keys (settle, bind,
# replace_key): they never read a key, so __hash__ answers them at once
_OUR_GLOBALS = globals()
_REBUILDER_GLOBALS = vars(sys.modules['lazy_codec.runtime.rebuilder'])


def record_with(new_recorder) -> None:
    """tell `new_recorder` (or nobody, None) of every lazy binding made and
    every resolution from now on: created(lazy, name, importer), start(lazy)
    -> token, finish(lazy, token, ok, frame)"""
    global recorder
    recorder = new_recorder


def settle(key: LazyName, namespace: dict, frame=None) -> 'BaseException | None':
    """replace `key` in `namespace` by a plain key and its real value
    (`frame`: the one whose load this is, if known); the error to raise if
    the import failed (the binding stays lazy then)"""
    current = namespace.get(key, _MISSING)  # finds `key` itself by identity
    if current is _MISSING:  # a copy of the dict: only the original reifies
        return None
    home = namespace is key.namespace
    lazy = key.lazy if home else current
    if type(current) is reify.LazyImportType:
        key.resolving = get_ident()
        started = recorder.start(current) if recorder is not None else None
        try:
            current, exc = reify.import_target(current)
        finally:
            key.resolving = None
            if key.running is not None:
                with binding_lock:
                    if exc is not None and namespace.get(key, None) is key.running:
                        namespace[key] = lazy  # failed: lazy again, as before its import
                    key.running = None
            if started is not None and recorder is not None:
                recorder.finish(lazy, started, exc is None, _getframe(2))
        if exc is not None:
            return exc
    with binding_lock:
        if (key.lazy is lazy or not home) and namespace.get(key, _MISSING) is not _MISSING:
            in_loop = home and frame is not None and in_dict_loop(frame)
            if home and type(key) is EscapedName:
                namespace[key] = current  # in place: the key stays (see EscapedName)
            elif in_loop:
                # The load is inside a for loop that may iterate this very
                # dict (a comprehension over globals().items() that uses the
                # name, as tkinter has): the value replaced in place, under
                # the same key object, so that the entry keeps its place and
                # the iteration goes on as on 3.15. The rebuilder makes the
                # key plain once no such loop runs; until then the name's
                # lookups pass through __eq__, which answers at once.
                namespace[key] = current
                swap_later(namespace, key, current)
            else:
                replace_key(namespace, key, plain_key(key), current)
            if home:
                key.lazy = None
                live = key.live
                live.count -= 1
                if live.count <= 0:
                    _live_keys.pop(id(namespace), None)
                    rebuild_later(namespace)
            else:  # a copy `import *` made
                rebuild_later(namespace)
    return None


def bind(namespace, name: str, lazy, record: bool = True) -> None:
    """bind `name` in `namespace` to `lazy` (a LazyImportType) lazily"""
    if recorder is not None and record:
        recorder.created(lazy, name, lazy._globals.get('__name__'))
    if type(namespace) is not dict:  # e.g. exec() with a mapping: no key trick
        namespace[name] = lazy.resolve()
        return
    with binding_lock:
        bound = namespace.get(name)  # (a peek: reifies nothing)
        old_key = bound._key if type(bound) is reify.LazyImportType else None
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
        lazy._key = key
        found = _live_keys.get(id(namespace))  # (_live_keys_of, inline: every statement runs it)
        live = found() if found is not None else None
        if live is None:
            live = _live_keys_of(namespace)
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


def _stdlib_site_load(key: LazyName, namespace: dict, frame) -> bool:
    """__eq__'s load at one of the stdlib sites that 3.15 made loads (see
    bytecode.stdlib_site_loads): errors ignored where 3.15's site ignores
    them, and the copies of the dict that the site reads resolved too"""
    lazy = key.lazy
    exc = settle(key, namespace, frame)
    if exc is not None:
        return True if ignores_errors(frame) else reify.raising(exc)
    for copy in copies_read(frame):
        if copy is not namespace and copy.get(key, None) is lazy:
            copy[key] = lazy.resolve()
    return True


def _rearmed(key: LazyName, frame):
    """a load of a used key whose entry holds a lazy object again (the one a
    peek handed out or a copy kept, stored back): make the key wait for it,
    as when bound"""
    loading = is_loading(frame)
    if not loading or _in_runtime(frame):
        return False
    namespace = key.namespace
    with binding_lock:
        value = namespace.get(key, None)
        if type(value) is not reify.LazyImportType or key.lazy is not None:
            return key.lazy is not None and loading
        key.lazy = value
        key.live = _live_keys_of(namespace)
        key.live.count += 1
    return loading


def _in_runtime(frame) -> bool:
    """is `frame` running the runtime's own code (whose peeks at a module
    dict, `namespace.get(name)`, never hand a lazy object to the program)?"""
    name = frame.f_globals.get('__name__')
    return type(name) is str and name.startswith('lazy_codec.')


def _handed_out(key: LazyName, frame) -> bool:
    """a peek is handing `key`'s lazy object out: mark the key escaped, and
    where the frame stores the value in a module's global next (`alias =
    globals()['json']`), bind it there lazily first, so that the store keeps
    a lazy key and a load of the alias resolves it, as on 3.15"""
    if type(key) is LazyName:
        key.__class__ = EscapedName
    target = store_after(frame)
    if target is not None and type(target[0]) is dict and target[1] != key:
        bind_alias(target[0], target[1], key.lazy)
    return True


def bind_alias(namespace: dict, name: str, lazy) -> None:
    """bind `name` in `namespace` to `lazy`, a lazy object bound elsewhere,
    lazily (its own binding, the lazy object's `_key`, is left as it is)"""
    with binding_lock:
        key = EscapedName(name)
        key.namespace = namespace
        key.lazy = lazy
        key.live = _live_keys_of(namespace)
        key.live.count += 1
        if name not in namespace:
            namespace[key] = lazy
        else:
            replace_key(namespace, name, key, lazy)


# (last: it imports this module)
from lazy_codec.runtime import reify  # noqa: E402
