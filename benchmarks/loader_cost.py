"""What the source loaders' hooks cost programs that use no lazy syntax.

    python3 benchmarks/loader_cost.py [PYTHON ...]

For each interpreter: two fresh venvs, one with lazy_codec installed (`pip
install --no-deps .`) and one without it, but with a .pth of its own holding
one comment line, so that what site pays for any .pth is not counted against
us.  Not an empty one: 3.14's site decodes a .pth as UTF-8-sig, which imports
encodings.utf_8_sig (1.4 M instructions, about 3.7% of `-c pass`), except for
an empty file, whose decoding takes the interpreter's fast path for b''.
valgrind's callgrind counts the instructions (repeatable whatever else the
machine does, with PYTHONHASHSEED fixed) of:
  -c pass                 interpreter start
  import 300 modules      300 plain modules (no lazy syntax, no cookie),
                          from their cached bytecode: the get_code hook
  compile 300 modules     the same, with no bytecode (-B): the source_to_code hook
Prints a table of instructions and ratios installed / plain.  Then, in the
venv with lazy_codec, what mode "all"'s loader adds to an import: 300 modules
with no import statement (so that no lazy statement runs and the runtime
stays unloaded) imported with -X lazy_imports=all and without, less the same
with none imported (the mode's start), per module.  And the runtime's start:
a module whose one line is `lazy import json` imported, against one whose
line is `x = 1` (its lazy statement loads the runtime, and, where built, the
C accelerator).  Needs valgrind.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULES = 300


def venv(python: str, where: str, install: bool) -> str:
    vpy = os.path.join(where, 'bin', 'python')
    pip = [vpy, '-m', 'pip']
    if (
        subprocess.run(
            [python, '-m', 'venv', where], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        ).returncode
        != 0
    ):
        # no ensurepip (Debian's interpreters): this interpreter's pip installs there
        subprocess.run([python, '-m', 'venv', '--clear', '--without-pip', where], check=True)
        pip = [sys.executable, '-m', 'pip', '--python', vpy]
    site = subprocess.run(
        [vpy, '-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout.strip()
    if install:
        subprocess.run([*pip, 'install', '-q', '--no-deps', ROOT], check=True, stdout=subprocess.DEVNULL)
    else:
        with open(os.path.join(site, 'baseline.pth'), 'w') as f:
            f.write('# a .pth of the plain venv\n')
    return vpy


def instructions(cmd: list, cwd: str, env: dict) -> int:
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            ['valgrind', '--tool=callgrind', f'--callgrind-out-file={out}/cg.out', *cmd],
            cwd=cwd,
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        with open(f'{out}/cg.out') as f:
            return int(re.search(r'^summary: (\d+)', f.read(), re.M).group(1))


def modules(directory: str) -> None:
    os.makedirs(directory)
    for i in range(MODULES):
        with open(os.path.join(directory, f'plain_{i}.py'), 'w') as f:
            f.write(
                f'"""module {i}"""\nimport os\nimport sys\nVALUE = {i}\n\ndef f(x):\n    return x + VALUE\n'
            )
    with open(os.path.join(directory, 'all.py'), 'w') as f:
        f.write(''.join(f'import plain_{i}\n' for i in range(MODULES)))
    for i in range(MODULES):  # (mode "all"'s loader: no import to make lazy)
        with open(os.path.join(directory, f'bare_{i}.py'), 'w') as f:
            f.write(f'"""module {i}"""\nVALUE = {i}\n\ndef f(x):\n    return x + VALUE\n')


def measure(python: str) -> list:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        pythons = {
            label: venv(python, os.path.join(tmp, label), label == 'installed')
            for label in ('installed', 'plain')
        }
        env = {k: v for k, v in os.environ.items() if not k.startswith(('PYTHON', 'LAZY_CODEC'))}
        env['PYTHONHASHSEED'] = '0'  # (a random seed moves a count by up to 0.1 M)
        work = os.path.join(tmp, 'work')
        modules(work)
        for vpy in pythons.values():  # bytecode cached for the warm rows
            subprocess.run([vpy, '-c', 'import all'], cwd=work, env=env, check=True)
        for name, args in (
            ('-c pass', ['-c', 'pass']),
            (f'import {MODULES} modules', ['-c', 'import all']),
            (f'compile {MODULES} modules', ['-B', '-c', 'import all']),
        ):
            if name.startswith('compile'):
                shutil.rmtree(os.path.join(work, '__pycache__'), ignore_errors=True)
            counts = {}
            for label, vpy in pythons.items():
                if not name.startswith('compile'):
                    subprocess.run([vpy, *args], cwd=work, env=env, check=True)  # (any cache written first)
                counts[label] = instructions([vpy, *args], work, env)
            rows.append((name, counts['installed'], counts['plain']))
        rows.append(_mode_all_loader(pythons['installed'], work, env))
        rows.append(_runtime_start(pythons['installed'], work, env))
    return rows


def _mode_all_loader(vpy: str, work: str, env: dict) -> tuple:
    """('mode "all", per module', instructions a module in mode "all", in
    mode "normal"): the bare modules imported from -c (whose own imports
    are never lazy), less the mode's start"""
    counts = {}
    for mode in ('all', 'normal'):
        for count in (0, MODULES):
            program = f"[__import__(f'bare_{{i}}') for i in range({count})]"
            args = ['-X', f'lazy_imports={mode}', '-c', program]
            subprocess.run([vpy, *args], cwd=work, env=env, check=True)  # (bytecode cached first)
            counts[mode, count] = instructions([vpy, *args], work, env)
    return tuple(
        ['mode "all", per module']
        + [(counts[mode, MODULES] - counts[mode, 0]) / MODULES for mode in ('all', 'normal')]
    )


def _runtime_start(vpy: str, work: str, env: dict) -> tuple:
    """('one lazy statement', instructions importing a module of one lazy
    statement, of one plain line): the difference is the runtime's start"""
    with open(os.path.join(work, 'one_lazy.py'), 'w') as f:
        f.write('# -*- coding: lazy -*-\nlazy import json\n')
    with open(os.path.join(work, 'one_plain.py'), 'w') as f:
        f.write('x = 1\n')
    counts = []
    for module in ('one_lazy', 'one_plain'):
        args = ['-c', f'import {module}']
        subprocess.run([vpy, *args], cwd=work, env=env, check=True)  # (bytecode cached first)
        counts.append(instructions([vpy, *args], work, env))
    return ('one lazy statement', *counts)


def main(argv: list) -> int:
    if shutil.which('valgrind') is None:
        print('valgrind is not installed', file=sys.stderr)
        return 2
    for python in argv or [sys.executable]:
        version = subprocess.run(
            [python, '-c', 'import sys; print(sys.version.split()[0])'],
            check=True,
            stdout=subprocess.PIPE,
            text=True,
        ).stdout.strip()
        print(f'\nPython {version} ({python}): instructions, installed / plain venv')
        for name, installed, plain in measure(python):
            if name.startswith('mode'):  # (in the venv with lazy_codec: all / normal)
                print(f'  {name:22} {installed / 1e3:8.1f} K {plain / 1e3:8.1f} K  {installed / plain:.4f}')
            elif name.startswith('one lazy'):  # (in the venv with lazy_codec: lazy / plain line)
                added = (installed - plain) / 1e6
                print(f'  {name:22} {installed / 1e6:8.2f} M {plain / 1e6:8.2f} M  +{added:.2f} M')
            else:
                print(f'  {name:22} {installed / 1e6:8.2f} M {plain / 1e6:8.2f} M  {installed / plain:.4f}')
    return 0


if __name__ == '__main__':
    raise SystemExit(main(sys.argv[1:]))
