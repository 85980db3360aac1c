# -*- coding: lazy -*-
"""An example package that uses lazy imports: importing it imports neither
json nor decimal; each is imported the first time the code uses it."""

lazy import json

lazy from lazy_example.report import summary

__all__ = ('summary', 'to_json')


def to_json(obj):
    return json.dumps(obj, sort_keys=True)
