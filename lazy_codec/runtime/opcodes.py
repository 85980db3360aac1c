"""The instructions the runtime reads, by name on each of 3.9-3.14, and the
decoder that reads them off a frame's code: the instruction running, the one
before or after it, what pushed a call's callee.  Mechanism only: what a
lookup under an instruction means is lazy_codec.runtime.access's.

Every number is written out here, by version, never read from `dis` or
`opcode` (two more imports at the first lazy statement, and an import
inside a dict lookup would run lazy statements in mode "all").
"""

import sys

_HERE = sys.version_info[:2]
# fmt: off
# opcode.opmap's number of each instruction the runtime reads, on this
# version: OPCODES, those co_code holds; PSEUDO, the pseudo-instructions
# (256 and up) of those names, which only the compiler sees (LOADS has them,
# as opcode.opmap).  tests/test_runtime.py asserts both against opcode.opmap.
OPCODES: dict
PSEUDO: dict
if _HERE in ((3, 9), (3, 10)):
    OPCODES = {
        'EXTENDED_ARG': 144, 'NOP': 9, 'CALL_FUNCTION': 131, 'CALL_METHOD': 161, 'CALL_FUNCTION_KW': 141,
        'CALL_FUNCTION_EX': 142, 'LOAD_NAME': 101, 'LOAD_GLOBAL': 116, 'LOAD_ATTR': 106,
        'LOAD_METHOD': 160, 'IMPORT_FROM': 109, 'IMPORT_STAR': 84, 'LOAD_FAST': 124, 'LOAD_DEREF': 136,
        'LOAD_CLASSDEREF': 148, 'LOAD_CLOSURE': 135, 'LOAD_CONST': 100, 'LOAD_ASSERTION_ERROR': 74,
        'STORE_NAME': 90, 'STORE_GLOBAL': 97, 'STORE_ATTR': 95, 'STORE_FAST': 125, 'STORE_DEREF': 137,
        'STORE_SUBSCR': 60, 'DELETE_NAME': 91, 'DELETE_GLOBAL': 98, 'DELETE_ATTR': 96, 'DELETE_FAST': 126,
        'DELETE_SUBSCR': 61, 'BINARY_SUBSCR': 25, 'CONTAINS_OP': 118, 'COMPARE_OP': 107, 'IS_OP': 117,
        'BUILD_TUPLE': 102, 'BUILD_LIST': 103, 'BUILD_SET': 104, 'BUILD_MAP': 105,
        'BUILD_CONST_KEY_MAP': 156, 'BUILD_STRING': 157, 'BUILD_SLICE': 133, 'LIST_TO_TUPLE': 82,
        'MAP_ADD': 147, 'SET_ADD': 146, 'LIST_APPEND': 145, 'DICT_UPDATE': 165, 'DICT_MERGE': 164,
        'SET_UPDATE': 163, 'LIST_EXTEND': 162, 'BINARY_ADD': 23, 'BINARY_SUBTRACT': 24,
        'BINARY_MULTIPLY': 20, 'BINARY_TRUE_DIVIDE': 27, 'BINARY_FLOOR_DIVIDE': 26, 'BINARY_MODULO': 22,
        'BINARY_POWER': 19, 'BINARY_LSHIFT': 62, 'BINARY_RSHIFT': 63, 'BINARY_AND': 64, 'BINARY_OR': 66,
        'BINARY_XOR': 65, 'BINARY_MATRIX_MULTIPLY': 16, 'INPLACE_AND': 77, 'INPLACE_OR': 79,
        'INPLACE_XOR': 78, 'INPLACE_SUBTRACT': 56, 'UNARY_NEGATIVE': 11, 'UNARY_NOT': 12,
        'UNARY_INVERT': 15, 'UNARY_POSITIVE': 10, 'FORMAT_VALUE': 155, 'GET_ITER': 68, 'FOR_ITER': 93,
        'UNPACK_SEQUENCE': 92, 'UNPACK_EX': 94, 'RETURN_VALUE': 83,
    }
    if _HERE == (3, 10):  # 3.9's, and the instructions of `match`
        OPCODES.update({'GET_LEN': 30, 'COPY_DICT_WITHOUT_KEYS': 34, 'MATCH_KEYS': 33, 'MATCH_MAPPING': 31})
    PSEUDO = {}
elif _HERE == (3, 11):
    OPCODES = {
        'EXTENDED_ARG': 144, 'NOP': 9, 'CALL': 171, 'CALL_FUNCTION_EX': 142, 'PRECALL': 166,
        'KW_NAMES': 172, 'PUSH_NULL': 2, 'LOAD_NAME': 101, 'LOAD_GLOBAL': 116, 'LOAD_ATTR': 106,
        'LOAD_METHOD': 160, 'IMPORT_FROM': 109, 'IMPORT_STAR': 84, 'LOAD_FAST': 124, 'LOAD_DEREF': 137,
        'LOAD_CLASSDEREF': 148, 'LOAD_CLOSURE': 136, 'LOAD_CONST': 100, 'LOAD_ASSERTION_ERROR': 74,
        'STORE_NAME': 90, 'STORE_GLOBAL': 97, 'STORE_ATTR': 95, 'STORE_FAST': 125, 'STORE_DEREF': 138,
        'STORE_SUBSCR': 60, 'DELETE_NAME': 91, 'DELETE_GLOBAL': 98, 'DELETE_ATTR': 96, 'DELETE_FAST': 126,
        'DELETE_SUBSCR': 61, 'BINARY_SUBSCR': 25, 'CONTAINS_OP': 118, 'COMPARE_OP': 107, 'IS_OP': 117,
        'BUILD_TUPLE': 102, 'BUILD_LIST': 103, 'BUILD_SET': 104, 'BUILD_MAP': 105,
        'BUILD_CONST_KEY_MAP': 156, 'BUILD_STRING': 157, 'BUILD_SLICE': 133, 'LIST_TO_TUPLE': 82,
        'MAP_ADD': 147, 'SET_ADD': 146, 'LIST_APPEND': 145, 'DICT_UPDATE': 165, 'DICT_MERGE': 164,
        'SET_UPDATE': 163, 'LIST_EXTEND': 162, 'BINARY_OP': 122, 'UNARY_NEGATIVE': 11, 'UNARY_NOT': 12,
        'UNARY_INVERT': 15, 'UNARY_POSITIVE': 10, 'FORMAT_VALUE': 155, 'COPY': 120, 'GET_ITER': 68,
        'GET_LEN': 30, 'FOR_ITER': 93, 'UNPACK_SEQUENCE': 92, 'UNPACK_EX': 94, 'MATCH_KEYS': 33,
        'MATCH_MAPPING': 31, 'RETURN_VALUE': 83,
    }
    PSEUDO = {}
elif _HERE == (3, 12):
    OPCODES = {
        'EXTENDED_ARG': 144, 'NOP': 9, 'CALL': 171, 'CALL_FUNCTION_EX': 142, 'CALL_INTRINSIC_1': 173,
        'KW_NAMES': 172, 'PUSH_NULL': 2, 'LOAD_NAME': 101, 'LOAD_GLOBAL': 116,
        'LOAD_FROM_DICT_OR_GLOBALS': 175, 'LOAD_ATTR': 106, 'IMPORT_FROM': 109, 'LOAD_FAST': 124,
        'LOAD_FAST_CHECK': 127, 'LOAD_DEREF': 137, 'LOAD_CLOSURE': 136, 'LOAD_CONST': 100,
        'LOAD_ASSERTION_ERROR': 74, 'STORE_NAME': 90, 'STORE_GLOBAL': 97, 'STORE_ATTR': 95,
        'STORE_FAST': 125, 'STORE_DEREF': 138, 'STORE_SUBSCR': 60, 'DELETE_NAME': 91, 'DELETE_GLOBAL': 98,
        'DELETE_ATTR': 96, 'DELETE_FAST': 126, 'DELETE_SUBSCR': 61, 'BINARY_SUBSCR': 25,
        'BINARY_SLICE': 26, 'CONTAINS_OP': 118, 'COMPARE_OP': 107, 'IS_OP': 117, 'BUILD_TUPLE': 102,
        'BUILD_LIST': 103, 'BUILD_SET': 104, 'BUILD_MAP': 105, 'BUILD_CONST_KEY_MAP': 156,
        'BUILD_STRING': 157, 'BUILD_SLICE': 133, 'MAP_ADD': 147, 'SET_ADD': 146, 'LIST_APPEND': 145,
        'DICT_UPDATE': 165, 'DICT_MERGE': 164, 'SET_UPDATE': 163, 'LIST_EXTEND': 162, 'BINARY_OP': 122,
        'UNARY_NEGATIVE': 11, 'UNARY_NOT': 12, 'UNARY_INVERT': 15, 'FORMAT_VALUE': 155, 'COPY': 120,
        'GET_ITER': 68, 'GET_LEN': 30, 'FOR_ITER': 93, 'UNPACK_SEQUENCE': 92, 'UNPACK_EX': 94,
        'MATCH_KEYS': 33, 'MATCH_MAPPING': 31, 'RETURN_VALUE': 83,
    }
    PSEUDO = {'LOAD_METHOD': 262}
elif _HERE == (3, 13):
    OPCODES = {
        'EXTENDED_ARG': 71, 'NOP': 30, 'CALL': 53, 'CALL_KW': 57, 'CALL_FUNCTION_EX': 54,
        'CALL_INTRINSIC_1': 55, 'PUSH_NULL': 34, 'LOAD_NAME': 92, 'LOAD_GLOBAL': 91,
        'LOAD_FROM_DICT_OR_GLOBALS': 90, 'LOAD_ATTR': 82, 'IMPORT_FROM': 74, 'LOAD_FAST': 85,
        'LOAD_FAST_CHECK': 87, 'LOAD_FAST_LOAD_FAST': 88, 'LOAD_DEREF': 84, 'LOAD_CONST': 83,
        'LOAD_ASSERTION_ERROR': 23, 'STORE_NAME': 114, 'STORE_GLOBAL': 113, 'STORE_ATTR': 108,
        'STORE_FAST': 110, 'STORE_DEREF': 109, 'STORE_SUBSCR': 39, 'DELETE_NAME': 67, 'DELETE_GLOBAL': 66,
        'DELETE_ATTR': 63, 'DELETE_FAST': 65, 'DELETE_SUBSCR': 9, 'BINARY_SUBSCR': 5, 'BINARY_SLICE': 4,
        'CONTAINS_OP': 59, 'COMPARE_OP': 58, 'IS_OP': 76, 'BUILD_TUPLE': 52, 'BUILD_LIST': 47,
        'BUILD_SET': 49, 'BUILD_MAP': 48, 'BUILD_CONST_KEY_MAP': 46, 'BUILD_STRING': 51, 'BUILD_SLICE': 50,
        'MAP_ADD': 95, 'SET_ADD': 105, 'LIST_APPEND': 80, 'DICT_UPDATE': 69, 'DICT_MERGE': 68,
        'SET_UPDATE': 107, 'LIST_EXTEND': 81, 'BINARY_OP': 45, 'UNARY_NEGATIVE': 42, 'UNARY_NOT': 43,
        'UNARY_INVERT': 41, 'TO_BOOL': 40, 'FORMAT_SIMPLE': 14, 'FORMAT_WITH_SPEC': 15,
        'CONVERT_VALUE': 60, 'COPY': 61, 'GET_ITER': 19, 'GET_LEN': 20, 'FOR_ITER': 72,
        'UNPACK_SEQUENCE': 117, 'UNPACK_EX': 116, 'MATCH_KEYS': 27, 'MATCH_MAPPING': 28,
        'RETURN_VALUE': 36,
    }
    PSEUDO = {'LOAD_METHOD': 259, 'LOAD_CLOSURE': 258}
elif _HERE == (3, 14):
    OPCODES = {
        'EXTENDED_ARG': 69, 'NOP': 27, 'NOT_TAKEN': 28, 'CALL': 52, 'CALL_KW': 55, 'CALL_FUNCTION_EX': 4,
        'CALL_INTRINSIC_1': 53, 'PUSH_NULL': 33, 'LOAD_NAME': 93, 'LOAD_GLOBAL': 92,
        'LOAD_FROM_DICT_OR_GLOBALS': 91, 'LOAD_ATTR': 80, 'IMPORT_FROM': 72, 'LOAD_FAST': 84,
        'LOAD_FAST_CHECK': 88, 'LOAD_FAST_BORROW': 86, 'LOAD_FAST_LOAD_FAST': 89,
        'LOAD_FAST_BORROW_LOAD_FAST_BORROW': 87, 'LOAD_DEREF': 83, 'LOAD_CONST': 82, 'LOAD_SMALL_INT': 94,
        'LOAD_COMMON_CONSTANT': 81, 'STORE_NAME': 116, 'STORE_GLOBAL': 115, 'STORE_ATTR': 110,
        'STORE_FAST': 112, 'STORE_DEREF': 111, 'STORE_SUBSCR': 38, 'DELETE_NAME': 65, 'DELETE_GLOBAL': 64,
        'DELETE_ATTR': 61, 'DELETE_FAST': 63, 'DELETE_SUBSCR': 8, 'BINARY_SLICE': 1, 'CONTAINS_OP': 57,
        'COMPARE_OP': 56, 'IS_OP': 74, 'BUILD_TUPLE': 51, 'BUILD_LIST': 46, 'BUILD_SET': 48,
        'BUILD_MAP': 47, 'BUILD_STRING': 50, 'BUILD_SLICE': 49, 'MAP_ADD': 98, 'SET_ADD': 107,
        'LIST_APPEND': 78, 'DICT_UPDATE': 67, 'DICT_MERGE': 66, 'SET_UPDATE': 109, 'LIST_EXTEND': 79,
        'BINARY_OP': 44, 'UNARY_NEGATIVE': 41, 'UNARY_NOT': 42, 'UNARY_INVERT': 40, 'TO_BOOL': 39,
        'FORMAT_SIMPLE': 12, 'FORMAT_WITH_SPEC': 13, 'CONVERT_VALUE': 58, 'COPY': 59, 'GET_ITER': 16,
        'GET_LEN': 18, 'FOR_ITER': 70, 'UNPACK_SEQUENCE': 119, 'UNPACK_EX': 118, 'MATCH_KEYS': 24,
        'MATCH_MAPPING': 25, 'RETURN_VALUE': 35,
    }
    PSEUDO = {'LOAD_CLOSURE': 261}
else:  # a version not written out: opcode.opmap, read here as the runtime loads
    from opcode import opmap

    OPCODES = {name: number for name, number in opmap.items() if number < 256}
    PSEUDO = {name: number for name, number in opmap.items() if number >= 256}
# fmt: on


def opcodes_named(names: tuple) -> frozenset:
    """the numbers of those of `names` that this interpreter has"""
    return frozenset(OPCODES[name] for name in names if name in OPCODES)


# the single instructions the runtime asks for; -1, never in co_code, where
# this version has no such instruction
EXTENDED_ARG = OPCODES['EXTENDED_ARG']
FOR_ITER = OPCODES['FOR_ITER']
LOAD_NAME, LOAD_GLOBAL, LOAD_ATTR = OPCODES['LOAD_NAME'], OPCODES['LOAD_GLOBAL'], OPCODES['LOAD_ATTR']
LOAD_METHOD, PUSH_NULL = OPCODES.get('LOAD_METHOD', -1), OPCODES.get('PUSH_NULL', -1)
STORE_NAME, STORE_ATTR, STORE_GLOBAL = OPCODES['STORE_NAME'], OPCODES['STORE_ATTR'], OPCODES['STORE_GLOBAL']
BINARY_SUBSCR = OPCODES.get('BINARY_SUBSCR', -1)
CONTAINS_OP, LOAD_FAST = OPCODES['CONTAINS_OP'], OPCODES['LOAD_FAST']
LOAD_CONST, STORE_SUBSCR, RETURN_VALUE = (
    OPCODES['LOAD_CONST'],
    OPCODES['STORE_SUBSCR'],
    OPCODES['RETURN_VALUE'],
)
IMPORT_STAR = OPCODES.get('IMPORT_STAR', -1)
CALL_INTRINSIC_1 = OPCODES.get('CALL_INTRINSIC_1', -1)  # 3.12+: `import *` is intrinsic 2
CALL_FUNCTION_EX = OPCODES['CALL_FUNCTION_EX']  # f(*args, **kwargs): its callee is not read
# a call's opcode -> how many stack items above its callee are not arguments
# (3.11's PRECALL: its specialized forms call builtins themselves)
CALLS = {
    OPCODES[name]: extra
    for name, extra in (
        ('CALL', 0),
        ('CALL_FUNCTION', 0),
        ('CALL_METHOD', 0),
        ('CALL_FUNCTION_KW', 1),
        ('CALL_KW', 1),
        ('PRECALL', 0),
    )
    if name in OPCODES
}
_SPLIT_CALL = 'PRECALL' in OPCODES  # 3.11: PRECALL n then CALL n, one call
# fmt: off
_NOTHING = opcodes_named(('PRECALL', 'KW_NAMES', 'NOP', 'EXTENDED_ARG', 'NOT_TAKEN'))
_PUSH_ONE = opcodes_named((
    'LOAD_NAME', 'LOAD_FAST', 'LOAD_DEREF', 'LOAD_CONST', 'LOAD_FAST_CHECK', 'LOAD_FAST_BORROW',
    'LOAD_SMALL_INT', 'LOAD_CLOSURE', 'LOAD_CLASSDEREF', 'PUSH_NULL',
))
PUSH_TWO = opcodes_named(('LOAD_FAST_LOAD_FAST', 'LOAD_FAST_BORROW_LOAD_FAST_BORROW'))
# what the accelerator reads of a call that pushed what `in` tests
# (_accel_c/frames.c, in_tests_no_calling_iterator): the calls with no
# keyword names pushed, the instructions that push one argument, and those a
# call's sequence has besides its callee and arguments
PLAIN_CALLS = frozenset(op for op, extra in CALLS.items() if extra == 0) - opcodes_named(('PRECALL',))
SINGLE_PUSHES = (_PUSH_ONE - {PUSH_NULL}) | {LOAD_GLOBAL}
CALL_SKIPS = (_NOTHING - {EXTENDED_ARG}) | {PUSH_NULL}
# the instructions the accelerator's decoder reads, by the names its setup takes
ACCELERATOR_TABLES = {
    'calls': frozenset(CALLS),
    'plain_calls': PLAIN_CALLS,
    'single_pushes': SINGLE_PUSHES,
    'call_skips': CALL_SKIPS,
    'EXTENDED_ARG': EXTENDED_ARG,
    'CONTAINS_OP': CONTAINS_OP,
    'LOAD_GLOBAL': LOAD_GLOBAL,
}
# the loads of a frame's own variables (value_loaded reads them)
LOCAL_LOADS = opcodes_named(
    ('LOAD_FAST', 'LOAD_DEREF', 'LOAD_FAST_CHECK', 'LOAD_FAST_BORROW', 'LOAD_CLASSDEREF')
)
_DEREF_LOADS = opcodes_named(('LOAD_DEREF', 'LOAD_CLASSDEREF'))
UNBOUND = object()  # (what value_loaded answers where it reads nothing)
# instructions that leave exactly one value, what they pop being their stack
# effect's complement: what an argument expression is commonly made of
_ONE_VALUE = opcodes_named((
    'CALL', 'CALL_FUNCTION', 'CALL_METHOD', 'CALL_FUNCTION_KW', 'CALL_KW', 'CALL_FUNCTION_EX',
    'BINARY_OP', 'BINARY_SUBSCR', 'BINARY_ADD', 'BINARY_SUBTRACT', 'BINARY_MULTIPLY',
    'BINARY_TRUE_DIVIDE', 'BINARY_FLOOR_DIVIDE', 'BINARY_MODULO', 'BINARY_POWER', 'BINARY_LSHIFT',
    'BINARY_RSHIFT', 'BINARY_AND', 'BINARY_OR', 'BINARY_XOR', 'BINARY_MATRIX_MULTIPLY',
    'BINARY_SLICE', 'UNARY_NEGATIVE', 'UNARY_NOT', 'UNARY_INVERT', 'UNARY_POSITIVE',
    'COMPARE_OP', 'CONTAINS_OP', 'IS_OP',
    'BUILD_TUPLE', 'BUILD_LIST', 'BUILD_SET', 'BUILD_MAP', 'BUILD_CONST_KEY_MAP', 'BUILD_STRING',
    'BUILD_SLICE', 'FORMAT_VALUE', 'FORMAT_SIMPLE', 'FORMAT_WITH_SPEC', 'CONVERT_VALUE',
    'LIST_TO_TUPLE', 'TO_BOOL', 'COPY', 'GET_LEN', 'LOAD_ASSERTION_ERROR', 'LOAD_COMMON_CONSTANT',
))
# fmt: on
WIDE_GLOBALS = sys.version_info >= (3, 11)  # LOAD_GLOBAL's low bit: push NULL too
WIDE_ATTRS = sys.version_info >= (3, 12)  # LOAD_ATTR's low bit: a method and self
_CACHES = sys.version_info >= (3, 11)  # inline caches: opcode 0 in co_code
# opcodes from which an instruction has an argument (stack_effect refuses one below)
_HAVE_ARGUMENT = {(3, 13): 44, (3, 14): 43}.get(sys.version_info[:2], 90)


def current_offset(frame) -> int:
    """the offset of the instruction `frame` is running: 3.9 and 3.10 leave
    f_lasti at its EXTENDED_ARG prefix (a module with over 256 names)"""
    lasti = frame.f_lasti
    if lasti >= 0:
        code = frame.f_code.co_code
        while code[lasti] == EXTENDED_ARG:
            lasti += 2
    return lasti


def calling_offset(frame) -> int:
    """current_offset of a frame whose call of Python code is running: 3.11
    leaves its f_lasti at the call's last inline cache, not at the call"""
    lasti = current_offset(frame)
    if _CACHES and lasti > 0:
        code = frame.f_code.co_code
        while lasti > 0 and code[lasti] == 0:
            lasti -= 2
    return lasti


def instruction_before(code: bytes, offset: int):
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


def instruction_at(code: bytes, offset: int):
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
    simple loads, the commonest, producer reads itself"""
    if op == LOAD_ATTR:
        return 1, 1 + (arg & 1 if WIDE_ATTRS else 0)
    if op == LOAD_METHOD:
        return 1, 2
    if op in PUSH_TWO:
        return 0, 2
    if op in _ONE_VALUE:
        if _SPLIT_CALL and op in CALLS:
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


def producer(code: bytes, lasti: int, depth: int):
    """the instruction that pushed the stack item `depth` below the top (1 is
    the top) as the instruction at `lasti` starts, walking back over the
    instructions of one expression; None where it cannot tell (a jump: the
    value may come from another branch, any instruction of a statement)"""
    offset = lasti
    while True:
        found = instruction_before(code, offset)
        if found is None:
            return None
        offset, op, arg = found
        if op in _NOTHING:
            continue
        if op in _PUSH_ONE:  # (the common instructions inline: no call each)
            pops, pushes = 0, 1
        elif op == LOAD_GLOBAL:
            pops, pushes = 0, 1 + (arg & 1 if WIDE_GLOBALS else 0)
        else:
            use = _stack_use(op, arg)
            if use is None:
                return None
            pops, pushes = use
        if depth <= pushes:
            return op, arg
        depth += pops - pushes


def callee_instruction(code, lasti: int):
    """(opcode, argument) of the instruction that pushed the callee of the
    call at `lasti`, or None"""
    co_code = code.co_code
    op = co_code[lasti]
    if op == CALL_FUNCTION_EX:
        return None
    depth = co_code[lasti + 1] + CALLS[op] + 1
    found = producer(co_code, lasti, depth)
    if found is not None and found[0] == PUSH_NULL:
        found = producer(co_code, lasti, depth + 1)
    return found


def attribute_name(code, op: int, arg: int) -> str:
    """the name LOAD_ATTR or LOAD_METHOD `op` with argument `arg` reads"""
    return code.co_names[arg >> 1 if WIDE_ATTRS and op == LOAD_ATTR else arg]


def name_of(code, op: int, arg: int) -> str:
    """the name LOAD_GLOBAL or LOAD_NAME `op` with argument `arg` reads"""
    return code.co_names[arg >> 1 if op == LOAD_GLOBAL and WIDE_GLOBALS else arg]


def value_loaded(frame, op: int, arg: int):
    """the value the load `op` (a global or builtin, a local, a cell) with
    argument `arg` pushes in `frame`, as it is now; UNBOUND for another
    instruction or an unbound name.  Read by peeks (dict.get reifies nothing)."""
    code = frame.f_code
    if op == LOAD_GLOBAL or op == LOAD_NAME:
        name = name_of(code, op, arg)
        value = UNBOUND
        if op == LOAD_NAME:
            value = frame.f_locals.get(name, UNBOUND)
        if value is UNBOUND:
            value = frame.f_globals.get(name, UNBOUND)
        if value is UNBOUND:
            builtins = frame.f_builtins
            value = (
                builtins.get(name, UNBOUND) if type(builtins) is dict else getattr(builtins, name, UNBOUND)
            )
        return value
    if op in PUSH_TWO:  # (LOAD_FAST_LOAD_FAST: the top is the second)
        op, arg = LOAD_FAST, arg & 15
    if op in LOCAL_LOADS:
        if op in _DEREF_LOADS and sys.version_info < (3, 11):
            names = code.co_cellvars + code.co_freevars  # 3.9/3.10: cells, then free variables
        else:
            names = code.co_varnames + code.co_cellvars + code.co_freevars
        if arg >= len(names):
            return UNBOUND
        return frame.f_locals.get(names[arg], UNBOUND)
    return UNBOUND
