# -*- coding: lazy -*-
"""Totals of amounts given as strings, with decimal arithmetic."""

lazy import statistics
lazy from decimal import Decimal


def summary(amounts):
    values = [Decimal(a) for a in amounts]
    return {'total': str(sum(values)), 'count': len(values)}


def mean(amounts):  # never called by the example: statistics stays unimported
    return statistics.mean(Decimal(a) for a in amounts)
