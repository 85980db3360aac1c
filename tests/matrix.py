"""Run the test suite on this interpreter and every other CPython 3.9-3.15 found here.

    python3 tests/matrix.py [--only 3.11,3.14] [--require 3.9,3.15 | --require-all] [PYTEST ARGS...]

Interpreters, the first found for each version:
  1. the one running this script;
  2. pyenv's ~/.pyenv/versions/3.X.* (the newest patch release);
  3. 3.14/3.15 from ../shared/tools/get-reference-pythons (its prefix:
     $REFERENCE_PYTHONS, else ~/.cache/reference-pythons);
  4. python3.X on PATH.
Each gets a venv in .venvs/<version> with the test dependencies
(pyproject.toml's: [project]'s dependencies and the `test` and `tools`
extras, from the package index, through pip) and lazy_codec really installed
(`pip install .`, as a user installs it), then runs pytest there: on 3.9-3.14 twice, with the
C accelerator (where the install could build it) and with the pure-Python
runtime (LAZY_CODEC_PURE=1).  Tests that need what is not
on this machine (3.15's own test suite, 3.15 as an oracle) skip, and their
reasons are printed.  The tests that compare with 3.15 use its recorded output
(tests/expected/) and need no 3.15.

Exit status 1 if a version that ran failed, if a version given to --require
(or any, with --require-all) was not found, if --require-all finds a 3.9-3.14
whose install could not build the accelerator, or if nothing ran; else 0.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENVS = os.path.join(ROOT, '.venvs')
PYPROJECT = os.path.join(ROOT, 'pyproject.toml')
VERSIONS = ('3.9', '3.10', '3.11', '3.12', '3.13', '3.14', '3.15')
MARKER = 'matrix-base.txt'  # in each venv: the interpreter it was made from

# run by each candidate interpreter: implementation, version, and the
# interpreter itself (not a venv's or a pyenv shim's: the one a venv is made of)
PROBE = r"""
import os, platform, sys
exe = sys.executable
if sys.prefix != sys.base_prefix:
    base = os.path.join(sys.base_prefix, 'bin', 'python%d.%d' % sys.version_info[:2])
    exe = base if os.access(base, os.X_OK) else getattr(sys, '_base_executable', exe)
print(platform.python_implementation(), '%d.%d' % sys.version_info[:2], platform.python_version(), exe)
"""


def reference_prefix() -> str:
    return os.environ.get('REFERENCE_PYTHONS') or os.path.expanduser('~/.cache/reference-pythons')


# no step may hang CI: a venv's installs, or one version's test run (about 3
# minutes here; the whole of CI is given 90)
STEP_TIMEOUT = 1200


def _run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault('timeout', STEP_TIMEOUT)
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)


def probe(python: str) -> tuple[str, str, str] | None:
    """(version 3.X, full version, base interpreter) of a CPython 3.9-3.15, else None"""
    try:
        proc = subprocess.run(
            [python, '-c', PROBE],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None  # e.g. a pyenv shim of a version that pyenv does not select
    fields = proc.stdout.strip().split(' ', 3)
    if len(fields) != 4 or fields[0] != 'CPython' or fields[1] not in VERSIONS:
        return None
    return fields[1], fields[2], fields[3]


def candidates() -> list[tuple[str, str]]:
    """(where it was found, path) in order of preference"""
    found = [('this interpreter', sys.executable)]

    def release(path):  # ~/.pyenv/versions/3.11.7/bin/python3 -> (3, 11, 7)
        m = re.search(r'/versions/(\d+)\.(\d+)\.(\d+)/bin/', path)
        return tuple(map(int, m.groups())) if m else (0,)

    pyenv = glob.glob(os.path.expanduser('~/.pyenv/versions/3.*/bin/python3'))
    found += [('pyenv', path) for path in sorted(pyenv, key=release, reverse=True)]
    for version in ('3.14', '3.15'):
        found.append(('reference', os.path.join(reference_prefix(), 'bin', f'python{version}')))
    for version in VERSIONS:
        path = shutil.which(f'python{version}')
        if path:
            found.append(('PATH', path))
    return [(where, path) for where, path in found if os.access(path, os.X_OK)]


def find_interpreters(verbose: bool = False) -> dict[str, str]:
    """version -> base interpreter, one per version found (see the docstring)"""
    found: dict[str, tuple[str, str, str]] = {}
    seen = set()
    for where, path in candidates():
        real = os.path.realpath(path)
        if real in seen:
            continue
        seen.add(real)
        info = probe(path)
        if info is not None and info[0] not in found:
            found[info[0]] = (info[2], info[1], where)
    found = dict(sorted(found.items(), key=lambda kv: tuple(map(int, kv[0].split('.')))))
    if verbose:
        for exe, full, where in found.values():
            print(f'found {full:8} {exe} ({where})', flush=True)
    return {version: exe for version, (exe, _, _) in found.items()}


def _pip_wheel() -> str | None:
    """a pip wheel, to give pip to a venv of an interpreter without ensurepip
    (Debian's): get-reference-pythons' download, else one fetched once with a
    pip this machine has"""
    for directory in (os.path.join(reference_prefix(), 'wheels'), os.path.join(VENVS, 'wheels')):
        wheels = sorted(glob.glob(os.path.join(directory, 'pip-*.whl')))
        if wheels:
            return wheels[-1]
    pythons = [sys.executable] + sorted(glob.glob(os.path.join(VENVS, '3.*', 'bin', 'python')))
    for python in pythons:
        if (
            _run(
                [
                    python,
                    '-m',
                    'pip',
                    'download',
                    '-q',
                    '--no-deps',
                    '-d',
                    os.path.join(VENVS, 'wheels'),
                    'pip',
                ]
            ).returncode
            == 0
        ):
            wheels = sorted(glob.glob(os.path.join(VENVS, 'wheels', 'pip-*.whl')))
            if wheels:
                return wheels[-1]
    return None


class SetupError(Exception):
    pass


# The dependencies are pyproject.toml's, their one list: [project]'s
# `dependencies` (lazy_codec itself goes in with --no-deps), the `test` extra,
# and the `tools` extra (the tools tests/test_source_tools.py runs over user
# files), installed apart so that one that cannot be installed on a version
# only skips its tests. This script runs on the system's python3 with nothing
# installed, 3.9 and 3.10 included, so without tomllib it reads them itself.


def _toml_strings(text: str, start: int) -> list[str]:
    """the strings of the TOML array opening at text[start] ('['), to its ']'"""
    token = re.compile(r"""\s+|#[^\n]*|,|\]|"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'""")
    strings, pos = [], start + 1
    while True:
        m = token.match(text, pos)
        if m is None:
            raise ValueError(f'pyproject.toml: not an array of strings at {text[pos : pos + 40]!r}')
        pos = m.end()
        if m.group() == ']':
            return strings
        if m.group(1) is not None:
            strings.append(json.loads(f'"{m.group(1)}"'))  # (TOML's escapes, as far as JSON has them)
        elif m.group(2) is not None:
            strings.append(m.group(2))


def _read_dependencies_minimal(text: str) -> dict[str, list[str]]:
    """what read_dependencies returns, from pyproject.toml's text, for the forms
    it has: `[project]`'s `dependencies = [...]` and `[project.optional-dependencies]`'s
    `name = [...]`, arrays of strings (anything else there is an error)"""
    found: dict[str, list[str]] = {}
    table = None
    line = re.compile(
        r"""^[ \t]*(?:\[\[?([^\]\n]*)\]\]?[ \t]*(?:#.*)?$"""
        r"""|([A-Za-z0-9_-]+|"[^"\n]*")[ \t]*=[ \t]*(\[)?)""",
        re.M,
    )
    for m in line.finditer(text):
        if m.group(1) is not None:
            table = m.group(1).strip()
            continue
        key = m.group(2).strip('"')
        wanted = (table == 'project' and key == 'dependencies') or table == 'project.optional-dependencies'
        if not wanted:
            continue
        if m.group(3) is None:
            raise ValueError(f'pyproject.toml: [{table}] {key} is not an array')
        found['' if table == 'project' else key] = _toml_strings(text, m.start(3))
    return found


def read_dependencies(path: str = PYPROJECT) -> dict[str, list[str]]:
    """{'': [project]'s dependencies, extra: its requirements} of pyproject.toml"""
    with open(path, 'rb') as f:
        data = f.read()
    try:
        import tomllib
    except ImportError:
        return _read_dependencies_minimal(data.decode('utf-8'))
    project = tomllib.loads(data.decode('utf-8'))['project']
    return {'': project.get('dependencies', []), **project.get('optional-dependencies', {})}


def _requirement_name(requirement: str) -> str:
    m = re.match(r'\s*([A-Za-z0-9][A-Za-z0-9._-]*)', requirement)
    return re.sub(r'[-_.]+', '-', m.group(1)).lower() if m else ''


def dependencies() -> tuple[list[str], list[str]]:
    """(what pip installs in one go: the runtime's and the test extra's
    dependencies; the tools, installed apart) from pyproject.toml"""
    deps = read_dependencies()
    try:
        tools = deps['tools']
        # the test extra names the tools as `lazy_codec[tools]`: they are installed apart
        test = [d for d in deps['test'] if _requirement_name(d) != 'lazy-codec']
        runtime = deps['']
    except KeyError as exc:
        raise SetupError(f'{PYPROJECT} has no {exc} dependencies') from None
    return runtime + test, tools


def make_venv(version: str, python: str) -> str:
    """.venvs/<version> made of `python`, with the test dependencies and
    lazy_codec installed; returns its python"""
    venv = os.path.join(VENVS, version)
    vpy = os.path.join(venv, 'bin', 'python')
    marker = os.path.join(venv, MARKER)
    base = os.path.realpath(python)
    try:
        with open(marker, encoding='utf-8') as f:
            fresh = f.read().strip() != base
    except OSError:
        fresh = True
    if not fresh and _run([vpy, '-m', 'pip', '--version']).returncode != 0:
        fresh = True  # its interpreter is gone, or it has no pip
    if fresh:
        shutil.rmtree(venv, ignore_errors=True)
        made = _run([python, '-m', 'venv', venv])
        if made.returncode != 0:
            # no ensurepip (Debian's interpreters): bootstrap pip from its wheel
            made = _run([python, '-m', 'venv', '--clear', '--without-pip', venv])
            if made.returncode != 0:
                raise SetupError(f'{python} -m venv {venv} failed:\n{made.stdout}')
            wheel = _pip_wheel()
            if wheel is None:
                raise SetupError(f'{python} -m venv has no pip, and no pip wheel could be had')
            made = _run([vpy, os.path.join(wheel, 'pip'), 'install', '-q', wheel])
            if made.returncode != 0:
                raise SetupError(f'installing pip from {wheel} failed:\n{made.stdout}')
        with open(marker, 'w', encoding='utf-8') as f:
            f.write(base + '\n')
    test_deps, tool_deps = dependencies()
    pip = _run([vpy, '-m', 'pip', 'install', '-q', *test_deps])
    if pip.returncode != 0:
        raise SetupError(f'installing {", ".join(test_deps)} failed:\n{pip.stdout}')
    if _run([vpy, '-m', 'pip', 'install', '-q', *tool_deps]).returncode != 0:
        for tool in tool_deps:  # one at a time: the others still install
            if _run([vpy, '-m', 'pip', 'install', '-q', tool]).returncode != 0:
                print(f'{version:5} note: {tool} could not be installed: its tests skip', flush=True)
    # a real install (not -e): the .pth goes to site-packages as for users
    pip = _run([vpy, '-m', 'pip', 'install', '-q', '--force-reinstall', '--no-deps', ROOT])
    if pip.returncode != 0:
        raise SetupError(f'installing lazy_codec failed:\n{pip.stdout}')
    return vpy


def skip_reasons(output: str) -> list[str]:
    """pytest -rs's lines ('SKIPPED [2] tests/x.py:10: why'), one per file and reason"""
    counts: dict[tuple[str, str], int] = {}
    for line in output.splitlines():
        m = re.match(r'SKIPPED \[(\d+)\] (?:tests/)?([^:]+):\d+: (.*)', line)
        if m:
            key = (m.group(2), m.group(3))
            counts[key] = counts.get(key, 0) + int(m.group(1))
    return [f'{n} skipped in {name}: {why}' for (name, why), n in counts.items()]


def _pytest(vpy: str, pytest_args: list[str], env: dict) -> subprocess.CompletedProcess:
    try:
        return _run(
            [vpy, '-m', 'pytest', '-q', '-rs', '-p', 'no:cacheprovider', *pytest_args], cwd=ROOT, env=env
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode(errors='replace') if isinstance(exc.stdout, bytes) else exc.stdout or ''
        return subprocess.CompletedProcess(exc.cmd, 1, out + f'\ntimed out after {STEP_TIMEOUT} s')


def versions_arg(text: str, parser: argparse.ArgumentParser) -> list[str]:
    versions = [v.strip() for v in text.split(',') if v.strip()]
    unknown = [v for v in versions if v not in VERSIONS]
    if unknown:
        parser.error(f'not one of {", ".join(VERSIONS)}: {", ".join(unknown)}')
    return versions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], epilog='Other arguments go to pytest.'
    )
    parser.add_argument('--only', help='comma-separated versions to run, e.g. 3.11,3.14')
    parser.add_argument(
        '--require', default='', help='comma-separated versions that must be found (else exit 1)'
    )
    parser.add_argument(
        '--require-all', action='store_true', help=f'every one of {", ".join(VERSIONS)} must be found'
    )
    args, pytest_args = parser.parse_known_args(argv)
    only = versions_arg(args.only, parser) if args.only else list(VERSIONS)
    required = list(VERSIONS) if args.require_all else versions_arg(args.require, parser)
    print(
        f'looking for CPython {", ".join(only)}: this interpreter, pyenv (~/.pyenv/versions), '
        f'the reference prefix ({reference_prefix()}), PATH',
        flush=True,
    )
    found = find_interpreters(verbose=True)
    interpreters = {v: p for v, p in found.items() if v in only}
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ('PYTHONPATH', 'PYTHONHOME', 'LAZY_CODEC_PURE', 'LAZY_CODEC_EXPECT_RUNTIME')
    }
    passed, failed = [], []
    for version, python in interpreters.items():
        start = time.monotonic()
        try:
            vpy = make_venv(version, python)
        except (SetupError, subprocess.TimeoutExpired) as exc:
            failed.append(version)
            print(
                f'{version:5} FAIL setting up .venvs/{version} ({time.monotonic() - start:.0f}s): {exc}',
                flush=True,
            )
            continue
        # (asked outside the checkout, whose lazy_codec is the source: the venv's)
        runtime = _run([vpy, '-m', 'lazy_codec', '--version'], cwd=VENVS, env=env).stdout.strip()
        if version == '3.15':
            runs = [('native', {})]
        elif 'C accelerator' in runtime:
            runs = [
                ('C accelerator', {'LAZY_CODEC_EXPECT_RUNTIME': 'c'}),
                ('pure', {'LAZY_CODEC_PURE': '1', 'LAZY_CODEC_EXPECT_RUNTIME': 'pure'}),
            ]
        else:  # not built (no compiler or headers): the pure runtime, once
            runs = [('pure, not built', {'LAZY_CODEC_EXPECT_RUNTIME': 'pure'})]
            if args.require_all:
                failed.append(version)
                print(f'{version:5} FAIL the C accelerator was not built: {runtime}', flush=True)
        for label, extra in runs:
            start = time.monotonic()
            result = _pytest(vpy, pytest_args, {**env, **extra})
            summary = (result.stdout.strip().splitlines() or ['(no output)'])[-1]
            status = 'ok' if result.returncode == 0 else 'FAIL'
            print(
                f'{version:5} {status:4} [{label}] {summary}  ({time.monotonic() - start:.0f}s)', flush=True
            )
            for reason in skip_reasons(result.stdout):
                print(f'        {reason}', flush=True)
            if result.returncode != 0:
                if version not in failed:
                    failed.append(version)
                print(result.stdout[-20000:], flush=True)
        if version not in failed:
            passed.append(version)
    missing = [v for v in only if v not in interpreters]
    missing_required = [v for v in required if v not in found]
    ran = [v for v in interpreters if v in passed or v in failed]
    print(
        f'ran: {", ".join(ran) or "none"}'
        f' (passed: {", ".join(passed) or "none"}; failed: {", ".join(failed) or "none"})'
    )
    if missing:
        print(f'not found here: {", ".join(missing)}')
    if missing_required:
        print(f'required and not found: {", ".join(missing_required)}')
    if not interpreters:
        print('no CPython 3.9-3.15 found: nothing ran')
    return 1 if failed or missing_required or not interpreters else 0


if __name__ == '__main__':
    raise SystemExit(main())
