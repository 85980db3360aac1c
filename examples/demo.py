# -*- coding: lazy -*-
"""lazy_codec demo: PEP 810 lazy imports on this interpreter.

Run it:  python examples/demo.py   (with lazy_codec installed)
"""

import sys
import time

start = time.perf_counter()
lazy import asyncio
lazy import json
lazy import xml.dom.minidom
lazy from fractions import Fraction

statements_ms = (time.perf_counter() - start) * 1000

WATCHED = ('asyncio', 'json', 'fractions', 'xml', 'xml.dom', 'xml.dom.minidom')


def imported():
    return [name for name in WATCHED if name in sys.modules]


print(f'Python {sys.version.split()[0]}: four lazy import statements ran in {statements_ms:.2f} ms')
print('  imported so far:', imported() or 'nothing')
print('  json is bound to:', repr(globals()['json']))
print('json.dumps(...) ->', json.dumps({'lazy': True}))
print('  imported so far:', imported())
print('Fraction(1, 3) ->', Fraction(1, 3))
print('  imported so far:', imported())
print(
    '  asyncio and xml.dom.minidom were never used, so never imported:',
    'asyncio' not in sys.modules and 'xml.dom.minidom' not in sys.modules,
)
