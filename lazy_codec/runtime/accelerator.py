"""Which runtime runs, for the tools (`python -m lazy_codec --version`) and
the tests: the optional C accelerator (lazy_codec/runtime/_accel_c/) or the
pure-Python runtime alone.  The pure runtime is the reference and the
fallback: the accelerator does the common case of a lazy statement and of a
first use in C and hands everything else to it.  The choice itself is
state.accel, made as the runtime loads (this module is not loaded then).

LAZY_CODEC_PURE=1 forces the pure runtime.  Free-threaded builds (3.13t,
3.14t) use it too: the accelerator relies on the GIL, as the runtime's dict
edits do (see rebuilder.in_one_call).
"""

import os

from lazy_codec.runtime.state import accel

__all__ = ['accel', 'runtime_name']


def runtime_name() -> str:
    """what `python -m lazy_codec --version` says runs"""
    if accel is not None:
        return 'C accelerator'
    if os.environ.get('LAZY_CODEC_PURE') == '1':
        return 'pure Python (LAZY_CODEC_PURE=1)'
    return 'pure Python (the C accelerator is not built here)'
