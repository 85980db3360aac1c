"""Entry points of rewritten code, version 1: bytecode that the rewrite of
any release wrote calls these names with these arguments, so they keep their
meaning for as long as the package exists.  A change of meaning is a new
module (`_abi2`) and a new rewrite; this one stays.
"""
from lazy_codec._runtime import (
    lazy_from, lazy_import, maybe_lazy_from, maybe_lazy_import, syntax_error,
)

__all__ = ('lazy_import', 'lazy_from', 'maybe_lazy_import', 'maybe_lazy_from', 'syntax_error')
