"""The modules that lazy statements named: `sys.lazy_modules`, and the
submodules that 3.15 makes reachable through their packages.

3.15 makes `a.b` work on an imported package `a` once a lazy statement named
`a.b` (`lazy import a.b.c`, `lazy from a.b import x`, mode "all"), importing
`a.b` at first access.  Here `a` gets a lazy binding `b` in its dict, when `a`
is imported: at the statement, when a lazy import of this chain completes,
or, for a package still running at the statement, when importlib marks it
done (_DoneWatch).  Parents not imported yet wait in _waiting_children.
"""

import sys


def initializing(module) -> bool:
    """is `module` still running, as 3.15 asks: its spec's `_initializing`
    is anything but False (compared, never converted to bool)"""
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
    imported yet; `sys.lazy_modules` on 3.15: a name leaves it when its
    module is imported, by whatever means (pruned when it is looked at)"""

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


# -- submodules attached to their packages: under binding.binding_lock ------
_waiting_children: dict = {}  # parent name -> child names
_waiting_origin: dict = {}  # parent name -> a lazy object whose statement named a child
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
            origin = _waiting_origin.pop(self.name, None)
            parent = sys.modules.get(self.name)
            if origin is not None and parent is not None and getattr(parent, '__spec__', None) is self:
                attach_submodules(self.name, origin)


def attach_submodules(dotted: str, origin) -> None:
    """bind each not-yet-imported level of `dotted` in its imported parent;
    an error at first use points at `origin`, the lazy object of the
    statement that named it"""
    if '.' not in dotted and dotted not in _waiting_children:
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
                with binding.binding_lock:
                    _waiting_children.setdefault(parent_name, set()).update(children)
                    spec = parent.__spec__ if parent is not None else None
                    if type(spec) in (_ModuleSpec, _DoneWatch):
                        _waiting_origin[parent_name] = origin
                        object.__setattr__(spec, '__class__', _DoneWatch)
            continue
        if parent_name in _waiting_children:
            with binding.binding_lock:
                children |= _waiting_children.pop(parent_name, set())
        for child in children:
            full = f'{parent_name}.{child}'
            if sys.modules.get(full) is None:  # (None: blocked, which resolving says)
                attach(parent, child, full, origin)


def attach(parent, child: str, full: str, origin) -> None:
    """a lazy binding of `child` in package `parent` that imports `full`"""
    namespace = getattr(parent, '__dict__', None)
    if type(namespace) is not dict or child in namespace:
        return
    binding.bind(namespace, child, reify.attached_lazy(full, namespace, origin), record=False)


# (last: they import this module)
from lazy_codec.runtime import binding, reify  # noqa: E402
