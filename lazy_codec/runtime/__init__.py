"""The runtime: what rewritten code calls, on 3.9-3.14.  It may use the
rewrite (mode "all" rewrites modules as they load), never the tools; its
modules import one way (tests/test_layers.py holds them to it).

    state        all the runtime's mutable state, each piece with its
                 invariant (a leaf: the modules below import one way, each
                 only what is listed before it)
    bytecode     what a frame is doing: a load, a peek, a store
    lazy         LazyImportType, the lazy object, with 3.15's look
    binding      the lazy key in a module dict, its edits, making a binding
    rebuilder    the thread that makes dicts plain again
    modules      submodules through their packages, as 3.15 attaches them
    resolution   resolving a lazy object; 3.15's error shapes
    lookup       what a lookup of a lazy key does (a load resolves)
    api          the entry points of rewritten code, 3.15's controls
                 (sys.set_lazy_imports, the filter, __lazy_import__) and the
                 names it gives sys, types and builtins; it loads the rest
    accelerator  which runtime runs: the optional C accelerator (_accel.c:
                 the common case of a statement and of a first use in C,
                 the rest handed to the modules above) or these alone
    mode_all     the import hooks of mode "all" and __lazy_modules__, and
                 the code they reach that no finder loads (the main script,
                 runpy.run_path; pytest_plugin: pytest's test modules)
"""
