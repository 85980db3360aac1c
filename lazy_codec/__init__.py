"""PEP 810 lazy imports (`lazy import x`) for CPython 3.9-3.14, by a source codec."""
__version__ = '0.1.0'
