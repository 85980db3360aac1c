"""Whether a for loop may be iterating a module's dict: a heuristic the
pure runtime asks at a first use (the accelerator changes entries where they
stand, and does not ask), and the rebuilder before it re-makes a dict.
Loaded when first asked, not at the runtime's start.
"""

import sys

from lazy_codec.runtime.access import COMPREHENSIONS, DICT_ITERATION_NAMES, FrameType
from lazy_codec.runtime.opcodes import EXTENDED_ARG, FOR_ITER

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
    opcode = bytes((FOR_ITER,))
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
