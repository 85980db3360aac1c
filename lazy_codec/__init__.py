"""PEP 810 lazy imports (`lazy import x`) for CPython 3.9-3.14, by a source codec."""
__version__ = '0.1.0'

# the stable names rewritten code calls: bytecode cached by one release must
# run with the next, so these never change meaning (see _abi1.py).  Here,
# where both the rewrite and the runtime find them without importing the other.
ENTRY_MODULE = 'lazy_codec._abi1'
ENTRY_NAME = '__lazy_codec_abi1__'


def load_ipython_extension(ipython):
    """`%load_ext lazy_codec`: lazy statements in IPython/Jupyter cells"""
    from lazy_codec._ipython import load_ipython_extension
    load_ipython_extension(ipython)


def unload_ipython_extension(ipython):
    from lazy_codec._ipython import unload_ipython_extension
    unload_ipython_extension(ipython)
