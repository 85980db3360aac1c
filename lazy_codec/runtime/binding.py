"""Making lazy bindings: a lazy key and its lazy object put in a namespace
(lazy_codec.runtime.keys says what the key is, lazy_codec.runtime.lookup what
a lookup of it does).
"""

from lazy_codec.runtime.bytecode import store_after_call
from lazy_codec.runtime.keys import EscapedName, LazyName, replace_key
from lazy_codec.runtime.lazy import LazyImportType
from lazy_codec.runtime.state import binding_lock, controls, live_keys, live_keys_of

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
        key.live = live_keys_of(namespace)
        key.live.count += 1
        if name not in namespace:
            namespace[key] = lazy
        else:
            replace_key(namespace, name, key, lazy)
