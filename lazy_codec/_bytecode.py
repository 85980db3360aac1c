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
from types import ModuleType

# opcodes that load a name: those of opcode.opmap named in LOAD_OPNAMES, by
# version (asserted by tests/test_runtime.py).  Imported only for a version
# not listed, and then here, when the runtime loads, never inside a lookup.
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


LOADS = _opcodes_that_load()

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
IMPORT_STAR = _op.get('IMPORT_STAR', -1)
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
_FOR_ITER = _op['FOR_ITER']
_LOCAL_LOADS = frozenset(_op[name] for name in (
    'LOAD_FAST', 'LOAD_DEREF', 'LOAD_FAST_CHECK', 'LOAD_FAST_BORROW', 'LOAD_CLASSDEREF') if name in _op)
_DEREF_LOADS = frozenset(_op[name] for name in ('LOAD_DEREF', 'LOAD_CLASSDEREF') if name in _op)
# the loads whose name is looked up in the frame's own namespaces
NAME_LOADS = frozenset((_LOAD_NAME, _LOAD_GLOBAL))
_WIDE_GLOBALS = sys.version_info >= (3, 11)  # LOAD_GLOBAL's low bit: push NULL too
_WIDE_ATTRS = sys.version_info >= (3, 12)  # LOAD_ATTR's low bit: a method and self
_CACHES = sys.version_info >= (3, 11)  # inline caches: opcode 0 in co_code
_ATTRIBUTE_GETTERS = (getattr, hasattr, ModuleType.__getattribute__, object.__getattribute__)
_MISSING = object()

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
        while code[lasti] == _EXTENDED_ARG:
            lasti += 2
    return lasti


def is_loading(frame, load_ops: frozenset = LOADS) -> bool:
    """is `frame` loading a name, rather than storing, deleting or peeking?
    (`load_ops`: the opcodes that count, besides `import *` and getattr calls)"""
    lasti = current_offset(frame)
    if lasti < 0:
        return False
    code = frame.f_code.co_code
    op = code[lasti]
    if op in load_ops:
        return True
    if op == _CALL_INTRINSIC_1:  # 3.12+: `from m import *` is intrinsic 2
        return code[lasti + 1] == 2
    return op in _CALLS and _call_loads(frame, lasti)


_STAR_ONLY = frozenset((IMPORT_STAR,))


def reads_key(frame) -> bool:
    """is `frame` reading an attribute by a key object: `import *`, getattr?"""
    return is_loading(frame, _STAR_ONLY)


def is_star_import(frame) -> bool:
    """is `frame` running `from m import *`?"""
    lasti = current_offset(frame)
    code = frame.f_code.co_code
    return code[lasti] == IMPORT_STAR or (code[lasti] == _CALL_INTRINSIC_1 and code[lasti + 1] == 2)


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
    lasti = current_offset(frame)
    if lasti < 0:
        return None
    code = frame.f_code
    co_code = code.co_code
    op, arg, after = _instruction_at(co_code, _instruction_at(co_code, lasti)[2])
    if op == _STORE_NAME:
        return frame.f_locals, code.co_names[arg]
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
_DICT_ITERATION_NAMES = frozenset(('items', 'keys', 'values', 'globals', 'vars', '__dict__'))
_FOR_ITER_TARGET = (2 + (2 if sys.version_info >= (3, 12) else 0),  # bytes to the next instruction
                    1 if sys.version_info < (3, 10) else 2)  # bytes per unit of the jump


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
        code.co_name in COMPREHENSIONS and
        type(frame.f_locals.get('.0')).__name__.startswith('dict_'))


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
    found = (_for_loops(raw), not _DICT_ITERATION_NAMES.isdisjoint(code.co_names))
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
            while prefix >= 0 and raw[prefix] == _EXTENDED_ARG:
                arg |= raw[prefix + 1] << (8 * ((at - prefix) // 2))
                prefix -= 2
            loops.append((at, at + _FOR_ITER_TARGET[0] + arg * _FOR_ITER_TARGET[1]))
        at = raw.find(opcode, at + 1)
    return tuple(loops)


def dicts_being_iterated() -> set:
    """ids of the module dicts that a for loop running now, in any thread,
    may iterate (see in_dict_loop)"""
    found = set()
    for frame in sys._current_frames().values():
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
