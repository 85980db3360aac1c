"""examples/lazy_example_pkg, a package whose modules have the cookie, built
into a wheel and installed with pip into a fresh venv beside lazy_codec, as a
user installs it: pip byte-compiles its modules at install time (through the
codec), and `python -m lazy_example` shows its lazy imports at work.

Building needs setuptools in pip's isolated build environment (pip fetches
it).  Everything runs in subprocesses."""
import concurrent.futures
import glob
import os
import sys

import pytest

from test_install import REPO, check, isolation_args, make_venv, output, run, site_packages

EXAMPLE = os.path.join(REPO, 'examples', 'lazy_example_pkg')
MODULES = ('__init__', '__main__', 'report')


def test_example_wheel_installs_byte_compiled_and_runs_lazily(tmp_path):
    wheels = tmp_path / 'wheels'
    # the two slow steps, side by side: the wheel's build and the venv's pip
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        venv = pool.submit(make_venv, tmp_path / 'venv')
        check([sys.executable, '-m', 'pip', 'wheel', '-q', '--no-deps', '-w', wheels, EXAMPLE])
        python = venv.result()
    (wheel,) = glob.glob(os.path.join(wheels, 'lazy_example-*.whl'))
    # lazy_codec first, in its own pip run: pip byte-compiles with the codec
    # that its own process registered at start, so a run that installs both
    # writes no .pyc for the example (and says nothing about it)
    check([python, '-m', 'pip', 'install', '-q', '--no-deps', *isolation_args(python), REPO])
    # pip compiles the example's modules as it installs them: they must
    # compile (-vv: pip logs compileall's output, errors included, at debug)
    installed = run([python, '-m', 'pip', 'install', '--no-deps', '-vv', wheel])
    log = output(installed)
    assert installed.returncode == 0, log
    # pip >= 26 blocks imports once it starts installing, and the codec's
    # lookup imports (`encodings.lazy`, then lazy_codec._codec): no .pyc
    blocked = "BlockedImportError: Blocked import of 'encodings.lazy'" in log
    package = os.path.join(site_packages(python), 'lazy_example')
    tag = check([python, '-c', 'import sys; print(sys.implementation.cache_tag)']).stdout.strip()
    pycs = [os.path.join(package, '__pycache__', f'{module}.{tag}.pyc') for module in MODULES]
    if not blocked:
        assert 'SyntaxError' not in log and 'Error compiling' not in log, log
        missing = [pyc for pyc in pycs if not os.path.exists(pyc)]
        assert not missing, f'{missing} missing\n{log}'
    result = run([python, '-m', 'lazy_example'], cwd=tmp_path)
    assert result.returncode == 0, output(result)
    assert result.stdout.splitlines() == [
        'imported lazy_example: json=no decimal=no statistics=no lazy_example.report=no',
        "summary: {'total': '3.30', 'count': 2}",
        'after summary: json=no decimal=yes statistics=no lazy_example.report=yes',
        'json: {"count": 2, "total": "3.30"}',
        'after to_json: json=yes decimal=yes statistics=no lazy_example.report=yes',
    ], output(result)
    assert result.stderr == '', output(result)
    # the console script is the same program
    script = os.path.join(os.path.dirname(python), 'lazy-example')
    assert run([script], cwd=tmp_path).stdout == result.stdout
    if blocked:
        pytest.xfail("pip's import blocker kept it from byte-compiling the cookie's "
                     'modules at install time (they compile at first import)')
