"""PEP 810 lazy imports (`lazy import x`) for CPython 3.9-3.14, by a source codec.

PYTEST_DONT_REWRITE (pytest loads lazy_codec.runtime.pytest_plugin, and would warn
in mode "all" that this package was imported before it could rewrite it)
"""

__version__ = '0.2.0'

# Importing lazy_codec or any of its modules installs nothing: the builtin
# entry object is the .pth's, or lazy_codec._entry's where no .pth ran (the
# codec glue and the IPython extension install it before rewritten code runs).
# And it imports nothing: in mode "all" from start, the package is imported
# for its hooks, before any lazy statement


def __getattr__(name):
    # `_entry_point`: what an earlier release's .pth calls (lazy_codec._entry's)
    if name == '_entry_point':
        from lazy_codec._entry import entry_point

        return entry_point
    raise AttributeError(f"module 'lazy_codec' has no attribute {name!r}")


def register_codec() -> None:
    """the entry point of lazy_codec.start (PEP 829: 3.15 runs it at start in
    place of the .pth's import line): registers the codec, whose module is
    imported only when a file with the cookie is decoded"""
    import codecs
    import sys

    codecs.register(_search)
    if 'install' in sys.argv:  # as the .pth does: see _startup.before_install
        from lazy_codec._startup import before_install

        before_install()


def _search(name):
    if name == 'lazy':
        from lazy_codec._codec import search

        return search(name)
    return None


def load_ipython_extension(ipython):
    """`%load_ext lazy_codec`: lazy statements in IPython/Jupyter cells"""
    from lazy_codec._entry import install_entry

    install_entry()  # (what rewritten cells call, where no .pth made it)
    from lazy_codec.tools.ipython import load_ipython_extension

    load_ipython_extension(ipython)


def unload_ipython_extension(ipython):
    from lazy_codec.tools.ipython import unload_ipython_extension

    unload_ipython_extension(ipython)
