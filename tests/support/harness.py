"""Run a case (a small program: files + command line) and normalize its output.

A case's `.py` files start with `{COOKIE}`: `# -*- coding: lazy -*-` when the
backport runs it, `# -*- coding: utf-8 -*-` when native 3.15 records it, so
that lines are the same in both.  What a case prints, its exit status and
(for mode 'tail') the end of its stderr are compared with 3.15's recording.

Run as a script (`python3 tests/support/harness.py PYTHON3.15 [CASE...]`) it records
that output; it runs cases with conftest's run_process, so pytest must be
importable by the python running it.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile

# tests/, where conftest is (when run as a script, only this folder is on sys.path)
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from conftest import COOKIE, run_process

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(os.path.dirname(HERE), 'expected')
LAZY_COOKIE = COOKIE.rstrip('\n')
NATIVE_COOKIE = '# -*- coding: utf-8 -*-'

# helper modules every case can import: each says when it is imported
COMMON = {
    'heavy.py': (
        "print('import heavy')\n"
        'X = 1\n'
        "def f():\n    return 'heavy.f'\n"
        'class Err(Exception):\n    pass\n'
        'class Base:\n    pass\n'
        'def deco(fn):\n    fn.decorated = True\n    return fn\n'
    ),
    'other.py': "print('import other')\nY = 2\n",
    'pkg/__init__.py': "print('import pkg')\n",
    'pkg/sub.py': "print('import pkg.sub')\nZ = 3\n",
    'pkg/sub2.py': "print('import pkg.sub2')\nW = 4\n",
    'pkg/deep/__init__.py': "print('import pkg.deep')\n",
    'pkg/deep/leaf.py': "print('import pkg.deep.leaf')\nL = 5\n",
    'broken.py': "print('import broken')\nx = 1 / 0\n",
    'probe.py': (
        'import os, sys, traceback\n'
        "WATCHED = ('heavy', 'other', 'pkg', 'broken', 'noattr', 'nosuch', 'json', 'os', 'fractions', "
        "'colorsys')\n"
        'def loaded():\n'
        "    return sorted(m for m in sys.modules if m.split('.')[0] in WATCHED and m not in "
        "('os', 'os.path', 'json') and not m.startswith(('json.', 'os.')))\n"
        'def lazy_mods():\n'
        "    return sorted(m for m in getattr(sys, 'lazy_modules', ()) if m.split('.')[0] in WATCHED)\n"
        'def kind(ns, name):\n'
        "    return type(ns.get(name, None)).__name__ if name in ns else '<unbound>'\n"
        "_RUNTIME_DIR = os.path.join('lazy_codec', 'runtime', '')\n"
        'def frames(exc):\n'
        "    # the backport's own frames (its runtime's modules: one where a\n"
        '    # name is reified, or where a statement fails) are a documented\n'
        '    # difference: leave them out\n'
        '    out = []\n'
        '    for fs in traceback.extract_tb(exc.__traceback__):\n'
        '        if _RUNTIME_DIR in fs.filename:\n'
        '            continue\n'
        "        out.append(f'{os.path.basename(fs.filename)}:{fs.lineno}:{fs.name}: {fs.line}')\n"
        '    return out\n'
        'def describe(exc):\n'
        "    print('  error:', type(exc).__name__, exc)\n"
        '    for f in frames(exc):\n'
        "        print('    at', f)\n"
        '    cause = exc.__cause__\n'
        '    if cause is not None:\n'
        "        print('  cause:', type(cause).__name__, cause)\n"
        '        for f in frames(cause):\n'
        "            print('    at', f)\n"
        "    print('  context:', type(exc.__context__).__name__, 'suppress:', exc.__suppress_context__, "
        "'notes:', getattr(exc, '__notes__', None))\n"
        'def syntax(exc):\n'
        "    print('  syntax:', type(exc).__name__, repr(exc.msg), os.path.basename(exc.filename or ''), "
        'exc.lineno, exc.offset,\n'
        "          getattr(exc, 'end_lineno', None) if sys.version_info >= (3, 10) else 'n/a', "
        "getattr(exc, 'end_offset', None) if sys.version_info >= (3, 10) else 'n/a', repr(exc.text))\n"
    ),
    'noattr.py': (
        "print('import noattr')\n"
        "def __getattr__(name):\n    raise AttributeError(f'noattr has no {name} (custom)')\n"
    ),
}


# the same cookie spelled other ways: without -*-, in capitals
SPELLINGS = {
    LAZY_COOKIE: {'{PLAINCOOKIE}': '# coding: lazy', '{UPPERCOOKIE}': '# -*- coding: LAZY -*-'},
    NATIVE_COOKIE: {'{PLAINCOOKIE}': '# coding: utf-8', '{UPPERCOOKIE}': '# -*- coding: UTF-8 -*-'},
}


# `lazy ` at the start of a statement: what the eager program leaves out
_LAZY_KEYWORD = re.compile(rb'(?m)^([ \t]*)lazy[ \t]+(?=import\b|from\b)')


def write_case(case: dict, directory: str, cookie: str, eager: bool = False) -> None:
    files = dict(COMMON)
    files.update(case['files'])
    replacements = dict(SPELLINGS[cookie], **{'{COOKIE}': cookie})
    for name, data in files.items():
        path = os.path.join(directory, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if isinstance(data, str):
            data = data.encode('utf-8')
        for placeholder, text in replacements.items():
            data = data.replace(placeholder.encode(), text.encode())
        if eager:
            data = _LAZY_KEYWORD.sub(rb'\1', data)
        with open(path, 'wb') as f:
            f.write(data)


def _syntax_tail(stderr: str) -> str:
    """the interpreter's report of the last exception, without the parts
    whose drawing differs by version (caret lines) or is ours by design (the
    extra `<module>` frame of a rewritten SyntaxError)"""
    lines = stderr.rstrip('\n').splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith('  File "')]
    tail = lines[starts[-1] :] if starts else lines[-1:]
    return '\n'.join(line for line in tail if line.strip(' ^~') != '')


def normalize(text: str, directory: str) -> str:
    text = text.replace(os.path.realpath(directory), '<TMP>').replace(directory, '<TMP>')
    text = re.sub(r' at 0x[0-9a-fA-F]+', ' at 0x?', text)
    return text


def run_case(case: dict, python: str, cookie: str, env: dict | None = None, eager: bool = False) -> str:
    directory = tempfile.mkdtemp(prefix='lazycase')
    try:
        write_case(case, directory, cookie, eager)
        proc = run_process(
            [python, *case.get('argv', ['main.py'])],
            cwd=directory,
            input=case.get('stdin', ''),
            unset_env=('PYTHONPATH', 'PYTHON_LAZY_IMPORTS', 'PYTHONDONTWRITEBYTECODE', 'PYTHONWARNINGS'),
            extra_env={**case.get('env', {}), **(env or {}), 'PYTHONIOENCODING': 'utf-8'},
            timeout=case.get('timeout', 120),
        )
        out = proc.stdout
        if case.get('mode') == 'tail':
            out += '--- stderr tail\n' + _syntax_tail(proc.stderr) + '\n'
        elif proc.stderr:
            out += '--- stderr\n' + proc.stderr
        out += f'--- exit {proc.returncode}\n'
        return normalize(out, directory)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def expected_path(name: str) -> str:
    return os.path.join(EXPECTED, f'{name}.txt')


def all_cases() -> dict[str, dict]:
    """every differential case by name, from the modules that hold them"""
    import cases
    import cases_cookieless
    import cases_faults
    import cases_firstuse
    import cases_namespaces
    import cases_reach
    import cases_realcode

    collected = {}
    for module in (
        cases,
        cases_faults,
        cases_realcode,
        cases_reach,
        cases_cookieless,
        cases_firstuse,
        cases_namespaces,
    ):
        clash = collected.keys() & module.CASES.keys()
        assert not clash, f'{module.__name__} names cases already named: {sorted(clash)}'
        collected.update(module.CASES)
    return collected


def record(python: str, names: list[str] | None = None) -> int:
    """write 3.15's output for every case (or `names`) to tests/expected/"""
    os.makedirs(EXPECTED, exist_ok=True)
    for name, case in all_cases().items():
        if names and name not in names or case['oracle'] != 'native':
            continue
        out = run_case(case, python, NATIVE_COOKIE)
        with open(expected_path(name), 'w', encoding='utf-8') as f:
            f.write(out)
        print(f'recorded {name}')
    return 0


if __name__ == '__main__':
    # python tests/support/harness.py PYTHON3.15 [CASE...]: re-record expected output
    raise SystemExit(record(sys.argv[1], sys.argv[2:]))
