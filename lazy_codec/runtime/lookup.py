"""What a lookup of a lazy key does (lazy_codec.runtime.binding): its compare
and hash, installed on the key's class when this module loads (with the
accelerator, the C base's compare and hash call these for what they leave).

`__eq__` looks at the frame doing the lookup: a load of the name
(LOAD_NAME, LOAD_GLOBAL, attribute access on the module, ...) imports the
target and replaces the entry by a plain str key and the real object
(`settle`); a store, a delete, `globals()[...]` or `in` leave it alone.
Once a module's last lazy name is gone its dict is rebuilt
(lazy_codec.runtime.rebuilder).
"""

import sys
from _thread import get_ident

from lazy_codec.runtime.access import (
    ATTRIBUTE_LOADS,
    NAME_LOADS,
    PEEK,
    STDLIB_LOAD,
    callee_name,
    copies_read,
    hands_value_out,
    ignores_errors,
    is_star_import,
    lookup_kind,
    reads_key,
    returned_to,
    store_after,
)
from lazy_codec.runtime.binding import (
    EscapedName,
    LazyName,
    bind_alias,
    plain_key,
    replace_key,
    replaces_in_place,
)
from lazy_codec.runtime.lazy import ImportCycleError, LazyImportType, raising
from lazy_codec.runtime.opcodes import CALLS, LOAD_NAME, calling_offset, current_offset
from lazy_codec.runtime.rebuilder import in_dict_loop, rebuild_later, swap_later
from lazy_codec.runtime.resolution import import_target
from lazy_codec.runtime.state import (
    accel,
    binding_lock,
    controls,
    live_keys,
    live_keys_of,
    lookup_codes,
    runtime_globals,
    statement_code_ids,
)

_getframe = sys._getframe
_str_eq = str.__eq__
_MISSING = object()
_HANDLE_FROMLIST_CODE = sys.modules['_frozen_importlib']._handle_fromlist.__code__
runtime_globals.append(globals())  # (see state.runtime_globals)


def key_hash(self, _getframe=_getframe, _str_hash=str.__hash__, _ours=runtime_globals):
    """a lazy key's hash (the name's)"""
    # Called only when this key object itself is looked up (a plain name
    # has its own hash): `from m import *` and `getattr(m, k) for k in
    # dir(m)` do, and must reify as on 3.15. (Defaults, not globals: at
    # exit, module dicts are cleared, this module's too, through their keys)
    frame = _getframe(0).f_back  # None when hashed by C with no Python caller
    if (
        frame is not None
        and self.lazy is not None
        and not any(frame.f_globals is ours for ours in _ours)
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


def key_eq(self, other):
    """a lazy key compared in a lookup (see the module docstring)"""
    if _str_eq(self, other) is not True:
        return False
    frame = _getframe(1)
    if self.lazy is None:
        # used, yet still a key: settled in place (an escaped key, a loop),
        # or put back by a restore of a copy (mock.patch.dict).  Its entry
        # holds the real object (each lookup of a loop over the dict, until
        # the rebuilder makes the key plain): nothing to do, and no bytecode
        # to read (the lookup that finds the entry is ours: in our frame,
        # its compare of `self` with the entry's key answers at once)
        if _in_runtime(frame):
            return True
        if frame.f_globals is not self.namespace:
            # a name load in a copy of the dict that still holds the lazy
            # object (a copy given to eval or exec, builtins)
            copy = _copy_loaded(self, frame, True)
            if copy is not None:
                exc = settle(self, copy, frame) if type(copy) is dict else _settle_in_mapping(self, copy)
                return True if exc is None else raising(exc)
        if type(self.namespace.get(self, None)) is not LazyImportType:
            return True
        loading = _rearmed(self, frame)
        if not loading:
            return True
    else:
        loading = lookup_kind(frame)  # (PEEK is falsy; STDLIB_LOAD: see below)
        if not loading:
            if not hands_value_out(frame) or _in_runtime(frame):
                return True
            caller = _answering_name_load(frame)
            if caller is None:
                return _handed_out(self, frame)
            frame = caller  # (a load)
    namespace = self.namespace
    if frame.f_globals is not namespace:
        copy = _copy_loaded(self, frame)
        if copy is not None:
            if type(copy) is not dict:
                exc = _settle_in_mapping(self, copy)
                return True if exc is None else raising(exc)
            namespace = copy
    if self.resolving == get_ident():
        if id(frame.f_code) in statement_code_ids or frame.f_code is _HANDLE_FROMLIST_CODE:
            # the import machinery, resolving this name: as before the
            # binding existed, there is no such name yet (so that `from .
            # import sub`, run in `sub`'s own package, imports it), until
            # the import of the submodule stores it (then the module is
            # found, and the package's module __getattr__ is not called)
            return type(namespace.get(self, None)) is not LazyImportType
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
        return raising(
            ImportCycleError(
                f'cannot import name {lazy._name!r} (most likely due to a circular import)',
                name=lazy._base or lazy._name,
            )
        )
    if loading == STDLIB_LOAD:
        return _stdlib_site_load(self, namespace, frame)
    exc = settle(self, namespace, frame)
    if exc is not None:
        return raising(exc)
    # the dict has changed: the lookup in progress starts again and
    # finds the real object under a plain key
    return True


def settle(key: LazyName, namespace: dict, frame=None) -> 'BaseException | None':
    """replace `key` in `namespace` by a plain key and its real value
    (`frame`: the one whose load this is, if known); the error to raise if
    the import failed (the binding stays lazy then)"""
    current = namespace.get(key, _MISSING)  # finds `key` itself by identity
    if current is _MISSING:  # a copy of the dict: only the original reifies
        return None
    home = namespace is key.namespace
    lazy = key.lazy if home else current
    if type(current) is LazyImportType:
        key.resolving = get_ident()
        recorder = controls.recorder
        started = recorder.start(current) if recorder is not None else None
        try:
            current, exc = import_target(current)
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
            # (a change in place keeps the entry where it stands, loop or not)
            in_loop = home and frame is not None and not replaces_in_place() and in_dict_loop(frame)
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
                    live_keys.pop(id(namespace), None)
                    rebuild_later(namespace)
            else:  # a copy `import *` made
                rebuild_later(namespace)
    return None


def _copy_loaded(key: LazyName, frame, lazy_only: bool = False) -> 'dict | None':
    """the dict other than the key's own where the name load `frame` is
    running finds `key` (the lookup in progress): a copy of its module's
    dict (`from m import *`, a copy given to eval or exec, a dict subclass's)
    or builtins that its entries were copied into; with `lazy_only`, only
    one whose entry holds a lazy object; None for its own dict or no load"""
    op = frame.f_code.co_code[current_offset(frame)]
    if op not in NAME_LOADS:
        caller = _answering_name_load(frame) if op in CALLS else None
        if caller is None:
            return None
        frame, op = caller, caller.f_code.co_code[current_offset(caller)]
    own = key.namespace
    for candidate in (
        (frame.f_locals, frame.f_globals, frame.f_builtins)
        if op == LOAD_NAME
        else (frame.f_globals, frame.f_builtins)
    ):
        if candidate is own:
            return None
        if isinstance(candidate, dict):
            value = dict.get(candidate, key, _MISSING)
            if value is not _MISSING:
                return candidate if not lazy_only or type(value) is LazyImportType else None
    return None


def _answering_name_load(frame):
    """the caller whose name load `frame` answers: a mapping's own
    __getitem__ (`return super().__getitem__(name)`) called by a LOAD_NAME or
    LOAD_GLOBAL of eval's or exec's code, which resolves what it returns, as
    on 3.15; None for any other frame"""
    caller = returned_to(frame)
    if caller is None or caller.f_code.co_code[current_offset(caller)] not in NAME_LOADS:
        return None
    return caller


def _settle_in_mapping(key: LazyName, namespace: dict) -> 'BaseException | None':
    """a load of `key` in a dict subclass that a module's dict was copied
    into (eval's or exec's globals or locals): its lazy object resolved and
    the value stored in its place by the mapping's own __setitem__, as
    3.15's name loads do; the key stays (the entry keeps its place, and its
    later loads find the value at once).  The error to raise if the import
    failed (the entry stays lazy then)"""
    current = dict.get(namespace, key, _MISSING)
    if type(current) is not LazyImportType:
        return None
    key.resolving = get_ident()
    try:
        value, exc = import_target(current)
    finally:
        key.resolving = None
    if exc is not None:
        return exc
    if dict.get(namespace, key, _MISSING) is current:
        namespace[key] = value
    return None


def _stdlib_site_load(key: LazyName, namespace: dict, frame) -> bool:
    """__eq__'s load at one of the stdlib sites that 3.15 made loads (see
    access.stdlib_site_loads): errors ignored where 3.15's site ignores
    them, and the copies of the dict that the site reads resolved too"""
    lazy = key.lazy
    exc = settle(key, namespace, frame)
    if exc is not None:
        return True if ignores_errors(frame) else raising(exc)
    for copy in copies_read(frame):
        if copy is not namespace and copy.get(key, None) is lazy:
            copy[key] = lazy.resolve()
    return True


def _rearmed(key: LazyName, frame) -> int:
    """a load of a used key whose entry holds a lazy object again (the one a
    peek handed out or a copy kept, stored back): make the key wait for it,
    as when bound"""
    loading = lookup_kind(frame)
    if not loading or _in_runtime(frame):
        return PEEK
    namespace = key.namespace
    with binding_lock:
        value = namespace.get(key, None)
        if type(value) is not LazyImportType or key.lazy is not None:
            return loading if key.lazy is not None else PEEK
        key.lazy = value
        key.live = live_keys_of(namespace)
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
    if target is None:
        target = _stored_by_caller(frame)
    if target is not None and type(target[0]) is dict and target[1] != key:
        bind_alias(target[0], target[1], key.lazy)
    return True


def _stored_by_caller(frame):
    """(namespace, name) where the caller stores what `frame` returns next
    (`return globals()[name]`): a module __getattr__ under `x = mod.name`,
    `from mod import name` or `x = getattr(mod, name)`, or a function called
    by name (`x = get(name)`); None for anything else (a C caller between
    them, `map(get, names)`, does not hand the value to the store)"""
    caller = returned_to(frame)
    if caller is None:
        return None
    lasti = calling_offset(caller)
    op = caller.f_code.co_code[lasti]
    name = frame.f_code.co_name
    if op in CALLS:
        called = callee_name(caller, lasti)
        if called != name and not (name == '__getattr__' and called == 'getattr'):
            return None
    elif name != '__getattr__' or op not in ATTRIBUTE_LOADS:
        return None
    return store_after(caller)


def _key_ne(self, other):
    return not key_eq(self, other)


lookup_codes.add(key_eq.__code__)
if accel is None:
    LazyName.__eq__ = key_eq  # type: ignore[method-assign]
    LazyName.__ne__ = _key_ne  # type: ignore[method-assign]
    LazyName.__hash__ = key_hash  # type: ignore[method-assign]
