"""Which runtime runs: the optional C accelerator (lazy_codec/runtime/_accel.c,
built where the install found a C compiler and the interpreter's headers) or
the pure-Python runtime alone.  The pure runtime is the reference and the
fallback: the accelerator does the common case of a lazy statement and of a
first use in C and hands everything else to it.

LAZY_CODEC_PURE=1 forces the pure runtime.  Free-threaded builds (3.13t,
3.14t) use it too: the accelerator relies on the GIL, as the runtime's dict
edits do (see rebuilder.in_one_call).
"""

import os
import sys


def _load():
    if os.environ.get('LAZY_CODEC_PURE') == '1':
        return None
    gil_enabled = getattr(sys, '_is_gil_enabled', None)
    if gil_enabled is not None and not gil_enabled():
        return None
    try:
        import lazy_codec.runtime._accel as _accel  # (a built extension: mypy has no stub of it)
    except ImportError:  # (not built: no compiler or no headers at install)
        return None
    return _accel


# the extension module, or None where the pure runtime runs alone
accel = _load()


def runtime_name() -> str:
    """what `python -m lazy_codec --version` says runs"""
    if accel is not None:
        return 'C accelerator'
    if os.environ.get('LAZY_CODEC_PURE') == '1':
        return 'pure Python (LAZY_CODEC_PURE=1)'
    return 'pure Python (the C accelerator is not built here)'
