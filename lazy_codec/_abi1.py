"""Entry points of rewritten code, version 1, as bytecode cached by 0.1
imports them (`from lazy_codec._abi1 import lazy_import as ...`): these names
keep their meaning for as long as the package exists.  Later rewrites reach
the same functions through the builtin `__lazy_codec_abi1__` (see
lazy_codec/__init__.py), with no import.  A change of meaning is a new
version (`_abi2`, `__lazy_codec_abi2__`) and a new rewrite; this one stays.
"""

from lazy_codec.runtime.api import (
    lazy_from,
    lazy_import,
    maybe_lazy_from,
    maybe_lazy_import,
    syntax_error,
)

__all__ = ('lazy_import', 'lazy_from', 'maybe_lazy_import', 'maybe_lazy_from', 'syntax_error')
