"""The runtime: what rewritten code calls, on 3.9-3.14.  It may use the
rewrite (mode "all" rewrites modules as they load), never the tools; its
modules import each other as module objects where they form a circle.

    api          the entry points of rewritten code, 3.15's controls
                 (sys.set_lazy_imports, the filter, __lazy_import__) and the
                 names it gives sys, types and builtins
    binding      the lazy key in a module dict, and what a lookup of it does
    bytecode     what a frame is doing: a load, a peek, a store
    reify        LazyImportType, resolution, 3.15's error shapes
    modules      sys.lazy_modules, submodules through their packages
    rebuilder    the thread that makes dicts plain again
    accelerator  which runtime runs: the optional C accelerator (_accel.c:
                 the common case of a statement and of a first use in C,
                 the rest handed to the modules above) or these alone
    mode_all     the import hooks of mode "all" and __lazy_modules__, and
                 the code they reach that no finder loads (the main script,
                 runpy.run_path; pytest_plugin: pytest's test modules)
"""
