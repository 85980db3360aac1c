"""The runtime that rewritten code calls: lazy bindings and their reification.

A lazy name is bound in its module's dict under a `_LazyName` key: a str
subclass whose hash is the name's, so that every lookup of the name compares
it, and its `__eq__` runs.  `__eq__` looks at the frame doing the lookup: a
load of the name (LOAD_NAME, LOAD_GLOBAL, attribute access on the module, ...)
imports the target and replaces the entry by a plain str key and the real
object; a store, a delete, `globals()[...]` or `in` leave it alone.  Once a
module's last lazy name is gone its dict is rebuilt, so that it is again a
dict of exact str keys, which the specializing interpreter needs (3.11+).
Modules keep their class: `type(mod) is types.ModuleType` throughout, as on
3.15 (pickle, cloudpickle and dill dispatch on the exact type).
"""
import sys
from _functools import partial
from _operator import attrgetter, index as _index, methodcaller
from _thread import RLock, allocate_lock, get_ident as _get_ident, start_new_thread as _start_thread
from types import ModuleType, TracebackType

lazy_codec = sys.modules['lazy_codec']  # (imported first, as our package)
ENTRY_NAME, ENTRY_POINTS = lazy_codec.ENTRY_NAME, lazy_codec.ENTRY_POINTS

_getframe = sys._getframe
try:
    ImportCycleError = ImportCycleError  # 3.15, or the .pth's
except NameError:
    class ImportCycleError(ImportError):
        """Import produces a cycle."""
    ImportCycleError.__module__ = 'builtins'
    __import__('builtins').ImportCycleError = ImportCycleError
_str_eq = str.__eq__
_module_getattribute = ModuleType.__getattribute__
_MISSING = object()

class _LazyModules(set):
    """names of modules that lazy statements asked for and that are not
    imported yet; `sys.lazy_modules` on 3.15: a name leaves it when its
    module is imported, by whatever means (pruned when it is looked at)"""
    __slots__ = ()

    def _pruned(self):
        for name in [name for name in set.__iter__(self) if _loaded(name)]:
            self.discard(name)
        return self

    def __contains__(self, name):
        if not set.__contains__(self, name):
            return False
        if _loaded(name):  # only this name: no scan of the set
            self.discard(name)
            return False
        return True

    def __iter__(self):
        return set.__iter__(self._pruned())

    def __len__(self):
        return set.__len__(self._pruned())

    def __repr__(self):
        return set.__repr__(set(self._pruned()))


def _initializing(module) -> bool:
    """is `module` still running, as 3.15 asks: its spec's `_initializing`
    is anything but False (compared, never converted to bool)"""
    try:
        spec = getattr(module, '__spec__', None)
        return spec is not None and getattr(spec, '_initializing', False) is not False
    except Exception:
        return False


def _loaded(name: str) -> bool:
    """is module `name` imported, as sys.lazy_modules counts it on 3.15: in
    sys.modules, not None (a blocked import), and not still running"""
    module = sys.modules.get(name)
    return module is not None and not _initializing(module)


_LazyModules.__name__ = _LazyModules.__qualname__ = 'set'
_LazyModules.__module__ = 'builtins'
lazy_modules = _LazyModules(vars(sys).get('lazy_modules', ()))  # not getattr: see the .pth
if sys.version_info < (3, 15):
    sys.lazy_modules = lazy_modules

# Guards the check-then-replace of a lazy entry in a module dict, so that
# threads reifying one name at once bind it once.  Never held while importing;
# re-entrant, as a lookup made under it can run __eq__.
_binding_lock = RLock()

# code objects of the statements that reification executes, by (statement,
# file, line): compiled once per process
_statement_codes: dict[tuple[str, str, int], object] = {}
_statement_code_ids: set[int] = set()

# opcodes that load a name: those of opcode.opmap named in LOAD_OPNAMES, by
# version (asserted by tests/test_runtime.py).  Written out because `opcode`
# is two more imports at the first lazy statement; imported only for a
# version not listed, and then here, never inside a lookup (in mode "all" an
# import there would run lazy statements inside __eq__).
LOAD_OPNAMES = ('LOAD_NAME', 'LOAD_GLOBAL', 'LOAD_FROM_DICT_OR_GLOBALS', 'LOAD_ATTR',
                'LOAD_METHOD', 'IMPORT_FROM', 'IMPORT_STAR')
LOAD_OPS = {
    (3, 9): (84, 101, 106, 109, 116, 160),
    (3, 10): (84, 101, 106, 109, 116, 160),
    (3, 11): (84, 101, 106, 109, 116, 160),
    (3, 12): (101, 106, 109, 116, 175, 262),
    (3, 13): (74, 82, 90, 91, 92, 259),
    (3, 14): (72, 80, 91, 92, 93),
}


def _opcodes_that_load() -> frozenset:
    if sys.version_info[:2] in LOAD_OPS:
        return frozenset(LOAD_OPS[sys.version_info[:2]])
    from opcode import opmap
    return frozenset(opmap[name] for name in LOAD_OPNAMES if name in opmap)


_load_ops = _opcodes_that_load()

# Opcodes that call, and those a callee's expression can be made of, by
# version (asserted by tests/test_runtime.py against opcode.opmap): a lookup
# made inside a call is a load only when the callee is getattr or hasattr
# (see _call_loads).  -1: not in that version.
CALL_OPNAMES = (
    'EXTENDED_ARG', 'CALL', 'CALL_FUNCTION', 'CALL_METHOD', 'CALL_FUNCTION_KW', 'CALL_KW',
    'PRECALL', 'KW_NAMES', 'PUSH_NULL', 'LOAD_ATTR', 'LOAD_METHOD', 'LOAD_GLOBAL', 'LOAD_NAME',
    'LOAD_FAST', 'LOAD_DEREF', 'LOAD_CONST', 'LOAD_FAST_CHECK', 'LOAD_FAST_BORROW',
    'LOAD_FAST_LOAD_FAST', 'LOAD_FAST_BORROW_LOAD_FAST_BORROW', 'LOAD_SMALL_INT', 'LOAD_CLOSURE',
    'LOAD_CLASSDEREF', 'BINARY_SUBSCR', 'IMPORT_STAR', 'NOP', 'CALL_INTRINSIC_1',
    'STORE_NAME', 'STORE_ATTR', 'FOR_ITER',
)
CALL_OPS = {
    (3, 9): (144, -1, 131, 161, 141, -1, -1, -1, -1, 106, 160, 116, 101, 124, 136, 100, -1, -1, -1, -1, -1, 135, 148, 25, 84, 9, -1, 90, 95, 93),
    (3, 10): (144, -1, 131, 161, 141, -1, -1, -1, -1, 106, 160, 116, 101, 124, 136, 100, -1, -1, -1, -1, -1, 135, 148, 25, 84, 9, -1, 90, 95, 93),
    (3, 11): (144, 171, -1, -1, -1, -1, 166, 172, 2, 106, 160, 116, 101, 124, 137, 100, -1, -1, -1, -1, -1, 136, 148, 25, 84, 9, -1, 90, 95, 93),
    (3, 12): (144, 171, -1, -1, -1, -1, -1, 172, 2, 106, -1, 116, 101, 124, 137, 100, 127, -1, -1, -1, -1, 136, -1, 25, -1, 9, 173, 90, 95, 93),
    (3, 13): (71, 53, -1, -1, -1, 57, -1, -1, 34, 82, -1, 91, 92, 85, 84, 83, 87, -1, 88, -1, -1, -1, -1, 5, -1, 30, 55, 114, 108, 72),
    (3, 14): (69, 52, -1, -1, -1, 55, -1, -1, 33, 80, -1, 92, 93, 84, 83, 82, 88, 86, 89, 87, 94, -1, -1, -1, -1, 27, 53, 116, 110, 70),
}


def _call_opcodes() -> dict:
    numbers = CALL_OPS.get(sys.version_info[:2])
    if numbers is None:
        from opcode import opmap
        numbers = tuple(opmap.get(name, -1) if opmap.get(name, 256) < 256 else -1
                        for name in CALL_OPNAMES)
    return {name: number for name, number in zip(CALL_OPNAMES, numbers) if number >= 0}


_op = _call_opcodes()
_EXTENDED_ARG = _op['EXTENDED_ARG']
_IMPORT_STAR = _op.get('IMPORT_STAR', -1)
_CALL_INTRINSIC_1 = _op.get('CALL_INTRINSIC_1', -1)  # 3.12+: `import *` is intrinsic 2
# a call's opcode -> how many stack items above its callee are not arguments
# (3.11's PRECALL: its specialized forms call builtins themselves)
_CALLS = {_op[name]: extra for name, extra in (
    ('CALL', 0), ('CALL_FUNCTION', 0), ('CALL_METHOD', 0), ('CALL_FUNCTION_KW', 1), ('CALL_KW', 1),
    ('PRECALL', 0),
) if name in _op}
_NOTHING = frozenset(_op[name] for name in ('PRECALL', 'KW_NAMES', 'NOP', 'EXTENDED_ARG') if name in _op)
_PUSH_ONE = frozenset(_op[name] for name in (
    'LOAD_NAME', 'LOAD_FAST', 'LOAD_DEREF', 'LOAD_CONST', 'LOAD_FAST_CHECK', 'LOAD_FAST_BORROW',
    'LOAD_SMALL_INT', 'LOAD_CLOSURE', 'LOAD_CLASSDEREF', 'PUSH_NULL') if name in _op)
_PUSH_TWO = frozenset(_op[name] for name in ('LOAD_FAST_LOAD_FAST', 'LOAD_FAST_BORROW_LOAD_FAST_BORROW')
                      if name in _op)
_LOAD_GLOBAL, _LOAD_NAME, _LOAD_ATTR = _op['LOAD_GLOBAL'], _op['LOAD_NAME'], _op['LOAD_ATTR']
_LOAD_METHOD, _PUSH_NULL = _op.get('LOAD_METHOD', -1), _op.get('PUSH_NULL', -1)
_STORE_NAME, _STORE_ATTR = _op['STORE_NAME'], _op['STORE_ATTR']
_BINARY_SUBSCR = _op.get('BINARY_SUBSCR', -1)
_LOCAL_LOADS = frozenset(_op[name] for name in (
    'LOAD_FAST', 'LOAD_DEREF', 'LOAD_FAST_CHECK', 'LOAD_FAST_BORROW', 'LOAD_CLASSDEREF') if name in _op)
_DEREF_LOADS = frozenset(_op[name] for name in ('LOAD_DEREF', 'LOAD_CLASSDEREF') if name in _op)
_WIDE_GLOBALS = sys.version_info >= (3, 11)  # LOAD_GLOBAL's low bit: push NULL too
_WIDE_ATTRS = sys.version_info >= (3, 12)  # LOAD_ATTR's low bit: a method and self
_CACHES = sys.version_info >= (3, 11)  # inline caches: opcode 0 in co_code
_ATTRIBUTE_GETTERS = (getattr, hasattr, ModuleType.__getattribute__, object.__getattribute__)

# the .pth's builtins.__lazy_import__ (its `entry` bound to the entry object,
# see lazy_codec._entry_point), which loads this module at its first call and
# calls dunder_lazy_import; replaced by ours then (see _install_api)
_PTH_LAZY_IMPORT = vars(__import__('builtins')).get('__lazy_import__')
if getattr(_PTH_LAZY_IMPORT, '__self__', None) is not vars(__import__('builtins')).get(ENTRY_NAME):
    _PTH_LAZY_IMPORT = _MISSING
_NATIVE_LAZY_IMPORT = vars(__import__('builtins')).get('__lazy_import__', _MISSING) \
    if sys.version_info >= (3, 15) else _MISSING  # the interpreter's own

# lazy_codec._report.Recorder while a report is asked for, else None
recorder = None


def _current(frame) -> int:
    """the offset of the instruction `frame` is running: 3.9 and 3.10 leave
    f_lasti at its EXTENDED_ARG prefix (a module with over 256 names)"""
    lasti = frame.f_lasti
    if lasti >= 0:
        code = frame.f_code.co_code
        while code[lasti] == _EXTENDED_ARG:
            lasti += 2
    return lasti


def _loading(frame, load_ops: frozenset = _load_ops) -> bool:
    """is `frame` loading a name, rather than storing, deleting or peeking?
    (`load_ops`: the opcodes that count, besides `import *` and getattr calls)"""
    lasti = _current(frame)
    if lasti < 0:
        return False
    code = frame.f_code.co_code
    op = code[lasti]
    if op in load_ops:
        return True
    if op == _CALL_INTRINSIC_1:  # 3.12+: `from m import *` is intrinsic 2
        return code[lasti + 1] == 2
    return op in _CALLS and _call_loads(frame, lasti)


def _instruction_before(code: bytes, offset: int):
    """(offset, opcode, argument) of the instruction before `offset`, or None"""
    offset -= 2
    while _CACHES and offset >= 0 and code[offset] == 0:
        offset -= 2
    if offset < 0:
        return None
    arg, shift, at = code[offset + 1], 8, offset - 2
    while at >= 0 and code[at] == _EXTENDED_ARG:
        arg |= code[at + 1] << shift
        shift += 8
        at -= 2
    return offset, code[offset], arg


def _producer(code: bytes, lasti: int, depth: int):
    """the instruction that pushed the stack item `depth` below the top (1 is
    the top) as the instruction at `lasti` starts, walking back over simple
    loads only; None where it cannot tell (a jump, any other instruction)"""
    offset = lasti
    while True:
        found = _instruction_before(code, offset)
        if found is None:
            return None
        offset, op, arg = found
        if op in _NOTHING:
            continue
        if op in _PUSH_ONE:
            pops, pushes = 0, 1
        elif op == _LOAD_GLOBAL:
            pops, pushes = 0, 1 + (arg & 1 if _WIDE_GLOBALS else 0)
        elif op == _LOAD_ATTR:
            pops, pushes = 1, 1 + (arg & 1 if _WIDE_ATTRS else 0)
        elif op == _LOAD_METHOD:
            pops, pushes = 1, 2
        elif op in _PUSH_TWO:
            pops, pushes = 0, 2
        elif op == _BINARY_SUBSCR:
            pops, pushes = 2, 1
        else:
            return None
        if depth <= pushes:
            return op, arg
        depth += pops - pushes


def _call_loads(frame, lasti: int) -> bool:
    """is the call at `lasti` one of getattr, hasattr, attrgetter(...)?  They
    reify a module's lazy name, as on 3.15; dict methods (`vars(m).get`) do not"""
    code = frame.f_code
    co_code = code.co_code
    depth = co_code[lasti + 1] + _CALLS[co_code[lasti]] + 1
    found = _producer(co_code, lasti, depth)
    if found is not None and found[0] == _PUSH_NULL:
        found = _producer(co_code, lasti, depth + 1)
    if found is None:
        return False
    op, arg = found
    if op == _LOAD_ATTR or op == _LOAD_METHOD:
        name = code.co_names[arg >> 1 if _WIDE_ATTRS and op == _LOAD_ATTR else arg]
        return name in ('getattr', 'hasattr', '__getattribute__')
    if op == _LOAD_GLOBAL or op == _LOAD_NAME:
        name = code.co_names[arg >> 1 if _WIDE_GLOBALS and op == _LOAD_GLOBAL else arg]
        callee = _MISSING
        if op == _LOAD_NAME:
            callee = frame.f_locals.get(name, _MISSING)
        if callee is _MISSING:
            callee = frame.f_globals.get(name, _MISSING)
        if callee is _MISSING:
            builtins = frame.f_builtins
            callee = builtins.get(name, _MISSING) if type(builtins) is dict else getattr(builtins, name, _MISSING)
    elif op in _LOCAL_LOADS:
        if op in _DEREF_LOADS and sys.version_info < (3, 11):
            names = code.co_cellvars + code.co_freevars  # 3.9/3.10: cells, then free variables
        else:
            names = code.co_varnames + code.co_cellvars + code.co_freevars
        if arg >= len(names):
            return False
        callee = frame.f_locals.get(names[arg], _MISSING)
    else:
        return False
    return any(callee is getter for getter in _ATTRIBUTE_GETTERS) or type(callee) is attrgetter


def _resolve(lazy: 'LazyImportType'):
    value, exc = _import_target(lazy)
    if exc is not None:
        raise exc
    return value


class _BoundResolve:
    """`lazy.resolve`, shown as 3.15's built-in method is"""
    __slots__ = ('__self__',)
    __name__ = 'resolve'
    __doc__ = 'Resolve the lazy import and return the imported object.'

    def __getattr__(self, name):
        if name == '__qualname__':  # (one in the class body would be the class's)
            return 'lazy_import.resolve'
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

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
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __get__(self, lazy, owner=None):
        if lazy is None:
            return self
        bound = object.__new__(_BoundResolve)
        bound.__self__ = lazy
        return bound

    def __call__(self, lazy):
        if type(lazy) is not LazyImportType:
            raise TypeError("descriptor 'resolve' for 'lazy_import' objects doesn't apply to a "
                            f"'{type(lazy).__name__}' object")
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
    __slots__ = ('_name', '_statement', '_globals', '_filename', '_lineno', '_submodule', '_base',
                 '_key', '_from', '_shown', '_attached')

    def __new__(cls, *args, **kwargs):
        raise TypeError("cannot create 'lazy_import' instances")

    def __init_subclass__(cls, **kwargs):
        raise TypeError("type 'lazy_import' is not an acceptable base type")

    def __dir__(self):
        return sorted(set(object.__dir__(self)) - set(LazyImportType.__slots__)
                      - {'__slots__', '__getattr__', '__module__', '__init_subclass__',
                         '__static_attributes__', '__firstlineno__'})  # (3.13+ adds these two)

    def __repr__(self) -> str:
        return f'<lazy_import {self._shown or self._name!r}>'

    def __reduce_ex__(self, protocol):
        raise TypeError("cannot pickle 'lazy_import' object")

    def __getattr__(self, name):
        value = _loaded_by_name(self, _getframe(1))
        if value is not _MISSING:
            return getattr(value, name)
        raise AttributeError(
            f'cannot access attribute {name!r} on unresolved lazy import {self._shown or self._name!r}')

    resolve = _Resolve()  # (import the target and return it; the binding is left as it is)


LazyImportType.__name__ = LazyImportType.__qualname__ = 'lazy_import'
LazyImportType.__doc__ = (
    'Represents a lazy import that will be resolved on first use.\n\n'
    'Instances of this object accessed from the global scope will be\n'
    'automatically imported based upon their name and then replaced with\n'
    'the imported value.')
LazyImportType.__module__ = 'builtins'


def _instruction_at(code: bytes, offset: int):
    """(opcode, argument, offset of the next instruction) at `offset`, past
    its EXTENDED_ARG prefixes and its inline caches"""
    arg = 0
    while code[offset] == _EXTENDED_ARG:
        arg = (arg | code[offset + 1]) << 8
        offset += 2
    op, arg = code[offset], arg | code[offset + 1]
    offset += 2
    while _CACHES and offset < len(code) and code[offset] == 0:
        offset += 2
    return op, arg, offset


def _name_of(code, op: int, arg: int) -> str:
    return code.co_names[arg >> 1 if op == _LOAD_GLOBAL and _WIDE_GLOBALS else arg]


def _lookup(frame, op: int, name: str):
    """(namespace, value) where LOAD_NAME or LOAD_GLOBAL finds `name`, by peeks
    (dict.get reifies nothing); (None, _MISSING) when it finds nothing"""
    spaces = (frame.f_locals, frame.f_globals) if op == _LOAD_NAME else (frame.f_globals,)
    for namespace in spaces + (frame.f_builtins,):
        if type(namespace) is dict:
            value = namespace.get(name, _MISSING)
            if value is not _MISSING:
                return namespace, value
    return None, _MISSING


def _loaded_by_name(lazy: 'LazyImportType', frame):
    """3.15 reifies a lazy object wherever a name load finds it: here, where
    an attribute of it is asked for (`alias.attr`, `globals()[a] =
    globals()[b]`) right after the load, resolve it, rebind the name, and
    return the value; _MISSING when it was not so loaded (`globals()['x'].y`)"""
    lasti = _current(frame)
    co_code = frame.f_code.co_code
    if lasti < 0 or co_code[lasti] not in (_LOAD_ATTR, _LOAD_METHOD):
        return _MISSING
    found = _instruction_before(co_code, lasti)
    if found is None or found[1] not in (_LOAD_NAME, _LOAD_GLOBAL):
        return _MISSING
    name = _name_of(frame.f_code, found[1], found[2])
    namespace, bound = _lookup(frame, found[1], name)
    if bound is not lazy:
        return _MISSING
    value = lazy.resolve()
    with _binding_lock:
        if namespace.get(name, _MISSING) is lazy:
            namespace[name] = value
    return value


def _bind_where_stored(lazy: 'LazyImportType', frame) -> None:
    """`x = __lazy_import__(...)` (x a module global) and `mod.x =
    __lazy_import__(...)` (mod a module): bind the lazy object there now, as
    a lazy binding, so that the store that follows the call (which keeps an
    equal key) leaves a binding whose load reifies, as on 3.15"""
    lasti = _current(frame)
    if lasti < 0:
        return
    code = frame.f_code
    co_code = code.co_code
    op, arg, after = _instruction_at(co_code, _instruction_at(co_code, lasti)[2])
    if op == _STORE_NAME:
        namespace, name = frame.f_locals, code.co_names[arg]
    elif op in (_LOAD_NAME, _LOAD_GLOBAL) and after < len(co_code):
        store, attr, _ = _instruction_at(co_code, after)
        if store != _STORE_ATTR:
            return
        owner = _lookup(frame, op, _name_of(code, op, arg))[1]
        if not isinstance(owner, ModuleType) or type(owner).__setattr__ is not ModuleType.__setattr__:
            return
        namespace, name = vars(owner), code.co_names[attr]
    else:
        return
    if type(namespace) is dict:
        _bind(namespace, name, lazy)


def _new_lazy(name, statement, globals_, frame, submodule=None, base=None) -> LazyImportType:
    lazy = object.__new__(LazyImportType)
    lazy._name = name
    lazy._statement = statement
    lazy._globals = globals_
    lazy._filename = frame.f_code.co_filename
    lazy._lineno = frame.f_lineno
    lazy._submodule = submodule
    lazy._base = base  # a `from` import's module
    lazy._key = None  # its _LazyName once bound
    lazy._from = None  # a projection's lazy object (see _projection)
    lazy._shown = None  # the name repr shows, when not _name
    lazy._attached = False  # a submodule's binding in its package (see _attach)
    return lazy


def _projection(source: LazyImportType, attr: str, frame) -> LazyImportType:
    """3.15's lazy object for `attr` of a lazy object that a replaced
    __lazy_import__ returned (`lazy import a.b as c`, `lazy from a import b`):
    resolving it resolves `source`, then imports `attr` from what that gave"""
    lazy = _new_lazy(f'{source._shown or source._name}.{attr}', attr, source._globals, frame)
    if source._shown is not None and source._shown.endswith('...'):
        lazy._name = f'{source._name}.{attr}'
    elif source._from is None and source._submodule is not None:
        lazy._name = f"{source._name.partition('.')[0]}.{attr}"  # __import__('a.b') gives a
    lazy._from = source
    return lazy


def _import_from(value, attr: str):
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
    raise ImportError(f'cannot import name {attr!r} from {package!r} (unknown location)',
                      name=package)


def _import_target(lazy: LazyImportType):
    """(value, None) or (None, the exception to raise, chained as 3.15 does)"""
    handling = sys.exc_info()[1]
    if lazy._from is not None:
        value, exc = _import_target(lazy._from)
        if exc is not None:
            return None, exc
        try:
            return _import_from(value, lazy._statement), None
        except BaseException as exc:
            return None, _chained(exc, lazy, None, handling is not None)
    code = _statement_code(lazy._statement, lazy._filename, lazy._lineno)
    # the statement's locals, which a replaced __import__ gets: the module's
    # globals, as on 3.15 (click's own import test reads `__name__` there),
    # with the statement's own store kept apart; __lazy_import__'s statements
    # pass `g` themselves
    namespace = {'g': lazy._globals} if '__import__(' in lazy._statement else _ModuleLocals(lazy._globals)
    try:
        if lazy._base is not None:
            _import_named_submodule(lazy)
        exec(code, lazy._globals, namespace)
        value = dict.__getitem__(namespace, 'v')
        if type(value) is LazyImportType:  # what a replaced __import__ returned
            value = value.resolve()
        if lazy._submodule is not None and lazy._statement.startswith('import '):
            _check_package(value, lazy._submodule)  # (a statement's, not __lazy_import__'s)
    except BaseException as exc:
        return None, _chained(exc, lazy, code, handling is not None)
    finally:
        if lazy._base is not None and _loaded(lazy._base):
            lazy_modules.discard(lazy._base)
    if lazy._submodule is None:
        lazy_modules.discard(lazy._name)
    _attach_submodules(lazy._submodule or lazy._base or lazy._name, lazy)
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


def _check_package(top, dotted: str) -> None:
    """`lazy import a.b` binds `a`, which 3.15 resolves as an import of
    `a.b` that stops at `a` if `a` is a package: if it is not, that import's
    error"""
    child = '.'.join(dotted.split('.', 2)[:2])
    if sys.modules.get(child) is None:
        try:
            top.__path__  # as importlib asks, with its error
        except AttributeError:
            parent = child.rpartition('.')[0]
            raise ModuleNotFoundError(f'No module named {child!r}; {parent!r} is not a package',
                                      name=child) from None


def _import_named_submodule(lazy: LazyImportType) -> None:
    """`lazy from pkg import sub`: 3.15 imports the submodule `pkg.sub`, as
    sys.lazy_modules names it, before asking the package (whose module
    __getattr__ is then not called for it)"""
    package = sys.modules.get(lazy._base)
    namespace = getattr(package, '__dict__', None)
    if type(namespace) is not dict or '__path__' not in namespace:
        return
    attr = lazy._name[len(lazy._base) + 1:]
    if attr in namespace or lazy._name in sys.modules:
        return
    try:
        __import__(lazy._name)
    except ModuleNotFoundError as exc:
        if exc.name != lazy._name:
            raise


def _statement_code(statement: str, filename: str, lineno: int):
    key = (statement, filename, lineno)
    code = _statement_codes.get(key)
    if code is None:
        code = _from_template(statement, filename)
        if code is None:
            code = compile(statement, filename, 'exec', dont_inherit=True)
        code = _statement_codes[key] = _at_line(code, lineno)
        _statement_code_ids.add(id(code))  # kept alive by _statement_codes
    return code


# compiled import statements with placeholder names, by shape: a statement of
# the same shape is the template with its names put in (a few times cheaper
# than compiling it, which every first use of a lazy name would pay)
_templates: dict[str, object] = {}


def _from_template(statement: str, filename: str):
    """`import a.b as v` or `from ..a import b as v` as code, or None"""
    words = statement.split(' ')
    if len(words) == 4 and words[0] == 'import' and words[2:] == ['as', 'v']:
        dotted = words[1]
    elif len(words) == 6 and words[0] == 'from' and words[2] == 'import' and words[4:] == ['as', 'v']:
        dotted = words[1].lstrip('.')
        dots = words[1][:len(words[1]) - len(dotted)]
        if not words[3].isidentifier():
            return None
    else:
        return None
    parts = dotted.split('.') if dotted else []
    if not all(part.isidentifier() for part in parts):
        return None
    names = parts + ([words[3]] if words[0] == 'from' else [])
    placeholders = [f'_{i}' for i in range(len(names))]
    if words[0] == 'import':
        shape = f"import {'.'.join(placeholders)} as v"
    else:
        shape = f"from {dots}{'.'.join(placeholders[:-1])} import {placeholders[-1]} as v"
    template = _templates.get(shape)
    if template is None:
        template = _templates[shape] = compile(shape, '<lazy import>', 'exec', dont_inherit=True)
    real = dict(zip(placeholders, names))

    def renamed(value):
        if type(value) is str:
            return '.'.join(real.get(part, part) for part in value.split('.'))
        if type(value) is tuple:
            return tuple(renamed(item) for item in value)
        return value

    return template.replace(co_filename=filename, co_names=renamed(template.co_names),
                            co_consts=renamed(template.co_consts))


def _at_line(code, lineno: int):
    """`code` as if written on line `lineno` of its file, with no columns:
    a traceback shows the user's `lazy` line there, whose columns differ"""
    code = code.replace(co_firstlineno=lineno)
    if sys.version_info < (3, 11):
        return code  # no columns before 3.11
    # location table entries: "no columns" (code 13) for up to 8 code units,
    # each at line delta 0
    units = len(code.co_code) // 2
    table = bytearray()
    while units > 0:
        n = min(units, 8)
        table += bytes((0x80 | (13 << 3) | (n - 1), 0))
        units -= n
    return code.replace(co_linetable=bytes(table))


def _chained(exc: BaseException, lazy: LazyImportType, code, handling: bool) -> BaseException:
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
    if handling or exc.__cause__ is not None or exc.__context__ is not None or \
            exc.__suppress_context__:
        note = f'lazy import of {lazy._name!r} declared in <module> at {lazy._filename}:{lazy._lineno}'
        notes = getattr(exc, '__notes__', None)
        if notes is None:
            notes = exc.__notes__ = []
        if note not in notes:
            notes.append(note)
        return exc
    cause = ImportError(f'lazy import of {lazy._name!r} raised an exception during resolution')
    if tb is not None:
        cause.__traceback__ = TracebackType(None, tb.tb_frame, tb.tb_lasti, lazy._lineno)
    exc.__cause__ = cause
    return exc


class _LazyName(str):
    """the key of a lazy binding in a module dict (see the module docstring)"""

    def __hash__(self, _getframe=_getframe, _str_hash=str.__hash__):
        # Called only when this key object itself is looked up (a plain name
        # has its own hash): `from m import *` and `getattr(m, k) for k in
        # dir(m)` do, and must reify as on 3.15. (Defaults, not globals: at
        # exit, module dicts are cleared, this module's too, through their keys)
        frame = _getframe(0).f_back  # None when hashed by C with no Python caller
        if frame is not None and frame.f_globals is not _OUR_GLOBALS and self.lazy is not None \
                and _reads_key(frame) and not (self.lazy._attached and _star_import(frame)):
            exc = _settle(self, self.namespace)
            if exc is not None:
                raise exc
        return _str_hash(self)

    def __eq__(self, other):
        if _str_eq(self, other) is not True:
            return False
        frame = _getframe(1)
        if self.lazy is None or not _loading(frame):
            return True
        namespace = self.namespace
        op = frame.f_code.co_code[_current(frame)]
        if op in _NAME_LOADS and frame.f_globals is not namespace:
            # copied into another dict by `from m import *` (whose own
            # lookups cannot be seen): the lookup is in the frame's namespace
            for candidate in (frame.f_locals, frame.f_globals):
                if type(candidate) is dict and candidate.get(self, _MISSING) is not _MISSING:
                    namespace = candidate
                    break
        if self.resolving == _get_ident():
            if id(frame.f_code) in _statement_code_ids or frame.f_code is _HANDLE_FROMLIST_CODE:
                # the import machinery, resolving this name: as before the
                # binding existed, there is no such name yet (so that `from .
                # import sub`, run in `sub`'s own package, imports it), until
                # the import of the submodule stores it (then the module is
                # found, and the package's module __getattr__ is not called)
                return type(namespace.get(self, None)) is not LazyImportType
            lazy = self.lazy
            if lazy._attached:
                running = sys.modules.get(lazy._name)
                if running is not None:
                    # a package's submodule, used inside its own import (its
                    # code reads pkg.sub): the module being run, as importlib
                    # gives it; until that import ends (see _settle)
                    with _binding_lock:
                        namespace[self] = running  # (in place: the lookup goes on)
                        self.running = running
                    return True
            return _raising(ImportCycleError(
                f'cannot import name {lazy._name!r} (most likely due to a circular import)',
                name=lazy._base or lazy._name))
        exc = _settle(self, namespace, frame)
        if exc is not None:
            return _raising(exc)
        # the dict has changed: the lookup in progress starts again and
        # finds the real object under a plain key
        return True

    def __ne__(self, other):
        return not self.__eq__(other)

    def __reduce__(self):
        return str, (str(self),)


_str_hash = str.__hash__


def _exhausted():
    yield


_finished = _exhausted()
for _ in _finished:
    pass


def _raising(exc: BaseException):
    """what __eq__ returns to fail the lookup that called it with `exc`: an
    object whose truth test (which the lookup makes of __eq__'s result)
    raises it from C, a finished generator's throw(), so that, as on 3.15,
    no frame of ours stands in its traceback between the use and the
    imported module's frames (a class per failure: failures are rare).
    A raise would chain it to the exception being handled: so does this"""
    handling = sys.exc_info()[1]
    if handling is not None and handling is not exc and exc.__context__ is None:
        exc.__context__ = handling
    return type('lazy_import_error', (), {
        '__slots__': (), '__bool__': staticmethod(partial(_finished.throw, exc))})()


_STAR_OPS = frozenset((_IMPORT_STAR,))


def _reads_key(frame) -> bool:
    """is `frame` reading an attribute by a key object: `import *`, getattr?"""
    return _loading(frame, _STAR_OPS)


def _star_import(frame) -> bool:
    """is `frame` running `from m import *`?  (Of a package without __all__,
    it copies a submodule's lazy binding as it is: on 3.15 that binding is
    not in the package's dict, and the import does not resolve it)"""
    lasti = _current(frame)
    code = frame.f_code.co_code
    return code[lasti] == _IMPORT_STAR or (code[lasti] == _CALL_INTRINSIC_1 and code[lasti + 1] == 2)


# Live lazy keys per namespace, by id: when a namespace's count falls to 0 it
# is rebuilt (no scan of the dict at each reification).  Under _binding_lock.
_live_keys: dict[int, int] = {}


def _settle(key: _LazyName, namespace: dict, frame=None) -> 'BaseException | None':
    """replace `key` in `namespace` by a plain key and its real value
    (`frame`: the one whose load this is, if known)"""
    current = namespace.get(key, _MISSING)  # finds `key` itself by identity
    if current is _MISSING:  # a copy of the dict: only the original reifies
        return None
    home = namespace is key.namespace
    lazy = key.lazy if home else current
    if type(current) is LazyImportType:
        key.resolving = _get_ident()
        started = recorder.start(current) if recorder is not None else None
        try:
            current, exc = _import_target(current)
        finally:
            key.resolving = None
            if key.running is not None:
                with _binding_lock:
                    if exc is not None and namespace.get(key, None) is key.running:
                        namespace[key] = lazy  # failed: lazy again, as before its import
                    key.running = None
            if started is not None:
                recorder.finish(lazy, started, exc is None, _getframe(2))
        if exc is not None:
            return exc
    with _binding_lock:
        if (key.lazy is lazy or not home) and namespace.get(key, _MISSING) is not _MISSING:
            in_loop = home and frame is not None and _in_dict_loop(frame)
            if in_loop:
                # The load is inside a for loop that may iterate this very
                # dict (a comprehension over globals().items() that uses the
                # name, as tkinter has): the value replaced in place, under
                # the same key object, so that the entry keeps its place and
                # the iteration goes on as on 3.15. The rebuilder makes the
                # key plain once no such loop runs; until then the name's
                # lookups pass through __eq__, which answers at once.
                namespace[key] = current
                _unswapped.append((namespace, key, current))
            else:
                # Delete then insert under a plain key, as one C call:
                # neither frees the table that the lookup in progress (ours)
                # reads (a resize makes the new table before freeing the
                # old); a rebuild here would. The name moves to the end.
                any(map(_call, (partial(namespace.__delitem__, key),
                                partial(namespace.__setitem__, sys.intern(str(key)), current))))
            if home:
                key.lazy = None
                left = _live_keys.get(id(namespace), 1) - 1
                if left > 0:
                    _live_keys[id(namespace)] = left
                    if in_loop:
                        _rebuild_soon()
                else:
                    _live_keys.pop(id(namespace), None)
                    _dirty[id(namespace)] = namespace
                    _rebuild_soon()
            else:  # a copy `import *` made
                _dirty[id(namespace)] = namespace
                _rebuild_soon()
    return None


# what a for loop's iterable may be made with when it iterates a module dict
_DICT_ITERATION_NAMES = frozenset(('items', 'keys', 'values', 'globals', 'vars', '__dict__'))
_COMPREHENSIONS = frozenset(('<listcomp>', '<setcomp>', '<dictcomp>', '<genexpr>'))
_FOR_ITER = _op['FOR_ITER']
_FOR_ITER_TARGET = (2 + (2 if sys.version_info >= (3, 12) else 0),  # bytes to the next instruction
                    1 if sys.version_info < (3, 10) else 2)  # bytes per unit of the jump


def _in_dict_loop(frame) -> bool:
    """is `frame` in a for loop that may iterate its module's dict? (a
    heuristic, read without decoding each instruction: in a for loop, in code
    that names a way to iterate a dict: `items`, `globals`, `__dict__`, ...)"""
    code = frame.f_code
    if _DICT_ITERATION_NAMES.isdisjoint(code.co_names) and not (
            # 3.9-3.11: a comprehension is a function given its iterator
            code.co_name in _COMPREHENSIONS and
            type(frame.f_locals.get('.0')).__name__.startswith('dict_')):
        return False
    raw, lasti = code.co_code, frame.f_lasti
    opcode = bytes((_FOR_ITER,))
    at = raw.find(opcode)
    while 0 <= at < lasti:
        if not at & 1:
            arg, prefix = raw[at + 1], at - 2
            while prefix >= 0 and raw[prefix] == _EXTENDED_ARG:
                arg |= raw[prefix + 1] << (8 * ((at - prefix) // 2))
                prefix -= 2
            if at + _FOR_ITER_TARGET[0] + arg * _FOR_ITER_TARGET[1] > lasti:
                return True
        at = raw.find(opcode, at + 1)
    return False


def _iterated() -> set:
    """ids of the module dicts that a for loop running now, in any thread,
    may iterate (see _in_dict_loop)"""
    found = set()
    for frame in sys._current_frames().values():
        while frame is not None:
            if _in_dict_loop(frame):
                found.add(id(frame.f_globals))
            frame = frame.f_back
    return found


# clear() then update() as one C call, so that no other thread runs between
# them (a thread switch needs bytecode); the old entries stay referenced in
# `items`, so that no finalizer runs in between either
_call = methodcaller('__call__')


def _make_plain(namespace: dict, key: _LazyName, value) -> None:
    """a settled key (its value in place) swapped for a plain str key: delete
    then insert, as one C call (safe during a lookup: see _settle); the name
    moves to the end of the dict. Not if the entry was rebound meanwhile."""
    if namespace.get(key, _MISSING) is value:
        any(map(_call, (partial(namespace.__delitem__, key),
                        partial(namespace.__setitem__, sys.intern(str(key)), value))))


def _rebuilt(namespace: dict) -> None:
    """`namespace` re-made, in the same order: with only exact str keys left,
    it is again the dict form the specializing interpreter needs (3.11+)"""
    items = [(sys.intern(str(k)) if type(k) is _LazyName else k, v) for k, v in namespace.items()]
    any(map(_call, (namespace.clear, partial(namespace.update, items))))


# -- rebuilding module dicts after reification ---------------------------------
# A rebuild frees the dict's key table, so it must not happen while a lookup in
# that dict is in progress: the lookup would go on reading freed memory (seen:
# NameError, crashes). A lookup in a module dict runs Python code only through
# _LazyName.__eq__; so once a dict has no _LazyName key left, a lookup in it can
# be in progress across Python code only in a thread that is inside __eq__.
# The rebuild waits for no thread to be there, with _binding_lock held so that
# no lazy key comes back meanwhile. A thread does it, soon after the last
# reification in a module, while the thread that reified goes on.

_dirty: dict[int, dict] = {}  # namespaces to rebuild, by id; under _binding_lock
# (namespace, key, value) of keys settled in place because a for loop that
# may iterate `namespace` was running (see _settle); under _binding_lock. Each
# costs its name a Python __eq__ call per lookup until the rebuilder swaps it,
# once no such loop runs; until then the dict is not rebuilt either
_unswapped: list = []
_LINGER = 20  # idle rounds of 1 ms before the rebuilder exits (one start per burst)
_rebuilder_running = allocate_lock()  # held while a rebuilder thread runs
# what the rebuilder waits on between rounds: held, except when released to
# wake it at once (_stop_rebuilding: an exit or a fork must not wait a round)
_rebuilder_wakeup = allocate_lock()
_rebuilder_wakeup.acquire()
_stop_rebuilder = False  # set to make it exit early (before a fork)


_EQ_CODE = _LazyName.__eq__.__code__
_OUR_GLOBALS = globals()
_NAME_LOADS = frozenset(_op[name] for name in ('LOAD_NAME', 'LOAD_GLOBAL') if name in _op)
_HANDLE_FROMLIST_CODE = sys.modules['_frozen_importlib']._handle_fromlist.__code__


def _rebuild_soon() -> None:
    """(called with _binding_lock held)"""
    if not _rebuilder_running.locked():
        _rebuilder_running.acquire()
        try:
            _start_thread(_rebuilder, ())
        except RuntimeError:
            # at interpreter shutdown (an atexit callback's first use, 3.12):
            # no rebuild then, and no lock left held for _stop_rebuilding
            _rebuilder_running.release()


def _in_lookup() -> bool:
    """is any thread inside _LazyName.__eq__, i.e. inside a dict lookup?"""
    for frame in sys._current_frames().values():
        while frame is not None:
            if frame.f_code is _EQ_CODE:
                return True
            frame = frame.f_back
    return False


def _rebuild_pending() -> None:
    """rebuild the dirty dicts that are safe to rebuild now (see above)"""
    with _binding_lock:
        if _in_lookup():
            return
        iterated = _iterated()
        for key, namespace in list(_dirty.items()):
            if key in iterated:
                continue  # a loop may iterate it: not before that is done
            del _dirty[key]
            # (once per module, in this thread: a key still lazy, or copied
            # while lazy, keeps the dict as it is)
            if not any(type(k) is _LazyName and (k.lazy is not None or type(v) is LazyImportType)
                       for k, v in list(namespace.items())):
                _rebuilt(namespace)


def _swap_pending() -> None:
    """(called with _binding_lock held)"""
    if not _unswapped:
        return
    swaps = _unswapped[:]
    del _unswapped[:]
    iterated = _iterated()
    for swap in swaps:
        if id(swap[0]) in iterated:
            _unswapped.append(swap)  # not while a loop may iterate the dict
        else:
            _make_plain(*swap)


def _rebuilder() -> None:
    """runs while there is something to swap or rebuild, and _LINGER ms more
    (a burst of first uses starts one thread), then exits: no thread of ours
    stays in the process (3.12+ warns when a threaded process forks)"""
    idle = 0
    try:
        while True:
            # first a pause: the thread that started this one (3.13+ hands it
            # the GIL at the start) goes on with its lookup
            _rebuilder_wakeup.acquire(True, 0.001 if idle < 3 else 0.02)
            with _binding_lock:
                if _stop_rebuilder or (idle > _LINGER and not _dirty and not _unswapped):
                    # released under _binding_lock: _rebuild_soon, which
                    # holds it, sees either this thread going on or none
                    _rebuilder_running.release()
                    return
                waiting = len(_unswapped) + len(_dirty)
                _swap_pending()
            if _dirty:
                _rebuild_pending()  # (may leave them: a thread inside a lookup, a loop)
            # idle: nothing done this round (only loops to wait for: a poll
            # every 20 ms from the third such round)
            idle = 0 if len(_unswapped) + len(_dirty) < waiting else idle + 1
    except BaseException:
        # at interpreter exit a daemon thread can find modules torn down: a
        # rebuild is only an optimization, and nothing may reach stderr
        if _rebuilder_running.locked():
            _rebuilder_running.release()


def _stop_rebuilding() -> None:
    """no rebuilder thread across a fork, nor at interpreter exit (a daemon
    thread still running during finalization can crash the interpreter)"""
    global _stop_rebuilder
    if _rebuilder_running.locked():
        _stop_rebuilder = True
        if _rebuilder_wakeup.locked():
            _rebuilder_wakeup.release()
        with _rebuilder_running:  # wait until it has exited
            pass
        _rebuilder_wakeup.acquire(False)  # held again, if the thread did not take the wake-up
        _stop_rebuilder = False


def _before_fork() -> None:
    _stop_rebuilding()
    with _binding_lock:  # in this thread instead
        _swap_pending()
    if _dirty:
        _rebuild_pending()


if hasattr(__import__('os'), 'register_at_fork'):
    __import__('os').register_at_fork(before=_before_fork)
__import__('atexit').register(_stop_rebuilding)


def _bind(namespace, name: str, lazy: LazyImportType, record: bool = True) -> None:
    if recorder is not None and record:
        recorder.created(lazy, name, lazy._globals.get('__name__'))
    if type(namespace) is not dict:  # e.g. exec() with a mapping: no key trick
        namespace[name] = lazy.resolve()
        return
    with _binding_lock:
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
        key = _LazyName(name)
        key.namespace = namespace
        key.lazy = lazy
        key.resolving = None  # the thread importing the target, while it does
        key.running = None  # the partial module a use inside that import was given
        lazy._key = key
        _live_keys[id(namespace)] = _live_keys.get(id(namespace), 0) + 1
        if name not in namespace:
            namespace[key] = lazy
        else:
            # a plain binding (an eager import before, a reload, a key that
            # `import *` copied from another module): delete then insert, as
            # one C call; neither frees the table that a lookup in progress
            # might read (a resize frees the old table after making the new
            # one), so this is safe anywhere
            any(map(_call, (partial(namespace.__delitem__, name),
                            partial(namespace.__setitem__, key, lazy))))


# -- submodules named by lazy statements ---------------------------------------
# 3.15 makes `a.b` work on an imported package `a` once a lazy statement named
# `a.b` (`lazy import a.b.c`, `lazy from a.b import x`, mode "all"), importing
# `a.b` at first access.  Here `a` gets a lazy binding `b` in its dict, when
# `a` is imported: at the statement, when a lazy import of this chain
# completes, or, for a package still running at the statement, when importlib
# marks it done (_DoneWatch).  Parents not imported yet wait in _waiting_children.

_waiting_children: dict[str, set[str]] = {}  # parent name -> child names; under _binding_lock
_ModuleSpec = sys.modules['_frozen_importlib'].ModuleSpec


class _DoneWatch(_ModuleSpec):
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
                _attach_submodules(self.name, origin)


_waiting_origin: dict[str, LazyImportType] = {}  # parent name -> a statement that named a child


def _attach_submodules(dotted: str, origin: LazyImportType) -> None:
    """bind each not-yet-imported level of `dotted` in its imported parent;
    an error at first use points at `origin`, the statement that named it"""
    parts = dotted.split('.')
    for i in range(1, len(parts) + 1):
        parent_name = '.'.join(parts[:i])
        parent = sys.modules.get(parent_name)
        children = {parts[i]} if i < len(parts) else set()
        if parent is None or getattr(getattr(parent, '__spec__', None), '_initializing', False) is True:
            # not imported, or still running (3.15 binds nothing in a package
            # that runs `lazy from ._sub import x`, which may `del _sub`)
            if children:
                with _binding_lock:
                    _waiting_children.setdefault(parent_name, set()).update(children)
                    spec = parent.__spec__ if parent is not None else None
                    if type(spec) in (_ModuleSpec, _DoneWatch):
                        _waiting_origin[parent_name] = origin
                        object.__setattr__(spec, '__class__', _DoneWatch)
            continue
        if parent_name in _waiting_children:
            with _binding_lock:
                children |= _waiting_children.pop(parent_name, set())
        for child in children:
            full = f'{parent_name}.{child}'
            if sys.modules.get(full) is None:  # (None: blocked, which resolving says)
                _attach(parent, child, full, origin)


def _attach(parent, child: str, full: str, origin: LazyImportType) -> None:
    namespace = getattr(parent, '__dict__', None)
    if type(namespace) is not dict or child in namespace:
        return
    attached = object.__new__(LazyImportType)
    attached._name, attached._statement, attached._globals = full, f'import {full} as v', namespace
    attached._filename, attached._lineno = origin._filename, origin._lineno
    attached._submodule = attached._base = attached._key = attached._from = attached._shown = None
    attached._attached = True
    _bind(namespace, child, attached, record=False)


# -- the mode and the filter (3.15's sys.set_lazy_imports and _filter) --------

_mode = 'normal'  # 'normal': `lazy` statements and __lazy_modules__; 'all': every eligible import
_filter = None  # called at each potentially lazy import; falsy: import eagerly


def set_lazy_imports(*args):
    if len(args) != 1:
        raise TypeError("set_lazy_imports() missing required argument 'mode' (pos 1)")
    mode, = args
    if not isinstance(mode, str):
        raise TypeError("mode must be a string: 'normal' or 'all'")
    if mode not in ('normal', 'all'):
        raise ValueError("mode must be 'normal' or 'all'")
    global _mode
    _mode = mode
    from lazy_codec import _all
    if mode == 'all':
        _all.install()
    else:
        _all.uninstall()


def get_lazy_imports() -> str:
    return _mode


def set_lazy_imports_filter(*args):
    if len(args) != 1:
        raise TypeError("set_lazy_imports_filter() missing required argument 'filter' (pos 1)")
    func, = args
    if func is not None and not callable(func):
        raise ValueError('filter provided but is not callable')
    global _filter
    _filter = func


def get_lazy_imports_filter():
    return _filter


def _lazy_here(frame, name: str, fromlist, explicit: bool) -> bool:
    """does this import statement bind lazily, as 3.15 decides?"""
    if not explicit and _mode != 'all':
        listed = frame.f_globals.get('__lazy_modules__')
        if listed is None or name not in listed:
            return False
    if _filter is not None and not _filter(frame.f_globals.get('__name__'), name, fromlist):
        return False
    return True


def _eager(frame, statement: str) -> None:
    """run `statement` as the plain import it is, where it is written"""
    code = _statement_code(statement, frame.f_code.co_filename, frame.f_lineno)
    exec(code, frame.f_globals, frame.f_locals)


# -- the entry points (lazy_codec._abi1 gives them their stable names) --------

def lazy_import(*aliases: 'tuple[str, str | None]') -> None:
    """`lazy import a.b.c as d, e` -> lazy_import(('a.b.c', 'd'), ('e', None))"""
    _import(_getframe(1), aliases, True)


def maybe_lazy_import(*aliases: 'tuple[str, str | None]') -> None:
    """a plain `import` that `__lazy_modules__` or mode "all" can make lazy"""
    _import(_getframe(1), aliases, False)


def lazy_from(module: str, level: int, *aliases: 'tuple[str, str | None]') -> None:
    """`lazy from ..m import x as y, z` -> lazy_from('m', 2, ('x', 'y'), ('z', None))"""
    _from(_getframe(1), module, level, aliases, True)


def maybe_lazy_from(module: str, level: int, *aliases: 'tuple[str, str | None]') -> None:
    """a plain `from ... import` that `__lazy_modules__` or mode "all" can make lazy"""
    _from(_getframe(1), module, level, aliases, False)


def _import(frame, aliases, explicit: bool) -> None:
    namespace = frame.f_locals
    namespace.pop(ENTRY_NAME, None)
    hook = _replaced_lazy_import(frame) if explicit else None
    for dotted, asname in aliases:
        if hook is not None:  # 3.15 calls it at each lazy statement
            value = hook(dotted, frame.f_globals, namespace, None, 0)
            if asname is not None:
                for attr in dotted.split('.')[1:]:
                    value = _project(value, attr, frame)
            _bind_value(namespace, asname or dotted.partition('.')[0], value)
            continue
        if not _lazy_here(frame, dotted, None, explicit):
            _eager(frame, f'import {dotted}' + (f' as {asname}' if asname else ''))
            continue
        if asname is None:
            top = dotted.partition('.')[0]
            lazy = _new_lazy(dotted, f'import {top} as v', frame.f_globals, frame,
                             submodule=dotted if top != dotted else None)
            bound = top
        else:
            lazy = _new_lazy(dotted, f'import {dotted} as v', frame.f_globals, frame)
            bound = asname
        if not _loaded(dotted):
            lazy_modules.add(dotted)
            if '.' in dotted:
                _attach_submodules(dotted, lazy)
        _bind(namespace, bound, lazy)


def _from(frame, module: str, level: int, aliases, explicit: bool) -> None:
    namespace = frame.f_locals
    namespace.pop(ENTRY_NAME, None)
    hook = _replaced_lazy_import(frame) if explicit else None
    if hook is not None:  # 3.15 calls it at each lazy statement
        value = hook(module, frame.f_globals, namespace, tuple(attr for attr, _ in aliases), level)
        for attr, asname in aliases:
            _bind_value(namespace, asname or attr, _project(value, attr, frame))
        return
    base = _absolute(module, level, frame.f_globals)
    names = ', '.join(attr + (f' as {asname}' if asname else '') for attr, asname in aliases)
    if not _lazy_here(frame, base, tuple(attr for attr, _ in aliases), explicit):
        _eager(frame, f"from {'.' * level}{module} import {names}")
        return
    loaded = sys.modules.get(base)
    if not _loaded(base):
        lazy_modules.add(base)
        if '.' in base:
            _attach_submodules(base, _new_lazy(base, '', frame.f_globals, frame))
    # 3.15 binds at once what an imported module's dict already has (never
    # its module __getattr__, which could read names still being resolved)
    loaded_dict = getattr(loaded, '__dict__', None) if loaded is not None else None
    for attr, asname in aliases:
        bound = asname or attr
        full = f'{base}.{attr}'
        if type(loaded_dict) is dict:
            value = loaded_dict.get(attr, _MISSING)
            if value is not _MISSING and type(value) is not LazyImportType:
                namespace[bound] = value
                continue
            if value is _MISSING and '__path__' in loaded_dict and \
                    sys.modules.get(full) is not None and not _initializing(loaded):
                # a submodule imported, then deleted from its package: 3.15
                # makes `pkg.sub` reach it again
                _attach(loaded, attr, full, _new_lazy(full, '', frame.f_globals, frame))
        lazy = _new_lazy(full, f"from {'.' * level}{module} import {attr} as v",
                         frame.f_globals, frame, base=base)
        if not _loaded(full):
            lazy_modules.add(full)
        _bind(namespace, bound, lazy)


def __lazy_import__(*args, **kwargs):
    """Lazily imports a module.

    Returns either the module to be imported or a imp.lazy_module object
    which indicates the module to be lazily imported."""
    return dunder_lazy_import(_getframe(1), args, kwargs)


_DUNDER_PARAMETERS = ('name', 'globals', 'locals', 'fromlist', 'level')
_CO_OPTIMIZED = 1  # inspect.CO_OPTIMIZED: a function's frame
_COMPREHENSIONS = ('<listcomp>', '<dictcomp>', '<setcomp>') if sys.version_info < (3, 12) else ()


def dunder_lazy_import(frame, args: tuple, kwargs: dict):
    """builtins.__lazy_import__ called from `frame`, with 3.15's checks and
    messages (the .pth's stub calls this too, until the runtime replaces it)"""
    if len(args) > 5:
        raise TypeError(f'__lazy_import__() takes at most 5 arguments ({len(args)} given)')
    bound = dict(zip(_DUNDER_PARAMETERS, args))
    for key, value in kwargs.items():
        if key not in _DUNDER_PARAMETERS:
            raise TypeError(f'__lazy_import__() got an unexpected keyword argument {key!r}')
        if key in bound:
            raise TypeError(f'argument for __lazy_import__() given by name ({key!r}) and position '
                            f'({_DUNDER_PARAMETERS.index(key) + 1})')
        bound[key] = value
    if 'name' not in bound:
        raise TypeError("__lazy_import__() missing required argument 'name' (pos 1)")
    name, globals_, locals_ = bound['name'], bound.get('globals'), bound.get('locals')
    fromlist, level = bound.get('fromlist'), _index(bound.get('level', 0))
    if not isinstance(name, str):
        raise TypeError(f'module name must be a string, got {type(name).__name__}')
    if level < 0:
        raise ValueError('level must be >= 0')
    if globals_ is not None and not isinstance(globals_, dict):
        raise TypeError(f'expect dict for globals, got {type(globals_).__name__}')
    if not name and level == 0:
        raise ValueError('Empty module name')
    if globals_ is None:
        globals_ = frame.f_globals
    base = _absolute(name, level, globals_)
    if not _at_module_level(frame):
        raise SyntaxError("'lazy import' is only allowed at module level")
    if fromlist is not None and not isinstance(fromlist, (str, tuple)):
        raise TypeError('lazy_import: fromlist must be None, a string, or a tuple')
    for item in fromlist if isinstance(fromlist, tuple) else ():
        if not isinstance(item, str):
            raise TypeError(f"Item in ``from list'' must be str, not {type(item).__name__}")
    names = (fromlist,) if isinstance(fromlist, str) else fromlist
    if not _lazy_here(frame, base, names or None, True):
        return __import__(name, globals_, locals_, fromlist or (), level)
    # resolved as 3.15 resolves it: one call of the __import__ of these
    # globals' builtins, with the fromlist as given (a str made a tuple)
    lazy = _new_lazy(base, f'v = __import__({base!r}, g, g, {names!r}, 0)', globals_, frame,
                     submodule=base if not names and '.' in base else None)
    if names:
        lazy._shown = base + '...'
    for module in (base, *(f'{base}.{item}' for item in names or ())):
        if not _loaded(module):
            lazy_modules.add(module)
    if '.' in base:
        _attach_submodules(base, lazy)
    _bind_where_stored(lazy, frame)
    return lazy


def _at_module_level(frame) -> bool:
    """is `frame` running a module's code (locals are globals), as 3.15 asks
    of a __lazy_import__ caller?  A list, dict or set comprehension counts
    as its caller, as 3.12+ runs it inline"""
    while frame.f_code.co_name in _COMPREHENSIONS:
        frame = frame.f_back
    code = frame.f_code
    if code.co_flags & _CO_OPTIMIZED:
        return False
    if frame.f_locals is frame.f_globals:
        return True
    # 3.12+, inside a comprehension run inline: f_locals is a copy (3.12) or
    # a proxy (3.13+) that adds the comprehension's variables, which are the
    # only variables a module's code has
    return sys.version_info >= (3, 12) and code.co_name == '<module>' and bool(code.co_varnames)


def _replaced_lazy_import(frame):
    """builtins.__lazy_import__ as `frame` sees it, when it is not ours (nor,
    on 3.15+, where only bytecode cached by 0.1 runs here, the interpreter's)"""
    builtins = frame.f_builtins
    hook = builtins.get('__lazy_import__') if type(builtins) is dict else \
        getattr(builtins, '__lazy_import__', None)
    if hook is None or hook is __lazy_import__ or hook is _PTH_LAZY_IMPORT or hook is _NATIVE_LAZY_IMPORT:
        return None
    return hook


def _bind_value(namespace, name: str, value) -> None:
    """bind what a replaced __lazy_import__ gave: a lazy object as a lazy binding"""
    if type(value) is LazyImportType:
        _bind(namespace, name, value)
    else:
        namespace[name] = value


def _project(value, attr: str, frame):
    """IMPORT_FROM on what a replaced __lazy_import__ gave"""
    if type(value) is LazyImportType:
        return _projection(value, attr, frame)
    return _import_from(value, attr)


def _absolute(module: str, level: int, globals_: dict) -> str:
    """the absolute name of a `from` import's module, as importlib finds it"""
    if level == 0:
        return module
    package = globals_.get('__package__')
    if package is None:
        spec = globals_.get('__spec__')
        if spec is not None:
            package = spec.parent
        else:
            package = globals_.get('__name__', '')
            if '__path__' not in globals_:
                package = package.rpartition('.')[0]
    if not package:
        raise ImportError('attempted relative import with no known parent package')
    bits = package.rsplit('.', level - 1)
    if len(bits) < level:
        raise ImportError('attempted relative import beyond top-level package')
    return f'{bits[0]}.{module}' if module else bits[0]


def syntax_error(msg: str, lineno: int, offset: int, end_lineno: int, end_offset: int,
                 text: 'str | None' = _MISSING) -> SyntaxError:
    """the SyntaxError 3.15's compiler raises, for the module that calls
    this; its source line is the file's, unless `text` is given"""
    frame = _getframe(1)
    frame.f_locals.pop(ENTRY_NAME, None)
    filename = frame.f_code.co_filename
    if text is _MISSING:
        import linecache
        text = linecache.getline(filename, lineno) or None
    details = (filename, lineno, offset, text)
    if sys.version_info >= (3, 10):
        return SyntaxError(msg, details + (end_lineno, end_offset))
    error = SyntaxError(msg, details)
    error.end_lineno, error.end_offset = end_lineno, end_offset  # (3.9's has no fields for them)
    return error


def entry_point(name: str):
    """the function rewritten code calls as `__lazy_codec_abi1__.<name>`"""
    return _fill_entry()[name]


def _fill_entry() -> dict:
    """every entry point put on the builtin entry object, so that rewritten
    code finds them there (no import statement: a replaced __import__ sees
    none); done when this module loads, whatever loads it"""
    entry = vars(sys.modules['builtins']).get(lazy_codec.ENTRY_NAME)
    functions = {point: globals()[point] for point in ENTRY_POINTS}
    if entry is not None:
        vars(entry).update(functions)
    return functions


def _install_api() -> None:
    """3.15's names for the feature, in place of the .pth's stubs"""
    if sys.version_info >= (3, 15):
        return  # the interpreter's own stand
    import builtins
    import types
    for name, value in (
        ('set_lazy_imports', set_lazy_imports), ('get_lazy_imports', get_lazy_imports),
        ('set_lazy_imports_filter', set_lazy_imports_filter),
        ('get_lazy_imports_filter', get_lazy_imports_filter),
    ):
        setattr(sys, name, value)
    types.LazyImportType = LazyImportType
    if vars(builtins).get('__lazy_import__', _PTH_LAZY_IMPORT) is _PTH_LAZY_IMPORT:
        builtins.__lazy_import__ = __lazy_import__  # (not one the program put there)


_fill_entry()
_install_api()
