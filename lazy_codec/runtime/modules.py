"""The modules that lazy statements named: the submodules that 3.15 makes
reachable through their packages (`sys.lazy_modules` is state.lazy_modules).

3.15 makes `a.b` work on an imported package `a` once a lazy statement named
`a.b` (`lazy import a.b.c`, `lazy from a.b import x`, mode "all"), importing
`a.b` at first access.  Here `a` gets a lazy binding `b` in its dict, when `a`
is imported: at the statement, when a lazy import of this chain completes,
or, for a package still running at the statement, when importlib marks it
done (_DoneWatch).  Parents not imported yet wait in waiting_children.
"""

import sys

from lazy_codec.runtime.binding import bind
from lazy_codec.runtime.lazy import attached_lazy
from lazy_codec.runtime.state import binding_lock, waiting_children, waiting_origin


def check_package(top, dotted: str) -> None:
    """`lazy import a.b` binds `a`, which 3.15 resolves as an import of
    `a.b` that stops at `a` if `a` is a package: if it is not, that import's
    error"""
    child = '.'.join(dotted.split('.', 2)[:2])
    if sys.modules.get(child) is None:
        try:
            getattr(top, '__path__')  # noqa: B009 (as importlib asks, with its error)
        except AttributeError:
            parent = child.rpartition('.')[0]
            raise ModuleNotFoundError(
                f'No module named {child!r}; {parent!r} is not a package', name=child
            ) from None


def import_named_submodule(lazy) -> None:
    """`lazy from pkg import sub`: 3.15 imports the submodule `pkg.sub`, as
    sys.lazy_modules names it, before asking the package (whose module
    __getattr__ is then not called for it)"""
    package = sys.modules.get(lazy._base)
    namespace = getattr(package, '__dict__', None)
    if type(namespace) is not dict or '__path__' not in namespace:
        return
    attr = lazy._name[len(lazy._base) + 1 :]
    if attr in namespace or lazy._name in sys.modules:
        return
    try:
        __import__(lazy._name)
    except ModuleNotFoundError as exc:
        if exc.name != lazy._name:
            raise


# -- submodules attached to their packages (tables: state.waiting_*) --------
_ModuleSpec = sys.modules['_frozen_importlib'].ModuleSpec


class _DoneWatch(_ModuleSpec):  # type: ignore[misc, valid-type]
    """the class of a running package's spec while lazy statements wait to
    attach its submodules: importlib's `spec._initializing = False`, when the
    package is done, attaches them (3.15 does then), and the spec is a plain
    ModuleSpec again"""

    __slots__ = ()

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if name == '_initializing' and value is False:
            object.__setattr__(self, '__class__', _ModuleSpec)
            origin = waiting_origin.pop(self.name, None)
            parent = sys.modules.get(self.name)
            if origin is not None and parent is not None and getattr(parent, '__spec__', None) is self:
                attach_submodules(self.name, origin)


def attach_submodules(dotted: str, origin) -> None:
    """bind each not-yet-imported level of `dotted` in its imported parent;
    an error at first use points at `origin`, the lazy object of the
    statement that named it"""
    if '.' not in dotted and dotted not in waiting_children:
        return  # (every first use of a top-level name comes here: nothing to attach)
    parts = dotted.split('.')
    for i in range(1, len(parts) + 1):
        parent_name = '.'.join(parts[:i])
        parent = sys.modules.get(parent_name)
        children = {parts[i]} if i < len(parts) else set()
        if parent is None or getattr(getattr(parent, '__spec__', None), '_initializing', False) is True:
            # not imported, or still running (3.15 binds nothing in a package
            # that runs `lazy from ._sub import x`, which may `del _sub`)
            if children:
                with binding_lock:
                    waiting_children.setdefault(parent_name, set()).update(children)
                    spec = parent.__spec__ if parent is not None else None
                    if type(spec) in (_ModuleSpec, _DoneWatch):
                        waiting_origin[parent_name] = origin
                        object.__setattr__(spec, '__class__', _DoneWatch)
            continue
        if parent_name in waiting_children:
            with binding_lock:
                children |= waiting_children.pop(parent_name, set())
        for child in children:
            full = f'{parent_name}.{child}'
            if sys.modules.get(full) is None:  # (None: blocked, which resolving says)
                attach(parent, child, full, origin)


def attach(parent, child: str, full: str, origin) -> None:
    """a lazy binding of `child` in package `parent` that imports `full`"""
    namespace = getattr(parent, '__dict__', None)
    if type(namespace) is not dict or child in namespace:
        return
    bind(namespace, child, attached_lazy(full, namespace, origin), record=False)
