"""What resolving a lazy object does: run the import statement it stands
for, where the `lazy` statement was written, and, if that fails, raise the
error as 3.15 does (chained to the `lazy` line, no frame of ours between the
use and the imported module's frames).  A failed resolution leaves the
binding lazy: the next use tries again.  Loading this module completes
LazyImportType (lazy.give_behaviour) with `resolve` and `__getattr__`.

And the submodules that lazy statements named, as 3.15 attaches them to
their packages (below: one module with resolution, whose last step it is;
each module the runtime loads at its first statement costs that statement
about 0.18 M instructions).
"""

import sys

from lazy_codec.runtime import binding
from lazy_codec.runtime import lazy as lazy_objects
from lazy_codec.runtime.access import name_loaded_for_attribute
from lazy_codec.runtime.binding import DoneWatch, ModuleSpec, bind, rebind
from lazy_codec.runtime.lazy import DUNDER, IMPORT, LazyImportType, attached_lazy, import_from
from lazy_codec.runtime.state import (
    binding_lock,
    lazy_modules,
    loaded,
    statement_code_ids,
    waiting_children,
    waiting_origin,
)

_getframe = sys._getframe
_MISSING = object()

# types.CodeType and types.TracebackType, without importing `types` (see
# access.ModuleType)
TYPE_CHECKING = False  # (mypy reads `if TYPE_CHECKING:` blocks as true)
if TYPE_CHECKING:
    from types import CodeType, TracebackType
else:
    CodeType = type(sys._getframe().f_code)
    try:
        raise ImportError
    except ImportError as _caught:
        TracebackType = type(_caught.__traceback__)


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
    rebind(found[1], found[0], lazy, value)
    return value


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
    namespace = {'g': lazy._globals} if lazy._kind is DUNDER else _ModuleLocals(lazy._globals)
    try:
        if lazy._base is not None:
            import_named_submodule(lazy)
        exec(code, lazy._globals, namespace)
        value = dict.__getitem__(namespace, 'v')
        if type(value) is LazyImportType:  # what a replaced __import__ returned
            value = value.resolve()
        if lazy._submodule is not None and lazy._kind is IMPORT:
            check_package(value, lazy._submodule)  # (a statement's, not __lazy_import__'s)
    except BaseException as exc:
        return None, _chained(exc, lazy, code, handling is not None)
    finally:
        _forget_loaded_base(lazy)
    if lazy._submodule is None:
        lazy_modules.discard(lazy._name)
    attach_submodules(lazy._submodule or lazy._base or lazy._name, lazy)
    return value, None


def _forget_loaded_base(lazy: LazyImportType) -> None:
    """`lazy from pkg import sub`: once `pkg` is loaded, sys.lazy_modules
    no longer names it, whether the import of `sub` worked or not"""
    if lazy._base is not None and loaded(lazy._base):
        lazy_modules.discard(lazy._base)


def failed_first_use(lazy: LazyImportType, exc: BaseException) -> BaseException:
    """the error of a first use whose import the C accelerator ran from the
    using frame (no statement of ours ran it: see _accel_c/first_import.c),
    shaped as import_target shapes its own: the cause's traceback is the
    `lazy` line, a frame there made now, on this path only"""
    _forget_loaded_base(lazy)
    return _chained(exc, lazy, None, sys.exc_info()[1] is not None, _lazy_line_frame(lazy))


def _lazy_line_frame(lazy: LazyImportType):
    """a finished frame of the `lazy` statement's line, in its module: `v =
    _getframe()` run there (see _placed)"""
    stub = _code_of('v = _getframe()')
    namespace = {'_getframe': _getframe}
    exec(_placed(stub, lazy._filename, lazy._lineno), lazy._globals, namespace)
    return namespace['v']


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
# file, line): compiled once per process (their ids: state.statement_code_ids)
_statement_codes: dict = {}


def statement_code(statement: str, filename: str, lineno: int):
    """`statement` compiled as if written on line `lineno` of `filename`"""
    key = (statement, filename, lineno)
    code = _statement_codes.get(key)
    if code is None:
        code = _unplaced.get(statement)
        if code is None:
            code = _from_template(statement)
            if code is None:
                code = _code_of(statement)
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
    code = _code_of(text)

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


# `statement` as the body of a class that never runs, in a module that hands
# out its own code (see _code_of)
_CLASS_BODY = 'c = _getframe().f_code\nif c is None:\n    class _:\n        {}\n'


def _code_of(statement: str) -> CodeType:
    """`statement` as code that runs in a namespace (a class body's: it also
    stores __module__ and __qualname__ there, which nothing reads), made
    without compile(): a process's first compile() builds the ast module's
    node types, 8.6 M instructions on 3.11 and 10.4 M on 3.14, which exec of
    a string does not"""
    namespace: dict = {'_getframe': _getframe}
    exec(_CLASS_BODY.format(statement), namespace)
    module: CodeType = namespace['c']
    return next(const for const in module.co_consts if type(const) is CodeType)


# a location table entry (3.11+): "no columns" (code 13) for up to 8 code
# units, at line delta 0; its low 3 bits hold the count less one
LOCATION_NO_COLUMNS = 0x80 | (13 << 3)


_no_columns: dict = {}  # the location table above, by number of code units


def _placed(code, filename: str, lineno: int):
    """`code` as if written on line `lineno` of `filename`, with no columns
    (one replace: each makes a new code object): a traceback shows the
    user's `lazy` line there, whose columns differ"""
    if sys.version_info < (3, 10):  # no columns before 3.11; an empty lnotab: all at the first line
        return code.replace(co_filename=filename, co_firstlineno=lineno, co_name='<module>', co_lnotab=b'')
    if sys.version_info < (3, 11):  # (bytes, line delta 0) pairs of at most 254 bytes
        size = len(code.co_code)
        table = bytes((254, 0)) * (size // 254) + (bytes((size % 254, 0)) if size % 254 else b'')
        return code.replace(
            co_filename=filename, co_firstlineno=lineno, co_name='<module>', co_linetable=table
        )
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
    return code.replace(
        co_filename=filename,
        co_firstlineno=lineno,
        co_linetable=table,
        co_name='<module>',
        co_qualname='<module>',
    )


def _chained(
    exc: BaseException, lazy: LazyImportType, code: 'CodeType | None', handling: bool, frame=None
) -> BaseException:
    """3.15's shape: the error as raised where the name was used, caused by
    an ImportError whose traceback is the lazy statement's line; or, when the
    error already has a chain (a cause, a context, `from None`; a use in an
    exception handler gives it that handler's exception as context), a note
    that says where the lazy import was declared, once.  `frame`: one of
    the `lazy` line where `code` did not run (the accelerator's import)"""
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
    elif frame is not None:
        cause.__traceback__ = TracebackType(None, frame, frame.f_lasti, lazy._lineno)
    exc.__cause__ = cause
    return exc


def _getattr(lazy: LazyImportType, name: str):
    """LazyImportType.__getattr__: an attribute of a lazy object just loaded
    by name resolves it (see _loaded_by_name); else 3.15's error"""
    value = _loaded_by_name(lazy, _getframe(1))
    if value is not _MISSING:
        return getattr(value, name)
    raise AttributeError(
        f'cannot access attribute {name!r} on unresolved lazy import {lazy._shown or lazy._name!r}'
    )


# -- submodules through their packages ------------------------------------
# The modules that lazy statements named: the submodules that 3.15 makes
# reachable through their packages (`sys.lazy_modules` is state.lazy_modules).
#
# 3.15 makes `a.b` work on an imported package `a` once a lazy statement named
# `a.b` (`lazy import a.b.c`, `lazy from a.b import x`, mode "all"), importing
# `a.b` at first access.  Here `a` gets a lazy binding `b` in its dict, when `a`
# is imported: at the statement, when a lazy import of this chain completes,
# or, for a package still running at the statement, when importlib marks it
# done (binding.DoneWatch).  Parents not imported yet wait in waiting_children.
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
    __getattr__ is then not called for it).  A `pkg.sub` imported already
    that the package lacks (imported under an earlier module object of `pkg`,
    whose import failed and ran again) is set on it, as 3.15's lookup of a
    named submodule on its package does"""
    package = sys.modules.get(lazy._base)
    namespace = getattr(package, '__dict__', None)
    if type(namespace) is not dict or '__path__' not in namespace:
        return
    attr = lazy._name[len(lazy._base) + 1 :]
    if attr in namespace:
        return
    if lazy._name in sys.modules:
        module = sys.modules[lazy._name]
        if module is not None:
            setattr(package, attr, module)
        return
    try:
        __import__(lazy._name)
    except ModuleNotFoundError as exc:
        if exc.name != lazy._name:
            raise


# -- submodules attached to their packages (tables: state.waiting_*) --------
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
                    if type(spec) in (ModuleSpec, DoneWatch):
                        waiting_origin[parent_name] = origin
                        object.__setattr__(spec, '__class__', DoneWatch)
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


lazy_objects.give_behaviour(_resolve, _getattr)
if binding.attach_waiting is None:  # (the pure runtime: the accelerator's is its own)
    binding.attach_waiting = attach_submodules
