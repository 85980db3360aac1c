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
    accelerator  which runtime runs, for the tools (the choice is
                 state.accel: the optional C accelerator, _accel_c/, does
                 the common case of a statement and of a first use in C and
                 hands the rest to the modules above; or these alone)
    mode_all     the import hooks of mode "all" and __lazy_modules__, and
                 the code they reach that no finder loads (the main script,
                 runpy.run_path; pytest_plugin: pytest's test modules)
"""

import sys

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


def load() -> None:
    """load the runtime (LOADED_AT_START), each module from its cached
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
        if fullname not in sys.modules:
            _load_cached(fullname, name)


_bootstrap = sys.modules['_frozen_importlib']
_external = sys.modules['_frozen_importlib_external']
_HERE = __path__[0]


def _load_cached(fullname: str, name: str) -> None:
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
