"""Differential cases about faults at run time (see cases.py for the format)."""
from cases import CASES, case  # noqa: F401
