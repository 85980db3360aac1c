"""What a frame's lookup of a lazy name is, read from its bytecode (the
decoder: lazy_codec.runtime.opcodes): a load (which reifies it, as on 3.15)
or a store, delete or peek (which leave it lazy); and where a value is
about to be stored (whether a loop iterates a module's dict: rebuilder).
Policy only: each answer is a table lookup on the instruction running, or on the
callee of the call running.
"""

import sys
from _operator import attrgetter

from lazy_codec.runtime.opcodes import (
    BINARY_SUBSCR,
    CALL_FUNCTION_EX,
    CALL_INTRINSIC_1,
    CALLS,
    CONTAINS_OP,
    IMPORT_STAR,
    LOAD_ATTR,
    LOAD_CONST,
    LOAD_GLOBAL,
    LOAD_METHOD,
    LOAD_NAME,
    LOCAL_LOADS,
    PSEUDO,
    PUSH_TWO,
    RETURN_VALUE,
    STORE_ATTR,
    STORE_GLOBAL,
    STORE_NAME,
    STORE_SUBSCR,
    UNBOUND,
    attribute_name,
    callee_instruction,
    current_offset,
    instruction_at,
    instruction_before,
    name_of,
    opcodes_named,
    producer,
    value_loaded,
)

# types.ModuleType and types.FrameType, without importing `types` (3.15's
# runtime does not; api._install_api gives it LazyImportType when it comes)
TYPE_CHECKING = False  # (mypy reads `if TYPE_CHECKING:` blocks as true)
if TYPE_CHECKING:
    from types import FrameType, ModuleType
else:
    ModuleType = type(sys)
    FrameType = type(sys._getframe())

# What lookup_kind answers: PEEK (falsy) leaves the binding lazy; LOAD and
# STDLIB_LOAD (truthy) resolve it, STDLIB_LOAD at one of the peeks that
# 3.15's own standard library made loads (see stdlib_site_loads)
PEEK, LOAD, STDLIB_LOAD = 0, 1, 2

# the instructions that load a name (pseudo-instructions included, as
# opcode.opmap has them: never in co_code)
LOAD_OPNAMES = (
    'LOAD_NAME',
    'LOAD_GLOBAL',
    'LOAD_FROM_DICT_OR_GLOBALS',
    'LOAD_ATTR',
    'LOAD_METHOD',
    'IMPORT_FROM',
    'IMPORT_STAR',
)
LOADS = opcodes_named(LOAD_OPNAMES) | {PSEUDO[name] for name in PSEUDO if name in LOAD_OPNAMES}
# fmt: off
# What a lookup under these instructions does is dict-level (a subscript,
# `in`, a comparison, a dict or set display), a store or a delete: never a
# load, on 3.15 either.  Any other instruction is a load (see lookup_kind).
_PEEKS = opcodes_named((
    'BINARY_SUBSCR', 'BINARY_OP', 'STORE_SUBSCR', 'DELETE_SUBSCR', 'CONTAINS_OP', 'COMPARE_OP',
    'IS_OP',
    'STORE_NAME', 'STORE_GLOBAL', 'STORE_ATTR', 'STORE_FAST', 'STORE_DEREF',
    'DELETE_NAME', 'DELETE_GLOBAL', 'DELETE_ATTR', 'DELETE_FAST',
    'MAP_ADD', 'SET_ADD', 'LIST_APPEND', 'DICT_UPDATE', 'DICT_MERGE',
    'BUILD_MAP', 'BUILD_SET', 'BUILD_CONST_KEY_MAP',
    'BINARY_AND', 'BINARY_OR', 'BINARY_XOR', 'BINARY_SUBTRACT',  # (set operators)
    'INPLACE_AND', 'INPLACE_OR', 'INPLACE_XOR', 'INPLACE_SUBTRACT',
    'COPY_DICT_WITHOUT_KEYS', 'MATCH_KEYS', 'MATCH_MAPPING',
))
# fmt: on
# (not UNPACK_SEQUENCE, UNPACK_EX, LIST_EXTEND, SET_UPDATE: `a, b = it`,
# `[*it]`, `{*it}` look no key up themselves; a lookup under them is their
# iterator's, a C caller such as map over getattr, which 3.15 resolves.
# `x in it` is a peek unless `it` is one of the iterators that call a
# function per item (tests_calling_iterator): `'x' in globals()` is a peek)
# the peeks whose result is the value found: a subscript (3.14: BINARY_OP 26)
_SUBSCRIPTS = opcodes_named(('BINARY_SUBSCR', 'BINARY_OP'))
# the peeks where a lazy key's compare only answers "equal": lookup_kind
# says PEEK, hands_value_out says no (the C accelerator answers them itself)
PLAIN_PEEKS = _PEEKS - _SUBSCRIPTS
# the loads whose name is looked up in the frame's own namespaces
NAME_LOADS = frozenset((LOAD_GLOBAL, LOAD_NAME))
# the loads of an attribute (which a module's __getattr__ may answer)
ATTRIBUTE_LOADS = opcodes_named(('LOAD_ATTR', 'LOAD_METHOD', 'IMPORT_FROM'))
_MISSING = object()

# Callees that read attributes (getattr however reached) and those that only
# peek or store (a dict's methods, setattr): a call's lookup is a load unless
# its callee is provably of the second kind (see _call_loads)
_ATTRIBUTE_GETTERS = (getattr, hasattr, ModuleType.__getattribute__, object.__getattribute__)
_GETTER_NAMES = frozenset(('getattr', 'hasattr', '__getattribute__'))
_SETTERS = (
    setattr,
    delattr,
    object.__setattr__,
    object.__delattr__,
    ModuleType.__setattr__,
    ModuleType.__delattr__,
)
# fmt: off
_PEEK_METHOD_NAMES = frozenset((
    'get', 'pop', 'setdefault', 'popitem', 'update', 'copy', 'keys', 'values', 'items', 'fromkeys',
    '__getitem__', '__contains__', '__setitem__', '__delitem__', '__eq__', '__ne__',
    'index', 'count', 'remove', 'discard', 'add',
    'union', 'intersection', 'difference', 'issubset', 'issuperset', 'isdisjoint',
    'symmetric_difference', '__or__', '__ior__', '__and__', '__sub__',
    'setattr', 'delattr', '__setattr__', '__delattr__',
    # operator's container functions, as `operator.getitem(d, k)` calls them
    'getitem', 'contains', 'setitem', 'delitem', 'countOf', 'indexOf',
))
# fmt: on
# the peeks that hand the value found out (which may be stored and come back)
_HANDING_OUT_NAMES = frozenset(('get', 'pop', 'setdefault', '__getitem__'))
_PEEK_OPERATORS = frozenset(
    ('getitem', 'contains', 'setitem', 'delitem', 'eq', 'ne', 'countOf', 'indexOf', 'is_', 'is_not')
)
_PEEKING_SELVES = (dict, set, frozenset, list, tuple, type(ModuleType.__dict__))

# the iterators that call a function of the program's for each item they
# hand out (map over getattr, filter over hasattr): a lookup made while `in`
# tests one is that function's, a load.  By (module, name): itertools is not
# imported for them.
_CALLING_ITERATORS = frozenset(
    (('builtins', 'map'), ('builtins', 'filter'))
    + tuple(
        ('itertools', name)
        for name in ('starmap', 'filterfalse', 'takewhile', 'dropwhile', 'accumulate', 'groupby')
    )
)
# the instructions before CONTAINS_OP that push what `in` tests, whose value
# tests_calling_iterator can read: a call's callee, a variable
CONTAINER_PRODUCERS = frozenset(CALLS) | NAME_LOADS | LOCAL_LOADS | PUSH_TWO

# code names of the comprehensions that run as functions given their
# iterator as `.0` (3.12+ runs list, dict and set comprehensions inline)
COMPREHENSIONS = ('<listcomp>', '<dictcomp>', '<setcomp>') if sys.version_info < (3, 12) else ()
_CO_OPTIMIZED = 1  # inspect.CO_OPTIMIZED: a function's frame


def lookup_kind(frame, load_ops: frozenset = LOADS) -> int:
    """what the lookup `frame` is making is: LOAD, PEEK (a store, a delete,
    a peek) or STDLIB_LOAD.

    As on 3.15, a lookup is a load unless it is provably dict-level access
    (a subscript, `in`, `dict.get`, ...), a store or a delete: a load
    instruction, a call whose callee is not a dict's method nor setattr (C
    code between the frame and the lookup: getattr through functools.reduce,
    an unpickler, an extension's initialisation), an import.  Where it cannot
    tell, it answers LOAD: an import made early is a timing difference,
    an unresolved object handed to real code is a crash.  (With `load_ops`
    other than LOADS: LOAD only for those and for a call it reads as getattr.)"""
    lasti = current_offset(frame)
    if lasti < 0:
        return PEEK
    code = frame.f_code.co_code
    op = code[lasti]
    if op in load_ops:
        return LOAD
    if op == CALL_INTRINSIC_1:  # 3.12+: `from m import *` is intrinsic 2
        return LOAD if code[lasti + 1] == 2 else PEEK
    every_load = load_ops is LOADS
    if op in CALLS or op == CALL_FUNCTION_EX:
        if _call_loads(frame, lasti, every_load):
            return LOAD
        return STDLIB_LOAD if every_load and stdlib_site_loads(frame) else PEEK
    if op in _PEEKS:
        if op == CONTAINS_OP:
            return LOAD if every_load and tests_calling_iterator(frame, lasti) else PEEK
        return STDLIB_LOAD if every_load and op in _SUBSCRIPTS and stdlib_site_loads(frame) else PEEK
    return LOAD if every_load else PEEK


_STAR_ONLY = frozenset((IMPORT_STAR,))


def reads_key(frame) -> bool:
    """is `frame` reading an attribute by a key object: `import *`, getattr?
    (only where that is certain: sets and dicts of `dir(m)` hash keys too)"""
    return lookup_kind(frame, _STAR_ONLY) == LOAD


def is_star_import(frame) -> bool:
    """is `frame` running `from m import *`?"""
    lasti = current_offset(frame)
    code = frame.f_code.co_code
    return code[lasti] == IMPORT_STAR or (code[lasti] == CALL_INTRINSIC_1 and code[lasti + 1] == 2)


def hands_value_out(frame) -> bool:
    """is the peek `frame` is running one whose result is the value found
    (`d[k]`, `d.get(k)`), which may be stored elsewhere and come back?"""
    lasti = current_offset(frame)
    if lasti < 0:
        return False
    co_code = frame.f_code.co_code
    op = co_code[lasti]
    if op in _SUBSCRIPTS:
        return op == BINARY_SUBSCR or co_code[lasti + 1] == _NB_SUBSCR
    if op in CALLS:
        found = callee_instruction(frame.f_code, lasti)
        return (
            found is not None
            and found[0] in (LOAD_ATTR, LOAD_METHOD)
            and attribute_name(frame.f_code, found[0], found[1]) in _HANDING_OUT_NAMES
        )
    return False


_NB_SUBSCR = 26  # BINARY_OP's argument for a subscript (3.14+)


def stdlib_site_loads(frame) -> bool:
    """is `frame` one of the peeks at a module's dict that 3.15's own standard
    library made loads, where 3.9-3.14's hand the lazy object on?
    annotationlib's ForwardRef.evaluate (3.14) reads `globals[name]` and
    resolves it; dataclasses' _is_type looks the names of string annotations
    up (3.15 resolves them, ignoring those that fail: see ignores_errors);
    mock's patch with autospec, spec=True or spec_set=True resolves the
    original it saves (without, mock saves and restores the lazy object)"""
    code = frame.f_code
    name = code.co_name
    if name == 'evaluate':
        return frame.f_globals.get('__name__') == 'annotationlib'
    if name == '_is_type':
        return frame.f_globals.get('__name__') == 'dataclasses'
    if name == 'get_original' and frame.f_globals.get('__name__') == 'unittest.mock':
        patch = frame.f_locals.get('self')
        return (
            getattr(patch, 'autospec', None) is True
            or getattr(patch, 'spec', None) is True
            or getattr(patch, 'spec_set', None) is True
        )
    return False


def ignores_errors(frame) -> bool:
    """does the stdlib site `frame` runs ignore a lazy import that fails (3.15's dataclasses)?"""
    return frame.f_code.co_name == '_is_type'


def copies_read(frame) -> tuple:
    """the copies of a module's dict that the stdlib site `frame` runs reads
    (3.14's annotationlib evaluates in a copy of the globals)"""
    if frame.f_code.co_name != 'evaluate':
        return ()
    f_locals = frame.f_locals
    return tuple(d for d in (f_locals.get('locals'), f_locals.get('globals')) if type(d) is dict)


def callee_name(frame, lasti: int = -1) -> 'str | None':
    """the name of the callee of the call `frame` is making (at `lasti`, if
    given), as it was loaded (a global or builtin, an attribute, a method),
    or None"""
    code = frame.f_code
    if lasti < 0:
        lasti = current_offset(frame)
    if code.co_code[lasti] not in CALLS:
        return None
    found = callee_instruction(code, lasti)
    if found is None:
        return None
    op, arg = found
    if op == LOAD_ATTR or op == LOAD_METHOD:
        return attribute_name(code, op, arg)
    if op == LOAD_GLOBAL or op == LOAD_NAME:
        return name_of(code, op, arg)
    return None


def _call_loads(frame, lasti: int, unless_peek: bool = True) -> bool:
    """is the lookup made inside the call at `lasti` a load?  With
    `unless_peek`, yes unless the callee is provably a dict's method, an
    operator on containers, or setattr/delattr (which store); else only when
    it is provably getattr, hasattr or attrgetter(...)"""
    code = frame.f_code
    found = callee_instruction(code, lasti)
    if found is None:
        return unless_peek
    op, arg = found
    if op == LOAD_ATTR or op == LOAD_METHOD:
        name = attribute_name(code, op, arg)
        if name in _GETTER_NAMES:
            return True
        return unless_peek and name not in _PEEK_METHOD_NAMES
    callee = value_loaded(frame, op, arg)
    if callee is UNBOUND:
        # the result of a call (attrgetter('x')(m)), a subscript, ...
        return unless_peek
    if any(callee is getter for getter in _ATTRIBUTE_GETTERS) or type(callee) is attrgetter:
        return True
    return unless_peek and not _peeks(callee)


def tests_calling_iterator(frame, lasti: int) -> bool:
    """is the `in` at `lasti` testing an iterator that calls a function for
    each item (_CALLING_ITERATORS: `x in map(getattr, ...)`)?  Read off the
    instruction that pushed it: a call of one of their types, or a variable
    that holds one; anything else (a dict, its keys, an attribute) is not."""
    code = frame.f_code
    found = instruction_before(code.co_code, lasti)
    if found is None or found[1] not in CONTAINER_PRODUCERS:
        return False
    offset, op, arg = found
    if op in CALLS:
        callee = callee_instruction(code, offset)
        if callee is None:
            return False
        made = value_loaded(frame, *callee)
        return isinstance(made, type) and (made.__module__, made.__name__) in _CALLING_ITERATORS
    tested = type(value_loaded(frame, op, arg))
    return (tested.__module__, tested.__name__) in _CALLING_ITERATORS


def _peeks(callee) -> bool:
    """is `callee` a function that looks keys up only at dict level or
    stores: setattr, a container's method (bound or not), operator.getitem?"""
    if any(callee is setter for setter in _SETTERS):
        return True
    owner = getattr(callee, '__self__', None) if type(callee) is _BUILTIN_METHOD else None
    if owner is not None:
        if type(owner) is ModuleType:  # a module's function: operator.getitem, ...
            return owner.__name__ in ('_operator', 'operator') and callee.__name__ in _PEEK_OPERATORS
        return isinstance(owner, _PEEKING_SELVES)
    objclass = getattr(callee, '__objclass__', None) if type(callee) in _DESCRIPTORS else None
    return objclass is not None and issubclass(objclass, _PEEKING_SELVES)


_BUILTIN_METHOD = type(len)
_DESCRIPTORS = (type(dict.get), type(dict.__getitem__), type(dict.__contains__))


def _lookup(frame, op: int, name: str):
    """(namespace, value) where LOAD_NAME or LOAD_GLOBAL finds `name`, by peeks
    (dict.get reifies nothing); (None, None) when it finds nothing"""
    spaces = (frame.f_locals, frame.f_globals) if op == LOAD_NAME else (frame.f_globals,)
    for namespace in spaces + (frame.f_builtins,):
        if type(namespace) is dict:
            value = namespace.get(name, _MISSING)
            if value is not _MISSING:
                return namespace, value
    return None, None


def name_loaded_for_attribute(frame):
    """(namespace, name, value) of the name that `frame` loaded just before
    the attribute access it is running (`alias.attr`), by peeks; None when
    the object whose attribute is asked for was not loaded so
    (`globals()['x'].y`)"""
    lasti = current_offset(frame)
    co_code = frame.f_code.co_code
    if lasti < 0 or co_code[lasti] not in (LOAD_ATTR, LOAD_METHOD):
        return None
    found = instruction_before(co_code, lasti)
    if found is None or found[1] not in NAME_LOADS:
        return None
    name = name_of(frame.f_code, found[1], found[2])
    return (name,) + _lookup(frame, found[1], name)


def store_after_call(frame):
    """(namespace, name) where the call `frame` is running stores its result:
    `x = f(...)` at module level (the frame's locals) or `mod.x = f(...)` for
    a module `mod` whose attributes are its dict; None for anything else"""
    return store_after(frame, any_locals=True)


def store_after(frame, any_locals: bool = False):
    """(namespace, name) of a module global where the value that the
    instruction `frame` is running gives is stored next: `x = ...` at module
    level (with `any_locals`, in any frame's locals), `global x; x = ...`,
    `mod.x = ...` and `setattr(mod, 'x', ...)` for a module `mod` whose
    attributes are its dict, `d['x'] = ...` for a dict `d` (eval's or exec's
    globals to be); None for anything else"""
    lasti = current_offset(frame)
    if lasti < 0:
        return None
    code = frame.f_code
    co_code = code.co_code
    following = instruction_at(co_code, lasti)[2]
    if following >= len(co_code):
        return None
    op, arg, after = instruction_at(co_code, following)
    if op in CALLS and co_code[following] == op:
        return _setattr_store(frame, following, arg) if CALLS[op] == 0 and arg == 3 else None
    if op == STORE_NAME:
        if any_locals or frame.f_locals is frame.f_globals:
            return frame.f_locals, code.co_names[arg]
        return None
    if op == STORE_GLOBAL:
        return frame.f_globals, code.co_names[arg]
    if op in _SUBSCRIPT_OWNERS and after < len(co_code):
        store, attr, after = instruction_at(co_code, after)
        if store == LOAD_CONST and after < len(co_code) and instruction_at(co_code, after)[0] == STORE_SUBSCR:
            return _subscript_store(frame, op, arg, code.co_consts[attr])
        if store != STORE_ATTR or op not in NAME_LOADS:
            return None
        owner = _lookup(frame, op, name_of(code, op, arg))[1]
        if not isinstance(owner, ModuleType) or type(owner).__setattr__ is not ModuleType.__setattr__:
            return None
        return vars(owner), code.co_names[attr]
    return None


# what the dict of a subscript store (`d['x'] = value`) may be loaded by
_SUBSCRIPT_OWNERS = NAME_LOADS | opcodes_named(('LOAD_FAST', 'LOAD_FAST_CHECK', 'LOAD_FAST_BORROW'))


def _subscript_store(frame, op: int, arg: int, name):
    """(the dict, `name`) of `d[name] = value`, `d` an exact dict loaded by
    `op` `arg` (found by peeks), or None"""
    if type(name) is not str:
        return None
    code = frame.f_code
    if op in NAME_LOADS:
        owner = _lookup(frame, op, name_of(code, op, arg))[1]
    elif arg < len(code.co_varnames):
        owner = frame.f_locals.get(code.co_varnames[arg])
    else:
        return None
    return (owner, name) if type(owner) is dict else None


def _setattr_store(frame, call: int, argc: int):
    """(the dict of module `mod`, 'x') for `setattr(mod, 'x', value)` at
    `call`, whose last argument is the value; None for any other call"""
    code = frame.f_code
    callee = callee_instruction(code, call)
    if callee is None or callee[0] not in NAME_LOADS:
        return None
    if _lookup(frame, callee[0], name_of(code, callee[0], callee[1]))[1] is not setattr:
        return None
    co_code = code.co_code
    name, owner = producer(co_code, call, argc - 1), producer(co_code, call, argc)
    if name is None or name[0] != LOAD_CONST or owner is None or owner[0] not in NAME_LOADS:
        return None
    attr = code.co_consts[name[1]]
    module = _lookup(frame, owner[0], name_of(code, owner[0], owner[1]))[1]
    if type(attr) is not str or not isinstance(module, ModuleType):
        return None
    return (vars(module), attr) if type(module).__setattr__ is ModuleType.__setattr__ else None


def returned_to(frame):
    """the caller frame that the value the instruction `frame` is running
    gives is returned to (`return globals()[name]` in a module __getattr__,
    `return super().__getitem__(name)` in a mapping's), or None when the
    next instruction is not a return"""
    lasti = current_offset(frame)
    if lasti < 0:
        return None
    co_code = frame.f_code.co_code
    after = instruction_at(co_code, lasti)[2]
    if after >= len(co_code) or instruction_at(co_code, after)[0] != RETURN_VALUE:
        return None
    return frame.f_back


# what a for loop's iterable may be made with when it iterates a module dict
# (rebuilder.in_dict_loop; the accelerator's code_may_iterate_dicts)
DICT_ITERATION_NAMES = frozenset(('items', 'keys', 'values', 'globals', 'vars', '__dict__'))


def at_module_level(frame) -> bool:
    """is `frame` running a module's code (locals are globals), as 3.15 asks
    of a __lazy_import__ caller?  A list, dict or set comprehension counts
    as its caller, as 3.12+ runs it inline"""
    while frame.f_code.co_name in COMPREHENSIONS:
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
