"""The lazy object, and what resolving it does: run the import statement it
stands for, where the `lazy` statement was written, and, if that fails, raise
the error as 3.15 does (chained to the `lazy` line, no frame of ours between
the use and the imported module's frames).  A failed resolution leaves the
binding lazy: the next use tries again.
"""

import sys
from _functools import partial
from types import CodeType, TracebackType

from lazy_codec.runtime.bytecode import name_loaded_for_attribute

try:
    ImportCycleError = ImportCycleError  # 3.15, or the .pth's
except NameError:

    class ImportCycleError(ImportError):
        """Import produces a cycle."""

    ImportCycleError.__module__ = 'builtins'
    setattr(__import__('builtins'), 'ImportCycleError', ImportCycleError)

TYPE_CHECKING = False  # (mypy reads `if TYPE_CHECKING:` blocks as true; typing is not imported)
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


class LazyImportType:
    """a lazy import's binding before first use (3.15's types.LazyImportType;
    its docstring, below, is 3.15's)"""

    __slots__ = (
        '_name',
        '_statement',
        '_globals',
        '_filename',
        '_lineno',
        '_submodule',
        '_base',
        '_key',
        '_from',
        '_shown',
        '_attached',
    )
    if TYPE_CHECKING:  # (the slots' types, for mypy: no __annotations__ at run time)
        _name: str  # what it imports (a module, or module.name for a `from`)
        _statement: str  # the statement a first use runs: `import x as v`, `from m import x as v`
        _globals: dict  # the importer's globals
        _filename: str
        _lineno: int  # where the lazy statement is
        _submodule: 'str | None'  # the dotted name a package must have for `import a.b.c`
        _base: 'str | None'  # a `from` import's module
        _key: 'binding.LazyName | None'  # its key once bound
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

    def __getattr__(self, name):
        value = _loaded_by_name(self, _getframe(1))
        if value is not _MISSING:
            return getattr(value, name)
        raise AttributeError(
            f'cannot access attribute {name!r} on unresolved lazy import {self._shown or self._name!r}'
        )

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
    modules.attach): it imports `full`; an error points at `origin`'s line"""
    lazy = new_lazy(full, f'import {full} as v', package_dict, origin._filename, origin._lineno)
    lazy._attached = True
    return lazy


def new_lazy(name, statement, globals_, filename, lineno, submodule=None, base=None) -> LazyImportType:
    """the lazy object for `statement` (`import x as v`, `from m import x as
    v`) written at `lineno` of `filename`, which imports `name`"""
    lazy = object.__new__(LazyImportType)
    lazy._name = name
    lazy._statement = statement
    lazy._globals = globals_
    lazy._filename = filename
    lazy._lineno = lineno
    lazy._submodule = submodule
    lazy._base = base  # a `from` import's module
    lazy._key = None  # its LazyName once bound
    lazy._from = None  # a projection's lazy object (see projection)
    lazy._shown = None  # the name repr shows, when not _name
    lazy._attached = False  # a submodule's binding in its package (see attached_lazy)
    return lazy


def _resolve(lazy: LazyImportType):
    value, exc = import_target(lazy)
    if exc is not None:
        raise exc
    return value


def _loaded_by_name(lazy: LazyImportType, frame):
    """3.15 reifies a lazy object wherever a name load finds it: here, where
    an attribute of it is asked for (`alias.attr`, `globals()[a] =
    globals()[b]`) right after the load, resolve it, rebind the name, and
    return the value; _MISSING when it was not so loaded (`globals()['x'].y`)"""
    found = name_loaded_for_attribute(frame)
    if found is None or found[2] is not lazy:
        return _MISSING
    value = lazy.resolve()
    binding.rebind(found[1], found[0], lazy, value)
    return value


def projection(source: LazyImportType, attr: str, frame) -> LazyImportType:
    """3.15's lazy object for `attr` of a lazy object that a replaced
    __lazy_import__ returned (`lazy import a.b as c`, `lazy from a import b`):
    resolving it resolves `source`, then imports `attr` from what that gave"""
    lazy = new_lazy(
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


def import_target(lazy: LazyImportType):
    """(value, None) or (None, the exception to raise, chained as 3.15 does)"""
    handling = sys.exc_info()[1]
    if lazy._from is not None:
        value, exc = import_target(lazy._from)
        if exc is not None:
            return None, exc
        try:
            return import_from(value, lazy._statement), None
        except BaseException as error:
            return None, _chained(error, lazy, None, handling is not None)
    code = statement_code(lazy._statement, lazy._filename, lazy._lineno)
    # the statement's locals, which a replaced __import__ gets: the module's
    # globals, as on 3.15 (click's own import test reads `__name__` there),
    # with the statement's own store kept apart; __lazy_import__'s statements
    # pass `g` themselves
    namespace = {'g': lazy._globals} if '__import__(' in lazy._statement else _ModuleLocals(lazy._globals)
    try:
        if lazy._base is not None:
            modules.import_named_submodule(lazy)
        exec(code, lazy._globals, namespace)
        value = dict.__getitem__(namespace, 'v')
        if type(value) is LazyImportType:  # what a replaced __import__ returned
            value = value.resolve()
        if lazy._submodule is not None and lazy._statement.startswith('import '):
            modules.check_package(value, lazy._submodule)  # (a statement's, not __lazy_import__'s)
    except BaseException as exc:
        return None, _chained(exc, lazy, code, handling is not None)
    finally:
        if lazy._base is not None and modules.loaded(lazy._base):
            modules.lazy_modules.discard(lazy._base)
    if lazy._submodule is None:
        modules.lazy_modules.discard(lazy._name)
    modules.attach_submodules(lazy._submodule or lazy._base or lazy._name, lazy)
    return value, None


class _ModuleLocals(dict):
    """a reified statement's locals: reads see the module's globals, as a
    module-level statement's locals are its globals; the statement's own
    store (`v`) stays in this dict"""

    __slots__ = ('_globals',)

    def __init__(self, globals_: dict) -> None:
        self._globals = globals_

    def __getitem__(self, key):
        return self._globals[key]

    def get(self, key, default=None):
        return self._globals.get(key, default)

    def __contains__(self, key):
        return key in self._globals

    def __iter__(self):
        return iter(self._globals)

    def __len__(self):
        return len(self._globals)

    def keys(self):
        return self._globals.keys()

    def items(self):
        return self._globals.items()

    def values(self):
        return self._globals.values()

    def __repr__(self):
        return repr(self._globals)


_ModuleLocals.__name__ = _ModuleLocals.__qualname__ = 'dict'  # as type(locals) shows on 3.15

# code objects of the statements that resolution executes, by (statement,
# file, line): compiled once per process; and their ids, by which a lookup
# knows it is made by one of them
_statement_codes: dict = {}
statement_code_ids: set = set()


def statement_code(statement: str, filename: str, lineno: int):
    """`statement` compiled as if written on line `lineno` of `filename`"""
    key = (statement, filename, lineno)
    code = _statement_codes.get(key)
    if code is None:
        code = _unplaced.get(statement)
        if code is None:
            code = _from_template(statement)
            if code is None:
                code = compile(statement, filename, 'exec', dont_inherit=True)
            _unplaced[statement] = code
        code = _statement_codes[key] = _placed(code, filename, lineno)
        statement_code_ids.add(id(code))  # kept alive by _statement_codes
    return code


# the same, by statement alone, before placing (many modules import the
# same names)
_unplaced: dict = {}

# compiled import statements with placeholder names, by shape, each with the
# function that gives its names and constants for real names: a statement of
# that shape is the template with its names put in (a few times cheaper than
# compiling it, which every first use of a lazy name would pay)
_templates: dict = {}


def _from_template(statement: str):
    """`import a.b as v` or `from ..a import b as v` as code, or None"""
    words = statement.split(' ')
    if len(words) == 4 and words[0] == 'import' and words[2] == 'as' and words[3] == 'v':
        names = words[1].split('.')
        shape = ('import', 0, len(names))
    elif (
        len(words) == 6
        and words[0] == 'from'
        and words[2] == 'import'
        and words[4] == 'as'
        and words[5] == 'v'
    ):
        dotted = words[1].lstrip('.')
        names = (dotted.split('.') if dotted else []) + [words[3]]
        shape = ('from', len(words[1]) - len(dotted), len(names))
    else:
        return None
    if not all(map(str.isidentifier, names)):
        return None
    made = _templates.get(shape)
    if made is None:
        made = _templates[shape] = _template(*shape)
    template, fill = made
    names_, consts = fill(names)
    return template.replace(co_names=names_, co_consts=consts)


def _template(kind: str, level: int, count: int) -> tuple:
    """(the code of a statement of this shape with placeholder names `_0`,
    `_1`, ..., the function of the real names that gives its co_names and
    co_consts): the function is written once per shape, so that filling a
    template in costs one call"""
    placeholders = [f'_{i}' for i in range(count)]
    if kind == 'import':
        text = f'import {".".join(placeholders)} as v'
    else:
        text = f'from {"." * level}{".".join(placeholders[:-1])} import {placeholders[-1]} as v'
    code = compile(text, '<lazy import>', 'exec', dont_inherit=True)

    def expression(value) -> str:
        """Python source for `value` with the placeholders as names[i]"""
        if type(value) is tuple:
            return '(' + ''.join(expression(item) + ', ' for item in value) + ')'
        if type(value) is str and value:
            parts = value.split('.')
            if all(part in placeholders for part in parts):
                return " + '.' + ".join(f'names[{placeholders.index(part)}]' for part in parts)
        if value is None or type(value) in (str, int, bool):
            return repr(value)
        raise ValueError(value)  # (no such constant in an import statement's code)

    source = f'lambda names: ({expression(code.co_names)}, {expression(code.co_consts)})'
    return code, eval(source, {})


# a location table entry (3.11+): "no columns" (code 13) for up to 8 code
# units, at line delta 0; its low 3 bits hold the count less one
LOCATION_NO_COLUMNS = 0x80 | (13 << 3)


_no_columns: dict = {}  # the location table above, by number of code units


def _placed(code, filename: str, lineno: int):
    """`code` as if written on line `lineno` of `filename`, with no columns
    (one replace: each makes a new code object): a traceback shows the
    user's `lazy` line there, whose columns differ"""
    if sys.version_info < (3, 11):  # no columns before 3.11
        return code.replace(co_filename=filename, co_firstlineno=lineno)
    units = len(code.co_code) // 2
    table = _no_columns.get(units)
    if table is None:
        table = bytearray()
        left = units
        while left > 0:
            n = min(left, 8)
            table += bytes((LOCATION_NO_COLUMNS | (n - 1), 0))
            left -= n
        table = _no_columns[units] = bytes(table)
    return code.replace(co_filename=filename, co_firstlineno=lineno, co_linetable=table)


def _chained(
    exc: BaseException, lazy: LazyImportType, code: 'CodeType | None', handling: bool
) -> BaseException:
    """3.15's shape: the error as raised where the name was used, caused by
    an ImportError whose traceback is the lazy statement's line; or, when the
    error already has a chain (a cause, a context, `from None`; a use in an
    exception handler gives it that handler's exception as context), a note
    that says where the lazy import was declared, once"""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code is not code:
        tb = tb.tb_next
    if tb is not None:
        exc.__traceback__ = tb.tb_next
    if handling or exc.__cause__ is not None or exc.__context__ is not None or exc.__suppress_context__:
        note = f'lazy import of {lazy._name!r} declared in <module> at {lazy._filename}:{lazy._lineno}'
        notes = getattr(exc, '__notes__', None)
        if notes is None:
            notes = []
            setattr(exc, '__notes__', notes)  # (3.11+ have add_note; 3.9 and 3.10 not)
        if note not in notes:
            notes.append(note)
        return exc
    cause = ImportError(f'lazy import of {lazy._name!r} raised an exception during resolution')
    if tb is not None:
        cause.__traceback__ = TracebackType(None, tb.tb_frame, tb.tb_lasti, lazy._lineno)
    exc.__cause__ = cause
    return exc


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


# (last: they import this module)
from lazy_codec.runtime import binding, modules  # noqa: E402
