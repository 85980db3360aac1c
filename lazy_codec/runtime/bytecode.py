"""What a frame is doing, read from its bytecode: whether the lookup of a lazy
name is a load (which reifies it, as on 3.15) or a store, delete or peek
(which leave it lazy), where a value is about to be stored, and whether a for
loop may be iterating a module's dict.

Every question is answered from `frame.f_code.co_code` and `f_lasti` by
table lookups, never by importing `dis` or `opcode` (two more imports at the
first lazy statement, and an import inside a dict lookup would run lazy
statements in mode "all").
"""

import sys
from _operator import attrgetter
from types import FrameType, ModuleType

# opcodes that load a name: those of opcode.opmap named in LOAD_OPNAMES, by
# version (asserted by tests/test_runtime.py).  Imported only for a version
# not listed, and then here, when the runtime loads, never inside a lookup.
LOAD_OPNAMES = (
    'LOAD_NAME',
    'LOAD_GLOBAL',
    'LOAD_FROM_DICT_OR_GLOBALS',
    'LOAD_ATTR',
    'LOAD_METHOD',
    'IMPORT_FROM',
    'IMPORT_STAR',
)
# fmt: off
LOAD_OPS = {
    (3, 9): (84, 101, 106, 109, 116, 160),
    (3, 10): (84, 101, 106, 109, 116, 160),
    (3, 11): (84, 101, 106, 109, 116, 160),
    (3, 12): (101, 106, 109, 116, 175, 262),
    (3, 13): (74, 82, 90, 91, 92, 259),
    (3, 14): (72, 80, 91, 92, 93),
}
# fmt: on


def _opcodes_that_load() -> frozenset:
    if sys.version_info[:2] in LOAD_OPS:
        return frozenset(LOAD_OPS[sys.version_info[:2]])
    from opcode import opmap

    return frozenset(opmap[name] for name in LOAD_OPNAMES if name in opmap)


LOADS = _opcodes_that_load()

# fmt: off
# Opcodes that reading a call site and a lookup needs, by version (asserted by
# tests/test_runtime.py against opcode.opmap).  -1: not in that version.
CALL_OPNAMES = (
    'EXTENDED_ARG', 'CALL', 'CALL_FUNCTION', 'CALL_METHOD', 'CALL_FUNCTION_KW', 'CALL_KW',
    'PRECALL', 'KW_NAMES', 'PUSH_NULL', 'LOAD_ATTR', 'LOAD_METHOD', 'LOAD_GLOBAL', 'LOAD_NAME',
    'LOAD_FAST', 'LOAD_DEREF', 'LOAD_CONST', 'LOAD_FAST_CHECK', 'LOAD_FAST_BORROW',
    'LOAD_FAST_LOAD_FAST', 'LOAD_FAST_BORROW_LOAD_FAST_BORROW', 'LOAD_SMALL_INT', 'LOAD_CLOSURE',
    'LOAD_CLASSDEREF', 'BINARY_SUBSCR', 'IMPORT_STAR', 'NOP', 'CALL_INTRINSIC_1', 'STORE_NAME',
    'STORE_ATTR', 'FOR_ITER', 'NOT_TAKEN', 'CALL_FUNCTION_EX', 'BINARY_OP', 'STORE_GLOBAL',
    'DELETE_NAME', 'DELETE_GLOBAL', 'DELETE_ATTR', 'STORE_SUBSCR', 'DELETE_SUBSCR', 'CONTAINS_OP',
    'COMPARE_OP', 'IS_OP', 'STORE_FAST', 'STORE_DEREF', 'DELETE_FAST', 'MAP_ADD', 'SET_ADD',
    'LIST_APPEND', 'DICT_UPDATE', 'DICT_MERGE', 'SET_UPDATE', 'LIST_EXTEND', 'BUILD_MAP',
    'BUILD_SET', 'BUILD_CONST_KEY_MAP', 'BINARY_ADD', 'BINARY_SUBTRACT', 'BINARY_MULTIPLY',
    'BINARY_TRUE_DIVIDE', 'BINARY_FLOOR_DIVIDE', 'BINARY_MODULO', 'BINARY_POWER', 'BINARY_LSHIFT',
    'BINARY_RSHIFT', 'BINARY_AND', 'BINARY_OR', 'BINARY_XOR', 'BINARY_MATRIX_MULTIPLY',
    'BINARY_SLICE', 'INPLACE_AND', 'INPLACE_OR', 'INPLACE_XOR', 'INPLACE_SUBTRACT',
    'UNARY_NEGATIVE', 'UNARY_NOT', 'UNARY_INVERT', 'UNARY_POSITIVE', 'BUILD_TUPLE', 'BUILD_LIST',
    'BUILD_STRING', 'BUILD_SLICE', 'FORMAT_VALUE', 'FORMAT_SIMPLE', 'FORMAT_WITH_SPEC',
    'CONVERT_VALUE', 'LIST_TO_TUPLE', 'TO_BOOL', 'COPY', 'GET_ITER', 'GET_LEN',
    'LOAD_ASSERTION_ERROR', 'LOAD_COMMON_CONSTANT', 'UNPACK_SEQUENCE', 'UNPACK_EX',
    'COPY_DICT_WITHOUT_KEYS', 'MATCH_KEYS', 'MATCH_MAPPING',
)
CALL_OPS = {
    (3, 9): (
        144, -1, 131, 161, 141, -1, -1, -1, -1, 106, 160, 116, 101, 124, 136, 100, -1, -1, -1, -1,
        -1, 135, 148, 25, 84, 9, -1, 90, 95, 93, -1, 142, -1, 97, 91, 98, 96, 60, 61, 118, 107,
        117, 125, 137, 126, 147, 146, 145, 165, 164, 163, 162, 105, 104, 156, 23, 24, 20, 27, 26,
        22, 19, 62, 63, 64, 66, 65, 16, -1, 77, 79, 78, 56, 11, 12, 15, 10, 102, 103, 157, 133,
        155, -1, -1, -1, 82, -1, -1, 68, -1, 74, -1, 92, 94, -1, -1, -1,
    ),
    (3, 10): (
        144, -1, 131, 161, 141, -1, -1, -1, -1, 106, 160, 116, 101, 124, 136, 100, -1, -1, -1, -1,
        -1, 135, 148, 25, 84, 9, -1, 90, 95, 93, -1, 142, -1, 97, 91, 98, 96, 60, 61, 118, 107,
        117, 125, 137, 126, 147, 146, 145, 165, 164, 163, 162, 105, 104, 156, 23, 24, 20, 27, 26,
        22, 19, 62, 63, 64, 66, 65, 16, -1, 77, 79, 78, 56, 11, 12, 15, 10, 102, 103, 157, 133,
        155, -1, -1, -1, 82, -1, -1, 68, 30, 74, -1, 92, 94, 34, 33, 31,
    ),
    (3, 11): (
        144, 171, -1, -1, -1, -1, 166, 172, 2, 106, 160, 116, 101, 124, 137, 100, -1, -1, -1, -1,
        -1, 136, 148, 25, 84, 9, -1, 90, 95, 93, -1, 142, 122, 97, 91, 98, 96, 60, 61, 118, 107,
        117, 125, 138, 126, 147, 146, 145, 165, 164, 163, 162, 105, 104, 156, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 11, 12, 15, 10, 102, 103, 157, 133,
        155, -1, -1, -1, 82, -1, 120, 68, 30, 74, -1, 92, 94, -1, 33, 31,
    ),
    (3, 12): (
        144, 171, -1, -1, -1, -1, -1, 172, 2, 106, -1, 116, 101, 124, 137, 100, 127, -1, -1, -1,
        -1, 136, -1, 25, -1, 9, 173, 90, 95, 93, -1, 142, 122, 97, 91, 98, 96, 60, 61, 118, 107,
        117, 125, 138, 126, 147, 146, 145, 165, 164, 163, 162, 105, 104, 156, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, 26, -1, -1, -1, -1, 11, 12, 15, -1, 102, 103, 157, 133,
        155, -1, -1, -1, -1, -1, 120, 68, 30, 74, -1, 92, 94, -1, 33, 31,
    ),
    (3, 13): (
        71, 53, -1, -1, -1, 57, -1, -1, 34, 82, -1, 91, 92, 85, 84, 83, 87, -1, 88, -1, -1, -1, -1,
        5, -1, 30, 55, 114, 108, 72, -1, 54, 45, 113, 67, 66, 63, 39, 9, 59, 58, 76, 110, 109, 65,
        95, 105, 80, 69, 68, 107, 81, 48, 49, 46, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, 4, -1, -1, -1, -1, 42, 43, 41, -1, 52, 47, 51, 50, -1, 14, 15, 60, -1, 40, 61, 19, 20,
        23, -1, 117, 116, -1, 27, 28,
    ),
    (3, 14): (
        69, 52, -1, -1, -1, 55, -1, -1, 33, 80, -1, 92, 93, 84, 83, 82, 88, 86, 89, 87, 94, -1, -1,
        -1, -1, 27, 53, 116, 110, 70, 28, 4, 44, 115, 65, 64, 61, 38, 8, 57, 56, 74, 112, 111, 63,
        98, 107, 78, 67, 66, 109, 79, 47, 48, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, 1, -1, -1, -1, -1, 41, 42, 40, -1, 51, 46, 50, 49, -1, 12, 13, 58, -1, 39, 59, 16, 18,
        -1, 81, 119, 118, -1, 24, 25,
    ),
}
# fmt: on


def _call_opcodes() -> dict:
    numbers: tuple[int, ...] | None = CALL_OPS.get(sys.version_info[:2])
    if numbers is None:
        from opcode import opmap

        numbers = tuple(opmap.get(name, -1) if opmap.get(name, 256) < 256 else -1 for name in CALL_OPNAMES)
    return {name: number for name, number in zip(CALL_OPNAMES, numbers) if number >= 0}


_op = _call_opcodes()
EXTENDED_ARG = _op['EXTENDED_ARG']
IMPORT_STAR = _op.get('IMPORT_STAR', -1)
_CALL_INTRINSIC_1 = _op.get('CALL_INTRINSIC_1', -1)  # 3.12+: `import *` is intrinsic 2
# a call's opcode -> how many stack items above its callee are not arguments
# (3.11's PRECALL: its specialized forms call builtins themselves)
_CALLS = {
    _op[name]: extra
    for name, extra in (
        ('CALL', 0),
        ('CALL_FUNCTION', 0),
        ('CALL_METHOD', 0),
        ('CALL_FUNCTION_KW', 1),
        ('CALL_KW', 1),
        ('PRECALL', 0),
    )
    if name in _op
}
_CALL_FUNCTION_EX = _op['CALL_FUNCTION_EX']  # f(*args, **kwargs): its callee is not read
_SPLIT_CALL = _op.get('PRECALL', -1) >= 0  # 3.11: PRECALL n then CALL n, one call
_NOTHING = frozenset(
    _op[name] for name in ('PRECALL', 'KW_NAMES', 'NOP', 'EXTENDED_ARG', 'NOT_TAKEN') if name in _op
)
_PUSH_ONE = frozenset(
    _op[name]
    for name in (
        'LOAD_NAME',
        'LOAD_FAST',
        'LOAD_DEREF',
        'LOAD_CONST',
        'LOAD_FAST_CHECK',
        'LOAD_FAST_BORROW',
        'LOAD_SMALL_INT',
        'LOAD_CLOSURE',
        'LOAD_CLASSDEREF',
        'PUSH_NULL',
    )
    if name in _op
)
_PUSH_TWO = frozenset(
    _op[name] for name in ('LOAD_FAST_LOAD_FAST', 'LOAD_FAST_BORROW_LOAD_FAST_BORROW') if name in _op
)
# instructions that leave exactly one value, what they pop being their stack
# effect's complement: what an argument expression is commonly made of
_ONE_VALUE = frozenset(
    _op[name]
    for name in (
        'CALL',
        'CALL_FUNCTION',
        'CALL_METHOD',
        'CALL_FUNCTION_KW',
        'CALL_KW',
        'CALL_FUNCTION_EX',
        'BINARY_OP',
        'BINARY_SUBSCR',
        'BINARY_ADD',
        'BINARY_SUBTRACT',
        'BINARY_MULTIPLY',
        'BINARY_TRUE_DIVIDE',
        'BINARY_FLOOR_DIVIDE',
        'BINARY_MODULO',
        'BINARY_POWER',
        'BINARY_LSHIFT',
        'BINARY_RSHIFT',
        'BINARY_AND',
        'BINARY_OR',
        'BINARY_XOR',
        'BINARY_MATRIX_MULTIPLY',
        'BINARY_SLICE',
        'UNARY_NEGATIVE',
        'UNARY_NOT',
        'UNARY_INVERT',
        'UNARY_POSITIVE',
        'COMPARE_OP',
        'CONTAINS_OP',
        'IS_OP',
        'BUILD_TUPLE',
        'BUILD_LIST',
        'BUILD_SET',
        'BUILD_MAP',
        'BUILD_CONST_KEY_MAP',
        'BUILD_STRING',
        'BUILD_SLICE',
        'FORMAT_VALUE',
        'FORMAT_SIMPLE',
        'FORMAT_WITH_SPEC',
        'CONVERT_VALUE',
        'LIST_TO_TUPLE',
        'TO_BOOL',
        'COPY',
        'GET_LEN',
        'LOAD_ASSERTION_ERROR',
        'LOAD_COMMON_CONSTANT',
    )
    if name in _op
)
# What a lookup under these instructions does is dict-level (a subscript,
# `in`, a comparison, a dict or set display), a store or a delete: never a
# load, on 3.15 either.  Any other instruction is a load (see is_loading).
_PEEKS = frozenset(
    _op[name]
    for name in (
        'BINARY_SUBSCR',
        'BINARY_OP',
        'STORE_SUBSCR',
        'DELETE_SUBSCR',
        'CONTAINS_OP',
        'COMPARE_OP',
        'IS_OP',
        'STORE_NAME',
        'STORE_GLOBAL',
        'STORE_ATTR',
        'STORE_FAST',
        'STORE_DEREF',
        'DELETE_NAME',
        'DELETE_GLOBAL',
        'DELETE_ATTR',
        'DELETE_FAST',
        'MAP_ADD',
        'SET_ADD',
        'LIST_APPEND',
        'DICT_UPDATE',
        'DICT_MERGE',
        'SET_UPDATE',
        'LIST_EXTEND',
        'BUILD_MAP',
        'BUILD_SET',
        'BUILD_CONST_KEY_MAP',
        'BINARY_AND',
        'BINARY_OR',
        'BINARY_XOR',
        'BINARY_SUBTRACT',
        'INPLACE_AND',
        'INPLACE_OR',
        'INPLACE_XOR',
        'INPLACE_SUBTRACT',
        'UNPACK_SEQUENCE',
        'UNPACK_EX',
        'COPY_DICT_WITHOUT_KEYS',
        'MATCH_KEYS',
        'MATCH_MAPPING',
    )
    if name in _op
)
# the peeks whose result is the value found: a subscript (3.14: BINARY_OP 26)
_SUBSCRIPTS = frozenset(_op[name] for name in ('BINARY_SUBSCR', 'BINARY_OP') if name in _op)
# the peeks where a lazy key's compare only answers "equal": is_loading says
# no, hands_value_out says no (the C accelerator answers them itself)
PLAIN_PEEKS = _PEEKS - _SUBSCRIPTS
_LOAD_GLOBAL, _LOAD_NAME, _LOAD_ATTR = _op['LOAD_GLOBAL'], _op['LOAD_NAME'], _op['LOAD_ATTR']
_LOAD_METHOD, _PUSH_NULL = _op.get('LOAD_METHOD', -1), _op.get('PUSH_NULL', -1)
_STORE_NAME, _STORE_ATTR, _STORE_GLOBAL = _op['STORE_NAME'], _op['STORE_ATTR'], _op['STORE_GLOBAL']
_BINARY_SUBSCR = _op.get('BINARY_SUBSCR', -1)
_FOR_ITER = _op['FOR_ITER']
_LOCAL_LOADS = frozenset(
    _op[name]
    for name in ('LOAD_FAST', 'LOAD_DEREF', 'LOAD_FAST_CHECK', 'LOAD_FAST_BORROW', 'LOAD_CLASSDEREF')
    if name in _op
)
_DEREF_LOADS = frozenset(_op[name] for name in ('LOAD_DEREF', 'LOAD_CLASSDEREF') if name in _op)
# the loads whose name is looked up in the frame's own namespaces
NAME_LOADS = frozenset((_LOAD_GLOBAL, _LOAD_NAME))
_WIDE_GLOBALS = sys.version_info >= (3, 11)  # LOAD_GLOBAL's low bit: push NULL too
_WIDE_ATTRS = sys.version_info >= (3, 12)  # LOAD_ATTR's low bit: a method and self
_CACHES = sys.version_info >= (3, 11)  # inline caches: opcode 0 in co_code
# opcodes from which an instruction has an argument (stack_effect refuses one below)
_HAVE_ARGUMENT = {(3, 13): 44, (3, 14): 43}.get(sys.version_info[:2], 90)
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
_PEEK_METHOD_NAMES = frozenset(
    (
        'get',
        'pop',
        'setdefault',
        'popitem',
        'update',
        'copy',
        'keys',
        'values',
        'items',
        'fromkeys',
        '__getitem__',
        '__contains__',
        '__setitem__',
        '__delitem__',
        '__eq__',
        '__ne__',
        'index',
        'count',
        'remove',
        'discard',
        'add',
        'union',
        'intersection',
        'difference',
        'issubset',
        'issuperset',
        'isdisjoint',
        'symmetric_difference',
        '__or__',
        '__ior__',
        '__and__',
        '__sub__',
        'setattr',
        'delattr',
        '__setattr__',
        '__delattr__',
        # operator's container functions, as `operator.getitem(d, k)` calls them
        'getitem',
        'contains',
        'setitem',
        'delitem',
        'countOf',
        'indexOf',
    )
)
# the peeks that hand the value found out (which may be stored and come back)
_HANDING_OUT_NAMES = frozenset(('get', 'pop', 'setdefault', '__getitem__'))
_PEEK_OPERATORS = frozenset(
    ('getitem', 'contains', 'setitem', 'delitem', 'eq', 'ne', 'countOf', 'indexOf', 'is_', 'is_not')
)
_PEEKING_SELVES = (dict, set, frozenset, list, tuple, type(ModuleType.__dict__))

# code names of the comprehensions that run as functions given their
# iterator as `.0` (3.12+ runs list, dict and set comprehensions inline)
COMPREHENSIONS = ('<listcomp>', '<dictcomp>', '<setcomp>') if sys.version_info < (3, 12) else ()
_CO_OPTIMIZED = 1  # inspect.CO_OPTIMIZED: a function's frame


def current_offset(frame) -> int:
    """the offset of the instruction `frame` is running: 3.9 and 3.10 leave
    f_lasti at its EXTENDED_ARG prefix (a module with over 256 names)"""
    lasti = frame.f_lasti
    if lasti >= 0:
        code = frame.f_code.co_code
        while code[lasti] == EXTENDED_ARG:
            lasti += 2
    return lasti


def is_loading(frame, load_ops: frozenset = LOADS) -> 'bool | str':
    """is `frame` loading a name, rather than storing, deleting or peeking?

    As on 3.15, a lookup is a load unless it is provably dict-level access
    (a subscript, `in`, `dict.get`, ...), a store or a delete: a load
    instruction, a call whose callee is not a dict's method nor setattr (C
    code between the frame and the lookup: getattr through functools.reduce,
    an unpickler, an extension's initialisation), an import.  Where it cannot
    tell, it answers "a load": an import made early is a timing difference,
    an unresolved object handed to real code is a crash."""
    lasti = current_offset(frame)
    if lasti < 0:
        return False
    code = frame.f_code.co_code
    op = code[lasti]
    if op in load_ops:
        return True
    if op == _CALL_INTRINSIC_1:  # 3.12+: `from m import *` is intrinsic 2
        return code[lasti + 1] == 2
    if op in _CALLS or op == _CALL_FUNCTION_EX:
        return _call_loads(frame, lasti, load_ops is LOADS) or (
            load_ops is LOADS and stdlib_site_loads(frame) and STDLIB_SITE
        )
    if op in _PEEKS:
        return load_ops is LOADS and op in _SUBSCRIPTS and stdlib_site_loads(frame) and STDLIB_SITE
    return load_ops is LOADS


# what is_loading answers for one of 3.15's stdlib sites (truthy: a load)
STDLIB_SITE = 'a stdlib site that 3.15 made a load'


_STAR_ONLY = frozenset((IMPORT_STAR,))


def reads_key(frame) -> 'bool | str':
    """is `frame` reading an attribute by a key object: `import *`, getattr?
    (only where that is certain: sets and dicts of `dir(m)` hash keys too)"""
    return is_loading(frame, _STAR_ONLY)


def is_star_import(frame) -> bool:
    """is `frame` running `from m import *`?"""
    lasti = current_offset(frame)
    code = frame.f_code.co_code
    return code[lasti] == IMPORT_STAR or (code[lasti] == _CALL_INTRINSIC_1 and code[lasti + 1] == 2)


def hands_value_out(frame) -> bool:
    """is the peek `frame` is running one whose result is the value found
    (`d[k]`, `d.get(k)`), which may be stored elsewhere and come back?"""
    lasti = current_offset(frame)
    if lasti < 0:
        return False
    co_code = frame.f_code.co_code
    op = co_code[lasti]
    if op in _SUBSCRIPTS:
        return op == _BINARY_SUBSCR or co_code[lasti + 1] == _NB_SUBSCR
    if op in _CALLS:
        found = _callee(frame.f_code, lasti)
        return (
            found is not None
            and found[0] in (_LOAD_ATTR, _LOAD_METHOD)
            and _attribute_name(frame.f_code, found[0], found[1]) in _HANDING_OUT_NAMES
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


def _instruction_before(code: bytes, offset: int):
    """(offset, opcode, argument) of the instruction before `offset`, or None"""
    offset -= 2
    while _CACHES and offset >= 0 and code[offset] == 0:
        offset -= 2
    if offset < 0:
        return None
    arg, shift, at = code[offset + 1], 8, offset - 2
    while at >= 0 and code[at] == EXTENDED_ARG:
        arg |= code[at + 1] << shift
        shift += 8
        at -= 2
    return offset, code[offset], arg


def _instruction_at(code: bytes, offset: int):
    """(opcode, argument, offset of the next instruction) at `offset`, past
    its EXTENDED_ARG prefixes and its inline caches"""
    arg = 0
    while code[offset] == EXTENDED_ARG:
        arg = (arg | code[offset + 1]) << 8
        offset += 2
    op, arg = code[offset], arg | code[offset + 1]
    offset += 2
    while _CACHES and offset < len(code) and code[offset] == 0:
        offset += 2
    return op, arg, offset


def _stack_use(op: int, arg: int):
    """(pops, pushes) of an instruction an argument expression is made of,
    or None for one that is not (a jump, a store: not one expression); the
    simple loads, the commonest, _producer reads itself"""
    if op == _LOAD_ATTR:
        return 1, 1 + (arg & 1 if _WIDE_ATTRS else 0)
    if op == _LOAD_METHOD:
        return 1, 2
    if op in _PUSH_TWO:
        return 0, 2
    if op in _ONE_VALUE:
        if _SPLIT_CALL and op in _CALLS:
            return arg + 2, 1  # (its PRECALL, walked over as nothing, has the stack effect)
        try:
            return 1 - _stack_effect(op, arg if op >= _HAVE_ARGUMENT else None), 1
        except ValueError:
            return None
    return None


def _stack_effect(op: int, arg) -> int:
    # _opcode (an extension: no Python code runs, so it is safe inside a
    # lookup) is loaded at the first call site that needs it, not at start
    global _stack_effect
    from _opcode import stack_effect as _stack_effect

    return _stack_effect(op, arg)


def _producer(code: bytes, lasti: int, depth: int):
    """the instruction that pushed the stack item `depth` below the top (1 is
    the top) as the instruction at `lasti` starts, walking back over the
    instructions of one expression; None where it cannot tell (a jump: the
    value may come from another branch, any instruction of a statement)"""
    offset = lasti
    while True:
        found = _instruction_before(code, offset)
        if found is None:
            return None
        offset, op, arg = found
        if op in _NOTHING:
            continue
        if op in _PUSH_ONE:  # (the common instructions inline: no call each)
            pops, pushes = 0, 1
        elif op == _LOAD_GLOBAL:
            pops, pushes = 0, 1 + (arg & 1 if _WIDE_GLOBALS else 0)
        else:
            use = _stack_use(op, arg)
            if use is None:
                return None
            pops, pushes = use
        if depth <= pushes:
            return op, arg
        depth += pops - pushes


def _callee(code, lasti: int):
    """(opcode, argument) of the instruction that pushed the callee of the
    call at `lasti`, or None"""
    co_code = code.co_code
    op = co_code[lasti]
    if op == _CALL_FUNCTION_EX:
        return None
    depth = co_code[lasti + 1] + _CALLS[op] + 1
    found = _producer(co_code, lasti, depth)
    if found is not None and found[0] == _PUSH_NULL:
        found = _producer(co_code, lasti, depth + 1)
    return found


def callee_name(frame) -> 'str | None':
    """the name of the callee of the call `frame` is making, as it was
    loaded (a global or builtin, an attribute, a method), or None"""
    code = frame.f_code
    lasti = current_offset(frame)
    if code.co_code[lasti] not in _CALLS:
        return None
    found = _callee(code, lasti)
    if found is None:
        return None
    op, arg = found
    if op == _LOAD_ATTR or op == _LOAD_METHOD:
        return _attribute_name(code, op, arg)
    if op == _LOAD_GLOBAL or op == _LOAD_NAME:
        return _name_of(code, op, arg)
    return None


def _attribute_name(code, op: int, arg: int) -> str:
    return code.co_names[arg >> 1 if _WIDE_ATTRS and op == _LOAD_ATTR else arg]


def _call_loads(frame, lasti: int, unless_peek: bool = True) -> bool:
    """is the lookup made inside the call at `lasti` a load?  With
    `unless_peek`, yes unless the callee is provably a dict's method, an
    operator on containers, or setattr/delattr (which store); else only when
    it is provably getattr, hasattr or attrgetter(...)"""
    code = frame.f_code
    found = _callee(code, lasti)
    if found is None:
        return unless_peek
    op, arg = found
    if op == _LOAD_ATTR or op == _LOAD_METHOD:
        name = _attribute_name(code, op, arg)
        if name in _GETTER_NAMES:
            return True
        return unless_peek and name not in _PEEK_METHOD_NAMES
    if op == _LOAD_GLOBAL or op == _LOAD_NAME:
        name = code.co_names[arg >> 1 if _WIDE_GLOBALS and op == _LOAD_GLOBAL else arg]
        callee = _MISSING
        if op == _LOAD_NAME:
            callee = frame.f_locals.get(name, _MISSING)
        if callee is _MISSING:
            callee = frame.f_globals.get(name, _MISSING)
        if callee is _MISSING:
            builtins = frame.f_builtins
            callee = (
                builtins.get(name, _MISSING) if type(builtins) is dict else getattr(builtins, name, _MISSING)
            )
    elif op in _LOCAL_LOADS:
        if op in _DEREF_LOADS and sys.version_info < (3, 11):
            names = code.co_cellvars + code.co_freevars  # 3.9/3.10: cells, then free variables
        else:
            names = code.co_varnames + code.co_cellvars + code.co_freevars
        if arg >= len(names):
            return unless_peek
        callee = frame.f_locals.get(names[arg], _MISSING)
    else:
        # the result of a call (attrgetter('x')(m)), a subscript, ...
        return unless_peek
    if any(callee is getter for getter in _ATTRIBUTE_GETTERS) or type(callee) is attrgetter:
        return True
    return unless_peek and not _peeks(callee)


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


def _name_of(code, op: int, arg: int) -> str:
    return code.co_names[arg >> 1 if op == _LOAD_GLOBAL and _WIDE_GLOBALS else arg]


def _lookup(frame, op: int, name: str):
    """(namespace, value) where LOAD_NAME or LOAD_GLOBAL finds `name`, by peeks
    (dict.get reifies nothing); (None, None) when it finds nothing"""
    spaces = (frame.f_locals, frame.f_globals) if op == _LOAD_NAME else (frame.f_globals,)
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
    if lasti < 0 or co_code[lasti] not in (_LOAD_ATTR, _LOAD_METHOD):
        return None
    found = _instruction_before(co_code, lasti)
    if found is None or found[1] not in NAME_LOADS:
        return None
    name = _name_of(frame.f_code, found[1], found[2])
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
    `mod.x = ...` for a module `mod` whose attributes are its dict; None for
    anything else"""
    lasti = current_offset(frame)
    if lasti < 0:
        return None
    code = frame.f_code
    co_code = code.co_code
    op, arg, after = _instruction_at(co_code, _instruction_at(co_code, lasti)[2])
    if op == _STORE_NAME:
        if any_locals or frame.f_locals is frame.f_globals:
            return frame.f_locals, code.co_names[arg]
        return None
    if op == _STORE_GLOBAL:
        return frame.f_globals, code.co_names[arg]
    if op in NAME_LOADS and after < len(co_code):
        store, attr, _ = _instruction_at(co_code, after)
        if store != _STORE_ATTR:
            return None
        owner = _lookup(frame, op, _name_of(code, op, arg))[1]
        if not isinstance(owner, ModuleType) or type(owner).__setattr__ is not ModuleType.__setattr__:
            return None
        return vars(owner), code.co_names[attr]
    return None


# what a for loop's iterable may be made with when it iterates a module dict
DICT_ITERATION_NAMES = frozenset(('items', 'keys', 'values', 'globals', 'vars', '__dict__'))
_FOR_ITER_TARGET = (
    2 + (2 if sys.version_info >= (3, 12) else 0),  # bytes to the next instruction
    1 if sys.version_info < (3, 10) else 2,
)  # bytes per unit of the jump


def in_dict_loop(frame) -> bool:
    """is `frame` in a for loop that may iterate its module's dict? (a
    heuristic, read without decoding each instruction: in a for loop, in code
    that names a way to iterate a dict: `items`, `globals`, `__dict__`, ...)"""
    code = frame.f_code
    loops, iterates_dicts = _loops_of(code)
    lasti = frame.f_lasti
    for start, end in loops:
        if start < lasti < end:
            break
    else:
        return False
    return iterates_dicts or (
        # 3.9-3.11: a comprehension is a function given its iterator
        code.co_name in COMPREHENSIONS and type(frame.f_locals.get('.0')).__name__.startswith('dict_')
    )


# The loops of large code objects (a module's body, a long function), read
# once: a first use in them costs a look at its loops, not a read of the
# whole code.  At most _LOOPS_KEPT codes, kept alive by the cache (the entry
# holds the code, so that an id is never taken for a later code's).
_LOOPS_CACHED_FROM = 1024  # bytes of code
_LOOPS_KEPT = 32
_loops_cache: dict = {}  # id(code) -> (code, (loops, names a dict iteration))


def _loops_of(code) -> tuple:
    """(the (FOR_ITER offset, loop end) of each for loop, whether its names
    include a way to iterate a dict)"""
    cached = _loops_cache.get(id(code))
    if cached is not None and cached[0] is code:
        return cached[1]
    raw = code.co_code
    found = (_for_loops(raw), not DICT_ITERATION_NAMES.isdisjoint(code.co_names))
    if len(raw) >= _LOOPS_CACHED_FROM:
        if len(_loops_cache) >= _LOOPS_KEPT:
            _loops_cache.clear()
        _loops_cache[id(code)] = (code, found)
    return found


def _for_loops(raw: bytes) -> tuple:
    opcode = bytes((_FOR_ITER,))
    loops = []
    at = raw.find(opcode)
    while at >= 0:
        if not at & 1:
            arg, prefix = raw[at + 1], at - 2
            while prefix >= 0 and raw[prefix] == EXTENDED_ARG:
                arg |= raw[prefix + 1] << (8 * ((at - prefix) // 2))
                prefix -= 2
            loops.append((at, at + _FOR_ITER_TARGET[0] + arg * _FOR_ITER_TARGET[1]))
        at = raw.find(opcode, at + 1)
    return tuple(loops)


def dicts_being_iterated() -> set:
    """ids of the module dicts that a for loop running now, in any thread,
    may iterate (see in_dict_loop)"""
    found = set()
    for top in sys._current_frames().values():
        frame: FrameType | None = top
        while frame is not None:
            if in_dict_loop(frame):
                found.add(id(frame.f_globals))
            frame = frame.f_back
    return found


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
