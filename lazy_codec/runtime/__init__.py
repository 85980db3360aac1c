"""The runtime: what rewritten code calls, on 3.9-3.14.  It may use the
rewrite (mode "all" rewrites modules as they load), never the tools; its
modules import one way (tests/test_layers.py holds them to it).

    state        all the runtime's mutable state, each piece with its
                 invariant (a leaf: the modules below import one way, each
                 only what is listed before it)
    opcodes      the instructions it reads, by name on each version, and
                 the decoder that reads them off a frame's code
    access       what a frame's lookup is (a load, a peek, a store), where
                 a value goes next
    lazy         LazyImportType, the lazy object, with 3.15's look
    binding      the lazy key in a module dict, its edits, making a binding
    rebuilder    the thread that makes dicts plain again, not under a loop
                 that may iterate them
    resolution   resolving a lazy object; 3.15's error shapes; submodules
                 through their packages, as 3.15 attaches them
    lookup       what a lookup of a lazy key does (a load resolves)
    api          the entry points of rewritten code, 3.15's controls
                 (sys.set_lazy_imports, the filter, __lazy_import__) and the
                 names it gives sys, types and builtins; it loads the rest
                 (with the accelerator, the rebuilder, resolution and lookup
                 wait for a first need of them: LOADED_ON_DEMAND)
    accelerator  which runtime runs, for the tools (the choice is
                 state.accel: the optional C accelerator, _accel_c/, does
                 the common case of a statement and of a first use in C and
                 hands the rest to the modules above; or these alone)
    mode_all     the import hooks of mode "all" and __lazy_modules__, and
                 the code they reach that no finder loads (the main script,
                 runpy.run_path; pytest_plugin: pytest's test modules)
"""

import sys

TYPE_CHECKING = False  # (mypy reads `if TYPE_CHECKING:` blocks as true; `typing` is not imported)
if TYPE_CHECKING:
    from typing import Callable

# the modules the runtime loads at its first statement, bottom first: each
# imports only modules before it (tests/test_layers.py holds them to it)
LOADED_AT_START = (
    'state',
    'opcodes',
    'access',
    'lazy',
    'binding',
    'rebuilder',
    'resolution',
    'lookup',
    'api',
)
# those of them that wait, with the C accelerator, until something it hands
# to Python needs them (on_demand below, lazy.load_on_demand): a program whose
# lazy statements and first uses the accelerator does alone never loads them
LOADED_ON_DEMAND = ('rebuilder', 'resolution', 'lookup')


def load() -> None:
    """load the runtime (LOADED_AT_START, less LOADED_ON_DEMAND with the
    accelerator), each module from its cached
    bytecode where that is up to date: read, checked against its source's
    size and time, and run, as importlib's source loader does, but without
    the Python layers of the import system between (finding, the spec, the
    loader's calls), which cost about as much as the module's own code (at
    the first lazy statement: 1.1 M instructions on 3.11).  A module whose
    cache is missing, stale or hash-based is imported as any module is.
    Each is a normal module: its spec, loader, __file__ and __cached__ are
    importlib's, it can be reloaded, and it is run under importlib's lock
    for its name, with its spec marked initializing meanwhile."""
    for name in LOADED_AT_START:
        fullname = f'{__name__}.{name}'
        accelerated = name != 'state' and sys.modules[f'{__name__}.state'].accel is not None
        if accelerated and _load_cached_on_demand is None:
            _keep_start_builtins()  # (before api: its start changes builtins)
        if accelerated and name in LOADED_ON_DEMAND:
            continue
        if fullname not in sys.modules:
            _load_cached(fullname, name)


# what the accelerator takes at its first need of it, by the name it asks:
# (module of LOADED_ON_DEMAND, attribute)
_ON_DEMAND = {
    'key_eq': ('lookup', 'key_eq'),
    'key_hash': ('lookup', 'key_hash'),
    'rebuild_later': ('rebuilder', 'rebuild_later'),
    'failed_first_use': ('resolution', 'failed_first_use'),
}


def on_demand(name: str):
    """what the accelerator asks by `name` (_ON_DEMAND), its module loaded"""
    module, attribute = _ON_DEMAND[name]
    return getattr(load_on_demand(module), attribute)


def load_on_demand(name: str):
    """the runtime's module `name` (one of LOADED_ON_DEMAND), loaded as
    load() loads a module if it is not yet, with its modules below; once
    done, when another thread is loading it (its first need may come in
    several threads at once)"""
    module = _ready.get(name)
    if module is not None:
        return module
    for below in LOADED_AT_START[: LOADED_AT_START.index(name) + 1]:
        fullname = f'{__name__}.{below}'
        module = sys.modules.get(fullname)
        if module is None:
            load_with_start_builtins = _load_cached_on_demand
            if load_with_start_builtins is None:  # (the pure runtime: as at its start)
                _load_cached(fullname, below)
            else:
                load_with_start_builtins(fullname, below, _start_builtins)
        elif getattr(getattr(module, '__spec__', None), '_initializing', False):
            with _bootstrap._ModuleLockManager(fullname):
                pass  # (held by the thread that loads it; this one's own: re-entrant)
    module = sys.modules[f'{__name__}.{name}']
    if not getattr(module.__spec__, '_initializing', False):
        _ready[name] = module
    return module


# the modules of LOADED_ON_DEMAND that load_on_demand found loaded and done
# (the pure paths of api ask at each statement that attaches a submodule)
_ready: dict = {}


_bootstrap = sys.modules['_frozen_importlib']
_external = sys.modules['_frozen_importlib_external']
_HERE = __path__[0]


def _load_cached(fullname: str, name: str, builtins: 'dict | None' = None) -> None:
    source = _external._path_join(_HERE, name + '.py')
    try:
        cached = _external.cache_from_source(source)
        status = _external._path_stat(source)
        with _external._io.open_code(cached) as file:
            data = file.read()
        if _external._classify_pyc(data, fullname, {}) != 0:  # (hash-based: importlib decides)
            raise ImportError(fullname)
        _external._validate_timestamp_pyc(data, int(status.st_mtime), status.st_size, fullname, {})
    except (ImportError, OSError, EOFError):
        _bootstrap._gcd_import(fullname)
        return
    code = _external.marshal.loads(memoryview(data)[16:])
    _external._imp._fix_co_filename(code, source)
    spec = _bootstrap.ModuleSpec(fullname, _external.SourceFileLoader(fullname, source), origin=source)
    spec.cached = cached
    spec.has_location = True
    with _bootstrap._ModuleLockManager(fullname):
        if fullname in sys.modules:
            return  # (another thread loaded it meanwhile)
        module = _bootstrap.module_from_spec(spec)
        if builtins is not None:
            module.__dict__['__builtins__'] = builtins
        spec._initializing = True
        sys.modules[fullname] = module
        try:
            exec(code, module.__dict__)
        except BaseException:
            sys.modules.pop(fullname, None)
            raise
        finally:
            spec._initializing = False
        setattr(sys.modules[__name__], name, module)


# The builtins a module loaded on demand runs with: those of the runtime's
# start.  By then a program may have put its own `__import__` in builtins
# (3.15's test_lazy_import does, one that accepts one name), through which
# the module's own imports would go; at the start they went through the
# interpreter's (or through a hook the program had already installed).
# A copy: a module's `__builtins__` is its own, the interpreter's stay as
# they are.  (A module whose cache is stale is imported as any module is,
# through builtins as they are then.)  Kept with the accelerator only: the
# pure runtime loads every module at its start.
_start_builtins: 'dict | None' = None
# and _load_cached with them for its own frame too: `open_code` imports `_io`
# through the builtins of the frame that calls it
_load_cached_on_demand: 'Callable[[str, str, dict | None], None] | None' = None


def _keep_start_builtins() -> None:
    global _start_builtins, _load_cached_on_demand
    _start_builtins = dict(vars(sys.modules['builtins']))
    _load_cached_on_demand = type(load)(  # type: ignore[misc]
        _load_cached.__code__, {**globals(), '__builtins__': _start_builtins}
    )  # (a FunctionType: `types` is not imported)
