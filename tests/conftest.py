"""What every test module shares: the one way to run a program in a
subprocess (`run_process`), the one way to write a test's files
(`write_files`) and to run one of them (`run_file`), the cookie, whether
this is 3.15 (`NATIVE`: the codec is a pass-through), and the session's
wheels."""

from __future__ import annotations

import fnmatch
import glob
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# the tests' support, not tests (pytest collects none there): the differential
# harness and its case tables, the recorders, CPython's suite and its adapter
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'support'))

# the codec's cookie, a file's first line (COOKIE.encode() where bytes are written)
COOKIE = '# -*- coding: lazy -*-\n'
# 3.15+: the interpreter parses `lazy` itself, the codec is plain UTF-8
NATIVE = sys.version_info >= (3, 15)


def _accelerated() -> bool:
    """does the installed runtime run with its C accelerator, in the programs
    the tests run (this environment, LAZY_CODEC_PURE included)?  Asked of
    a process outside the checkout, whose lazy_codec has no build of it"""
    if NATIVE:
        return False
    import tempfile

    with tempfile.TemporaryDirectory() as where:
        asked = subprocess.run(
            [
                sys.executable,
                '-c',
                'from lazy_codec.runtime.accelerator import accel; print(accel is not None)',
            ],
            cwd=where,
            capture_output=True,
            text=True,
        )
    return asked.returncode == 0 and asked.stdout.strip() == 'True'  # (harness.py's python may not have it)


ACCELERATED = _accelerated()


def run_process(
    cmd, *, cwd=None, input=None, unset_env=(), extra_env=None, timeout=120, text=True, check=False
) -> subprocess.CompletedProcess:
    """run `cmd` (its parts may be paths) to its end, stdout and stderr
    captured, in text unless `text=False`; never longer than `timeout`
    seconds, so that a hang fails its test instead of the whole run.

    The environment is this process's, without the variables whose names
    match a pattern of `unset_env` (fnmatch: 'PYTHON*' for all of pytest's
    PYTHONPATH & co.), then with `extra_env` set.  check=True asserts that
    the exit status is 0, showing the command and both streams if not."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not any(fnmatch.fnmatchcase(name, pattern) for pattern in unset_env)
    }
    env.update(extra_env or {})
    result = subprocess.run(
        [os.fspath(part) for part in cmd],
        cwd=cwd,
        env=env,
        input=input,
        capture_output=True,
        text=text,
        timeout=timeout,
    )
    if check:
        assert result.returncode == 0, f'{result.args}\n{transcript(result)}'
    return result


def write_files(directory, files: dict) -> None:
    """write each `name: text` of `files` under `directory` (folders made;
    bytes written as they are, str as UTF-8)"""
    for name, data in files.items():
        path = os.path.join(os.fspath(directory), name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'wb') as f:
            f.write(data if isinstance(data, bytes) else data.encode('utf-8'))


def run_file(directory, name: str, how: str = 'script', **kwargs) -> subprocess.CompletedProcess:
    """run module `name` (`name`.py in `directory`) as a script, or import it
    (how='import'), with run_process (its keyword arguments pass through)"""
    cmd = [sys.executable, f'{name}.py'] if how == 'script' else [sys.executable, '-c', f'import {name}']
    return run_process(cmd, cwd=directory, **kwargs)


def transcript(result: subprocess.CompletedProcess) -> str:
    """a finished process's exit status and both streams, for assertion messages"""
    out, err = result.stdout, result.stderr
    if isinstance(out, bytes):
        out, err = out.decode('utf-8', 'replace'), err.decode('utf-8', 'replace')
    return f'exit {result.returncode}\nstdout:\n{out}\nstderr:\n{err}'


@pytest.fixture(scope='session')
def wheels(tmp_path_factory):
    """a directory holding lazy_codec's wheel, its dependencies' and the
    example package's (examples/lazy_example_pkg), built once per session:
    installers take them from there, offline (`--no-index --find-links`)"""
    from test_install import REPO, check, isolation_args

    out = tmp_path_factory.mktemp('wheels')
    # with its dependencies' wheels, for installs that resolve them offline
    check([sys.executable, '-m', 'pip', 'wheel', '-q', *isolation_args(sys.executable), '-w', out, REPO])
    # the example's build gets setuptools in pip's isolated environment
    check(
        [
            sys.executable,
            '-m',
            'pip',
            'wheel',
            '-q',
            '--no-deps',
            '-w',
            out,
            os.path.join(REPO, 'examples', 'lazy_example_pkg'),
        ]
    )
    assert len(glob.glob(os.path.join(out, 'lazy_*.whl'))) == 2, os.listdir(out)
    return out
