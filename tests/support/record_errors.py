"""Record the SyntaxError 3.15 gives compiling each malformed lazy statement.

    python tests/support/record_errors.py PYTHON3.15

Writes tests/expected_errors/lazy_statements.json: [source, [msg, lineno,
offset, end_lineno, end_offset] or null] per source in SOURCES, which
tests/test_corpora.py compares the rewrite's errors with.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(os.path.dirname(HERE), 'expected_errors', 'lazy_statements.json')

SOURCES = [
    # what follows `as` (3.15's invalid_import rules name the expression)
    'lazy import a.b as c.d\n',
    'lazy import a as b c\n',
    'lazy import a as b;x\n',
    'lazy import a as b.c, d\n',
    'lazy from m import a as b as c\n',
    'lazy from m import (a as b.c)\n',
    'lazy import a as ...\n',
    'lazy import a as 1\n',
    'lazy import a as f()\n',
    'lazy import a as x[1]\n',
    'lazy import a as b + c\n',
    'lazy import a as "s"\n',
    'lazy import a as (b)\n',
    'lazy import a as *b\n',
    'lazy import a as -b\n',
    'lazy import a as b.c.d\n',
    'lazy import a as b as c\n',
    'lazy import a.b as c.d.e\n',
    'lazy from m import a as True\n',
    'lazy import a as None\n',
    'lazy import a as lambda: 1\n',
    'lazy from m import (a,\n b as c.d)\n',
    'lazy from m import a as b c\n',
    'lazy import a as b < c\n',
    'lazy import a as b if c else d\n',
    'lazy import a as b and c\n',
    'lazy import a as [b]\n',
    'lazy import a as (b, c)\n',
    'lazy import a as {b: c}\n',
    'lazy import a as not b\n',
    # where the statement ends: the NEWLINE token (on a comment, after a continuation) or `;`
    'lazy from m import\n',
    'lazy from m import  # c\n',
    'lazy from m import;\n',
    'lazy from m import ;x\n',
    'lazy from . import\n',
    'lazy from m import a,\n',
    'lazy from m import a, ;x\n',
    'lazy from m import a,  # c\n',
    'lazy from m import a, \n',
    'lazy import a as\n',
    'lazy import a as \n',
    'lazy import a as # c\n',
    'lazy import a, \\\n\n',
    'lazy import a, \\\n  # c\n',
    'lazy import a, b,\n',
    'lazy import\n',
    'lazy import a as',
    'lazy from m import a,',
    # what the tokenizer rejects inside a lazy statement
    'lazy import a)\n',
    'lazy import a ]\n',
    'lazy from m import (a,\n    b\n',
    # the rest of the grammar
    'lazy import if\n',
    'lazy import a as None\n',
    'lazy from m import None\n',
    'lazy from import x\n',
    'def f():\n    lazy from import x\n',
    'lazy from m import (a,)\n',
    'lazy import a as b\n',
    'def f():\n    try:\n        lazy import a\n    except E:\n        pass\n',
    'class C:\n    try:\n        lazy import a\n    finally:\n        pass\n',
    'def f():\n    lazy import a\nbreak\n',
    'break\ndef f():\n    lazy import a\n',
    'lazy from m import *\nreturn\n',
]

PROBE = r"""
import json, sys
out = []
for src in json.load(sys.stdin):
    try:
        compile(src, "<src>", "exec", dont_inherit=True)
        out.append([src, None])
    except SyntaxError as e:
        out.append([src, [e.msg, e.lineno, e.offset, e.end_lineno, e.end_offset]])
print('[\n' + ',\n'.join(json.dumps(entry) for entry in out) + '\n]')
"""


def main(argv=None) -> int:
    (python,) = argv if argv is not None else sys.argv[1:]
    # a script of its own, run by any python (without pytest): not conftest's run_process
    out = subprocess.run(
        [python, '-c', PROBE],
        input=json.dumps(SOURCES),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    with open(EXPECTED, 'w', encoding='utf-8') as f:
        f.write(out)
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
