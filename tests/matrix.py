"""Run the test suite on every CPython 3.9-3.15 on this machine, one line each.

    python tests/matrix.py [--only 3.11,3.14] [PYTEST ARGS...]

Interpreters: pyenv's ~/.pyenv/versions/3.*, and 3.14/3.15 from
../shared/tools/get-reference-pythons (its prefix: $REFERENCE_PYTHONS, else
~/.cache/reference-pythons).  Each gets a venv in .venvs/<version> with the
test dependencies and lazy_codec really installed (`pip install .`, as a user
installs it), then runs pytest there.  Exit status 1 if any version fails.
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEST_DEPS = ('pytest', 'coverage', 'hypothesis', 'pytest-cov', 'ipython')
VERSIONS = ('3.9', '3.10', '3.11', '3.12', '3.13', '3.14', '3.15')


def reference_prefix() -> str:
    return os.environ.get('REFERENCE_PYTHONS') or os.path.expanduser('~/.cache/reference-pythons')


def find_interpreters() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted(glob.glob(os.path.expanduser('~/.pyenv/versions/3.*/bin/python3'))):
        m = re.search(r'/versions/(3\.\d+)\.', path)
        if m and m.group(1) in VERSIONS:
            found[m.group(1)] = path
    for version in ('3.14', '3.15'):
        path = os.path.join(reference_prefix(), 'bin', f'python{version}')
        if os.access(path, os.X_OK):
            found.setdefault(version, path)
    return dict(sorted(found.items(), key=lambda kv: tuple(map(int, kv[0].split('.')))))


def _run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)


def make_venv(version: str, python: str) -> str:
    venv = os.path.join(ROOT, '.venvs', version)
    vpy = os.path.join(venv, 'bin', 'python')
    if not os.access(vpy, os.X_OK):
        if _run([python, '-m', 'venv', venv]).returncode != 0:
            # Debian's interpreters come without ensurepip: bootstrap pip from
            # the wheel that get-reference-pythons downloaded
            _run([python, '-m', 'venv', '--without-pip', venv]).check_returncode()
            wheel = sorted(glob.glob(os.path.join(reference_prefix(), 'wheels', 'pip-*.whl')))[-1]
            _run([vpy, os.path.join(wheel, 'pip'), 'install', '-q', wheel]).check_returncode()
    pip = _run([vpy, '-m', 'pip', 'install', '-q', *TEST_DEPS])
    if pip.returncode != 0:
        raise SystemExit(f'{version}: installing {TEST_DEPS} failed:\n{pip.stdout}')
    # a real install (not -e): the .pth goes to site-packages as for users
    pip = _run([vpy, '-m', 'pip', 'install', '-q', '--force-reinstall', '--no-deps', ROOT])
    if pip.returncode != 0:
        raise SystemExit(f'{version}: installing lazy_codec failed:\n{pip.stdout}')
    return vpy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--only', help='comma-separated versions, e.g. 3.11,3.14')
    args, pytest_args = parser.parse_known_args(argv)
    interpreters = find_interpreters()
    if args.only:
        interpreters = {v: p for v, p in interpreters.items() if v in args.only.split(',')}
    missing = [v for v in VERSIONS if v not in interpreters]
    failed = []
    for version, python in interpreters.items():
        start = time.monotonic()
        vpy = make_venv(version, python)
        result = _run([vpy, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', *pytest_args],
                      cwd=ROOT)
        summary = (result.stdout.strip().splitlines() or ['(no output)'])[-1]
        status = 'ok' if result.returncode == 0 else 'FAIL'
        print(f'{version:5} {status:4} {summary}  ({time.monotonic() - start:.0f}s)', flush=True)
        if result.returncode != 0:
            failed.append(version)
            print(result.stdout[-20000:], flush=True)
    if missing and not args.only:
        print(f'not found here: {", ".join(missing)}')
    return 1 if failed or not interpreters else 0


if __name__ == '__main__':
    raise SystemExit(main())
