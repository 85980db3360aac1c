"""The lazy object: 3.15's `types.LazyImportType`, what a lazy binding holds
before its first use, with 3.15's look (repr, dir, resolve's repr, no
pickling), the shapes its kinds are made in, and the error objects a failed
first use raises through.  What resolving one does is
lazy_codec.runtime.resolution's, which completes the type with it when it
loads (see give_behaviour): resolving binds the submodules an import names,
which needs the modules above this one.
"""

import sys
from _functools import partial

try:
    ImportCycleError = ImportCycleError  # 3.15, or the .pth's
except NameError:

    class ImportCycleError(ImportError):
        """Import produces a cycle."""

    ImportCycleError.__module__ = 'builtins'
    setattr(__import__('builtins'), 'ImportCycleError', ImportCycleError)

TYPE_CHECKING = False  # (mypy reads `if TYPE_CHECKING:` blocks as true; typing is not imported)
if TYPE_CHECKING:
    from typing import Callable

    from lazy_codec.runtime.binding import LazyName
_getframe = sys._getframe
_MISSING = object()


class _BoundResolve:
    """`lazy.resolve`, shown as 3.15's built-in method is"""

    __slots__ = ('__self__',)
    if TYPE_CHECKING:  # (the slot's type, for mypy: no __annotations__ at run time)
        __self__: 'LazyImportType'
    __name__ = 'resolve'
    __doc__ = 'Resolve the lazy import and return the imported object.'

    def __getattr__(self, name):
        if name == '__qualname__':  # (one in the class body would be the class's)
            return 'lazy_import.resolve'
        raise AttributeError(f'{type(self).__name__!r} object has no attribute {name!r}')

    def __call__(self):
        return _resolve(self.__self__)

    def __repr__(self) -> str:
        return f'<built-in method resolve of lazy_import object at {id(self.__self__):#x}>'


class _Resolve:
    """`LazyImportType.resolve`, shown as 3.15's method descriptor is"""

    __slots__ = ()
    __name__ = 'resolve'
    __doc__ = _BoundResolve.__doc__

    def __getattr__(self, name):
        if name == '__qualname__':  # (one in the class body would be the class's)
            return 'lazy_import.resolve'
        raise AttributeError(f'{type(self).__name__!r} object has no attribute {name!r}')

    def __get__(self, lazy, owner=None):
        if lazy is None:
            return self
        bound = object.__new__(_BoundResolve)
        bound.__self__ = lazy
        return bound

    def __call__(self, lazy):
        if type(lazy) is not LazyImportType:
            raise TypeError(
                "descriptor 'resolve' for 'lazy_import' objects doesn't apply to a "
                f"'{type(lazy).__name__}' object"
            )
        return _resolve(lazy)

    def __repr__(self) -> str:
        return "<method 'resolve' of 'lazy_import' objects>"


for _cls, _name in ((_BoundResolve, 'builtin_function_or_method'), (_Resolve, 'method_descriptor')):
    type.__setattr__(_cls, '__name__', _name)  # (the class body's __name__ is its instances')
    type.__setattr__(_cls, '__qualname__', _name)
    _cls.__module__ = 'builtins'


# what a lazy object stands for: its `_kind` (C sets and compares the same
# objects, handed over at setup)
IMPORT = 'import'  # `import a.b.c as v` (a `lazy import`, a submodule attached to its package)
FROM = 'from'  # `from m import x as v` (a `lazy from`)
DUNDER = 'dunder'  # what __lazy_import__ returned: `v = __import__(name, g, g, fromlist, 0)`
PROJECTION = 'projection'  # `attr` of a lazy object a replaced __lazy_import__ gave (see projection)
ORIGIN = 'origin'  # no statement: where one was, for an attached submodule's errors to point at


class LazyImportType:
    """a lazy import's binding before first use (3.15's types.LazyImportType;
    its docstring, below, is 3.15's)"""

    __slots__ = (
        '_name',
        '_kind',
        '_statement',
        '_globals',
        '_filename',
        '_lineno',
        '_submodule',
        '_base',
        '_level',
        '_key',
        '_from',
        '_shown',
        '_attached',
    )
    if TYPE_CHECKING:  # (the slots' types, for mypy: no __annotations__ at run time)
        _name: str  # what it imports (a module, or module.name for a `from`)
        _kind: str  # IMPORT, FROM, DUNDER, PROJECTION or ORIGIN (above)
        _statement: str  # the statement a first use runs: `import x as v`, `from m import x as v`
        _globals: dict  # the importer's globals
        _filename: str
        _lineno: int  # where the lazy statement is
        _submodule: 'str | None'  # the dotted name a package must have for `import a.b.c`
        _base: 'str | None'  # a `from` import's module
        _level: int  # a `from` import's relative level (its dots; 0: absolute, or not a `from`)
        _key: 'LazyName | None'  # its key once bound
        _from: 'LazyImportType | None'  # a projection's lazy object (see projection)
        _shown: 'str | None'  # the name repr shows, when not _name
        _attached: bool  # a submodule's binding in its package (see attached_lazy)

    def __new__(cls, *args, **kwargs):
        raise TypeError("cannot create 'lazy_import' instances")

    def __init_subclass__(cls, **kwargs):
        raise TypeError("type 'lazy_import' is not an acceptable base type")

    def __dir__(self):
        return sorted(
            set(object.__dir__(self))
            - set(LazyImportType.__slots__)
            - {
                '__slots__',
                '__getattr__',
                '__module__',
                '__init_subclass__',
                '__static_attributes__',
                '__firstlineno__',
            }
        )  # (3.13+ adds these two)

    def __repr__(self) -> str:
        return f'<lazy_import {self._shown or self._name!r}>'

    def __reduce_ex__(self, protocol):
        raise TypeError("cannot pickle 'lazy_import' object")

    resolve = _Resolve()  # (import the target and return it; the binding is left as it is)


for _attribute in ('__annotations__', '__annotate_func__'):  # (mypy's only: see TYPE_CHECKING)
    if _attribute in LazyImportType.__dict__:
        delattr(LazyImportType, _attribute)
LazyImportType.__name__ = LazyImportType.__qualname__ = 'lazy_import'
LazyImportType.__doc__ = (
    'Represents a lazy import that will be resolved on first use.\n\n'
    'Instances of this object accessed from the global scope will be\n'
    'automatically imported based upon their name and then replaced with\n'
    'the imported value.'
)
LazyImportType.__module__ = 'builtins'


def attached_lazy(full: str, package_dict: dict, origin: LazyImportType) -> LazyImportType:
    """the lazy object of a submodule bound in its package (see
    resolution.attach): it imports `full`; an error points at `origin`'s line"""
    lazy = new_lazy(IMPORT, full, f'import {full} as v', package_dict, origin._filename, origin._lineno)
    lazy._attached = True
    return lazy


def new_lazy(
    kind, name, statement, globals_, filename, lineno, submodule=None, base=None, level=0
) -> LazyImportType:
    """the lazy object of `kind` for `statement` (`import x as v`, `from m
    import x as v`) written at `lineno` of `filename`, which imports `name`"""
    lazy = object.__new__(LazyImportType)
    lazy._name = name
    lazy._kind = kind
    lazy._statement = statement
    lazy._globals = globals_
    lazy._filename = filename
    lazy._lineno = lineno
    lazy._submodule = submodule
    lazy._base = base  # a `from` import's module
    lazy._level = level  # and its level, as IMPORT_NAME takes it
    lazy._key = None  # its LazyName once bound
    lazy._from = None  # a projection's lazy object (see projection)
    lazy._shown = None  # the name repr shows, when not _name
    lazy._attached = False  # a submodule's binding in its package (see attached_lazy)
    return lazy


# what loads a module above this one at its first need (api gives it:
# lazy_codec.runtime.load_on_demand).  With the accelerator, resolution is
# one: a lazy object resolved or read by hand (a peek's) before any first use
# needed it loads it here
load_on_demand: 'Callable[[str], object] | None' = None


def _complete() -> None:
    """load resolution, which completes the type (give_behaviour)"""
    if load_on_demand is not None:
        load_on_demand('resolution')
    if _resolve is _not_complete:
        raise RuntimeError('lazy_codec.runtime.resolution is not loaded')


def _not_complete(lazy):
    _complete()
    return _resolve(lazy)


def _first_getattr(self, name):
    _complete()
    return LazyImportType.__getattr__(self, name)  # type: ignore[attr-defined]  # (resolution's now)


# what resolving a lazy object runs (resolution.resolve, once given)
_resolve = _not_complete
LazyImportType.__getattr__ = _first_getattr  # type: ignore[attr-defined]


def give_behaviour(resolve, getattr_) -> None:
    """complete LazyImportType with what needs the modules above this one
    (resolution, when it loads): `resolve(lazy)`, which imports the target
    and returns it, and the type's `__getattr__`"""
    global _resolve
    _resolve = resolve
    LazyImportType.__getattr__ = getattr_  # type: ignore[attr-defined]


def projection(source: LazyImportType, attr: str, frame) -> LazyImportType:
    """3.15's lazy object for `attr` of a lazy object that a replaced
    __lazy_import__ returned (`lazy import a.b as c`, `lazy from a import b`):
    resolving it resolves `source`, then imports `attr` from what that gave"""
    lazy = new_lazy(
        PROJECTION,
        f'{source._shown or source._name}.{attr}',
        attr,
        source._globals,
        frame.f_code.co_filename,
        frame.f_lineno,
    )
    if source._shown is not None and source._shown.endswith('...'):
        lazy._name = f'{source._name}.{attr}'
    elif source._from is None and source._submodule is not None:
        lazy._name = f'{source._name.partition(".")[0]}.{attr}'  # __import__('a.b') gives a
    lazy._from = source
    return lazy


def import_from(value, attr: str):
    """`from value import attr`, as the interpreter's IMPORT_FROM does it"""
    try:
        return getattr(value, attr)
    except AttributeError:
        pass
    package = getattr(value, '__name__', None)
    if type(package) is str:
        module = sys.modules.get(f'{package}.{attr}')
        if module is not None:
            return module
    raise ImportError(f'cannot import name {attr!r} from {package!r} (unknown location)', name=package)


def _exhausted():
    yield


_finished = _exhausted()
for _ in _finished:
    pass


def raising(exc: BaseException):
    """what __eq__ returns to fail the lookup that called it with `exc`: an
    object whose truth test (which the lookup makes of __eq__'s result)
    raises it from C, a finished generator's throw(), so that, as on 3.15,
    no frame of ours stands in its traceback between the use and the
    imported module's frames (a class per failure: failures are rare).
    A raise would chain it to the exception being handled: so does this"""
    handling = sys.exc_info()[1]
    if handling is not None and handling is not exc and exc.__context__ is None:
        exc.__context__ = handling
    return type(
        'lazy_import_error', (), {'__slots__': (), '__bool__': staticmethod(partial(_finished.throw, exc))}
    )()
