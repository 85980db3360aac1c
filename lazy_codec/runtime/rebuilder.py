"""Putting module dicts back in the form the interpreter expects, after their
lazy names are used.

A module dict that held a lazy key (see lazy_codec.runtime.binding) is rebuilt once
its last lazy name is used, so that it is again a dict of exact str keys,
which the specializing interpreter needs (3.11+).  A rebuild frees the dict's
key table, so it must not happen while a lookup in that dict is in progress:
the lookup would go on reading freed memory (seen: NameError, crashes).  A
lookup in a module dict runs Python code only through the lazy key's
`__eq__`; so once a dict has no lazy key left, a lookup in it can be in
progress across Python code only in a thread that is inside `__eq__`.  The
rebuild waits for no thread to be there, with the binding lock held so that
no lazy key comes back meanwhile.  A thread does it, soon after the last
first use in a module, while the thread that used the name goes on.  (With
the accelerator, in a process of one thread, that thread does it itself
between two of its bytecodes, and this module is not loaded: see
_accel_c/rebuild.c.  It follows this module, the reference.)
"""

import sys
from _functools import partial
from _thread import allocate_lock, start_new_thread

from lazy_codec.runtime.access import COMPREHENSIONS, DICT_ITERATION_NAMES, FrameType
from lazy_codec.runtime.binding import EscapedName, LazyName, in_one_call, plain_key
from lazy_codec.runtime.lazy import LazyImportType
from lazy_codec.runtime.opcodes import EXTENDED_ARG, FOR_ITER
from lazy_codec.runtime.state import accel, binding_lock, dirty, lookup_codes, runtime_globals, unswapped

runtime_globals.append(globals())  # (see state.runtime_globals)

# -- the loops that may iterate a module's dict (a rebuild waits for them; the
# pure runtime's first use asks too: the accelerator changes entries in place)
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


# -- the thread ----------------------------------------------------------------
_LINGER = 20  # idle rounds of 1 ms before the thread exits (one start per burst)
_running = allocate_lock()  # held while a rebuilder thread runs
# what the thread waits on between rounds: held, except when released to
# wake it at once (stop(): an exit or a fork must not wait a round)
_wakeup = allocate_lock()
_wakeup.acquire()
_stopping = False  # set to make it exit early


def rebuild_later(namespace: dict) -> None:
    """(under the binding lock) rebuild `namespace` once that is safe"""
    dirty[id(namespace)] = namespace
    _start()


def swap_later(namespace: dict, key, value) -> None:
    """(under the binding lock) make `key`, settled in place with `value`, a
    plain key once no loop may iterate `namespace`"""
    unswapped.append((namespace, key, value))
    _start()


def _start() -> None:
    if not _running.locked():
        _running.acquire()
        try:
            start_new_thread(_run, ())
        except RuntimeError:
            # at interpreter shutdown (an atexit callback's first use, 3.12):
            # no rebuild then, and no lock left held for stop()
            _running.release()


def _rebuilt(namespace: dict, swaps: 'dict | None' = None) -> None:
    """`namespace` re-made, in the same order (as 3.15 keeps it): with exact
    str keys only, or, given `swaps` (id of a key settled in place -> its
    value), with those keys plain, unless the entry was rebound meanwhile"""
    if swaps is None:
        items = [(plain_key(k) if type(k) is LazyName else k, v) for k, v in namespace.items()]
    else:
        items = [(plain_key(k) if swaps.get(id(k), _MISSING) is v else k, v) for k, v in namespace.items()]
    in_one_call(namespace.clear, partial(namespace.update, items))


_MISSING = object()


def _in_lookup() -> bool:
    """is any thread inside a lazy key's __eq__, i.e. inside a dict lookup?
    (the accelerator's compare counts the threads inside its own)"""
    if accel is not None and accel.lookups_in_progress():
        return True
    for top in sys._current_frames().values():
        frame: FrameType | None = top
        while frame is not None:
            if frame.f_code in lookup_codes:
                return True
            frame = frame.f_back
    return False


def _rebuild_pending() -> None:
    """rebuild the dirty dicts that are safe to rebuild now (see above)"""
    with binding_lock:
        if _in_lookup():
            return
        iterated = dicts_being_iterated()
        for key, namespace in list(dirty.items()):
            if not _rebuild_keeps_iterations(namespace, key, iterated):
                continue  # not before the loops that may iterate it are done
            del dirty[key]
            # (once per module, in this thread: a key still lazy, copied
            # while lazy, or escaped (see EscapedName) keeps the dict as it is)
            if not any(
                type(k) is EscapedName
                or (type(k) is LazyName and (k.lazy is not None or type(v) is LazyImportType))
                for k, v in list(namespace.items())
            ):
                _rebuilt(namespace)


def _rebuild_keeps_iterations(namespace: dict, key: int, iterated: set) -> bool:
    """would a rebuild of `namespace` now leave any iteration of it as it
    is?  An iteration holds only an index into the entries: a dict with no
    deleted entry (the accelerator reads its table) is rebuilt with each
    item at the same index.  Else only when no loop may iterate it: with the
    accelerator, no dict loop in any frame (a loop over another module's
    dict runs in a frame whose globals are not that dict); the pure runtime
    waits only for loops in the dict's own module (its first uses move
    entries anyway: see README, "a first use in a loop over the module's
    dict in another module")."""
    if accel is None:
        return key not in iterated
    return accel.dict_compact(namespace) or not iterated


def _swap_pending() -> None:
    """(under the binding lock) the keys settled in place made plain, each
    dict re-made in its order: not while a loop may iterate it, nor while a
    lookup is in progress (a rebuild frees the table it reads)"""
    if not unswapped:
        return
    iterated = dicts_being_iterated()
    in_lookup = _in_lookup()
    waiting = []
    by_namespace: dict = {}  # id -> (namespace, {id of a key: its value})
    for namespace, key, value in unswapped:
        if in_lookup or id(namespace) in iterated:
            waiting.append((namespace, key, value))
        else:
            by_namespace.setdefault(id(namespace), (namespace, {}))[1][id(key)] = value
    unswapped[:] = waiting
    for namespace, swaps in by_namespace.values():
        _rebuilt(namespace, swaps)


def _run() -> None:
    """runs while there is something to swap or rebuild, and _LINGER ms more
    (a burst of first uses starts one thread), then exits: no thread of ours
    stays in the process (3.12+ warns when a threaded process forks)"""
    idle = 0
    try:
        while True:
            # first a pause: the thread that started this one (3.13+ hands it
            # the GIL at the start) goes on with its lookup
            _wakeup.acquire(True, 0.001 if idle < 3 else 0.02)
            with binding_lock:
                if _stopping or (idle > _LINGER and not dirty and not unswapped):
                    # released under the binding lock: _start, which holds
                    # it, sees either this thread going on or none
                    _running.release()
                    return
                waiting = len(unswapped) + len(dirty)
                _swap_pending()
            if dirty:
                _rebuild_pending()  # (may leave them: a thread inside a lookup, a loop)
            # idle: nothing done this round (only loops to wait for: a poll
            # every 20 ms from the third such round)
            idle = 0 if len(unswapped) + len(dirty) < waiting else idle + 1
    except BaseException:
        # at interpreter exit a daemon thread can find modules torn down: a
        # rebuild is only an optimization, and nothing may reach stderr
        if _running.locked():
            _running.release()


def stop() -> None:
    """no rebuilder thread across a fork, nor at interpreter exit (a daemon
    thread still running during finalization can crash the interpreter)"""
    global _stopping
    if _running.locked():
        _stopping = True
        if _wakeup.locked():
            _wakeup.release()
        with _running:  # wait until it has exited
            pass
        _wakeup.acquire(False)  # held again, if the thread did not take the wake-up
        _stopping = False


def _before_fork() -> None:
    stop()
    with binding_lock:  # in this thread instead
        _swap_pending()
    if dirty:
        _rebuild_pending()


if hasattr(__import__('os'), 'register_at_fork'):
    __import__('os').register_at_fork(before=_before_fork)
__import__('atexit').register(stop)
