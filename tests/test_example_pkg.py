"""examples/lazy_example_pkg, a package whose modules have the cookie,
installed from its wheel with pip into fresh venvs beside lazy_codec, as a
user installs it: `python -m lazy_example` and its console script show its
lazy imports at work.

And its bytecode.  pip byte-compiles what it installs in its own process, so
through the codec only when lazy_codec's .pth ran at that pip's start
(lazy_codec installed by an earlier pip run; the .pth then loads the codec
before pip 26.3 blocks imports).  Installed in the same pip run as
lazy_codec, its modules get bytecode from `python -m compileall` after the
install, as the README says.  A start that finds a module's bytecode does
not decode the module, so does not import the codec's module
(lazy_codec._codec): that is what the tests look at, under `python -B`,
which writes no bytecode, as with a read-only site-packages.

Everything runs in subprocesses."""

import os

from conftest import transcript
from test_install import check, make_venv, run, site_packages

MODULES = ('__init__', '__main__', 'report')
EXPECTED = [
    'imported lazy_example: json=no decimal=no statistics=no lazy_example.report=no',
    "summary: {'total': '3.30', 'count': 2}",
    'after summary: json=no decimal=yes statistics=no lazy_example.report=yes',
    'json: {"count": 2, "total": "3.30"}',
    'after to_json: json=yes decimal=yes statistics=no lazy_example.report=yes',
]


def pyc_files(python):
    """the bytecode files of the example's modules, where the import system looks"""
    package = os.path.join(site_packages(python), 'lazy_example')
    tag = check([python, '-c', 'import sys; print(sys.implementation.cache_tag)']).stdout.strip()
    return [os.path.join(package, '__pycache__', f'{module}.{tag}.pyc') for module in MODULES]


def decodes_at_start(python, cwd):
    """whether importing the example (its package and __main__) rewrites a
    module (the loader's rewrite; on 3.15 the codec's decode), in a start
    that writes no bytecode (-B)"""
    code = (
        'import sys, lazy_example, lazy_example.__main__; '
        "print('lazy_codec._loader' in sys.modules or 'lazy_codec._codec' in sys.modules)"
    )
    result = check([python, '-B', '-c', code], cwd=cwd)
    assert result.stdout.strip() in ('True', 'False'), transcript(result)
    return result.stdout.strip() == 'True'


def assert_example_runs_lazily(program, cwd):
    """`program` is [python, '-m', 'lazy_example'] or the console script"""
    result = run(program, cwd=cwd)
    assert result.returncode == 0, transcript(result)
    assert result.stdout.splitlines() == EXPECTED, transcript(result)
    assert result.stderr == '', transcript(result)


def wheel_of(wheels, name):
    (path,) = [os.path.join(wheels, f) for f in os.listdir(wheels) if f.startswith(name + '-')]
    return path


def test_installed_after_lazy_codec_pip_byte_compiles_it(tmp_path, wheels):
    python = make_venv(tmp_path / 'venv')
    # lazy_codec first, in its own pip run: its .pth runs at the next pip's start
    check([python, '-m', 'pip', 'install', '-q', '--no-deps', wheel_of(wheels, 'lazy_codec')])
    # pip compiles the example's modules as it installs them: they must
    # compile (-vv: pip logs compileall's output, errors included, at debug;
    # pip 26.3 logs a blocked import there too)
    installed = run([python, '-m', 'pip', 'install', '--no-deps', '-vv', wheel_of(wheels, 'lazy_example')])
    log = transcript(installed)
    assert installed.returncode == 0, log
    for error in ('SyntaxError', 'Error compiling', 'BlockedImportError', 'Skipping bytecode'):
        assert error not in log, log
    missing = [pyc for pyc in pyc_files(python) if not os.path.exists(pyc)]
    assert not missing, f'{missing} missing\n{log}'
    assert not decodes_at_start(python, tmp_path)
    assert_example_runs_lazily([python, '-m', 'lazy_example'], tmp_path)
    # the console script is the same program
    assert_example_runs_lazily([os.path.join(os.path.dirname(python), 'lazy-example')], tmp_path)


def test_installed_with_lazy_codec_compileall_after_install(tmp_path, wheels):
    python = make_venv(tmp_path / 'venv')
    # one pip run, as `pip install` of a package that depends on lazy_codec
    # does: the running pip had no .pth run at its start, so no codec, and
    # writes no bytecode for the cookie's modules (it says so only at debug)
    check([python, '-m', 'pip', 'install', '-q', '--no-index', '--find-links', wheels, 'lazy_example'])
    pycs = pyc_files(python)
    assert not [pyc for pyc in pycs if os.path.exists(pyc)]
    assert decodes_at_start(python, tmp_path)  # and would at every start, read-only
    # what the README says to do after such an install
    package = os.path.join(site_packages(python), 'lazy_example')
    check([python, '-m', 'compileall', '-q', package])
    assert_bytecode_serves_starts(python, pycs, tmp_path)


def assert_bytecode_serves_starts(python, pycs, tmp_path):
    """the example's bytecode is all there, a start decodes nothing, the
    example runs lazily, and those starts (which may write bytecode) found
    it valid: nothing was written again"""
    missing = [pyc for pyc in pycs if not os.path.exists(pyc)]
    assert not missing, missing
    written = {pyc: open(pyc, 'rb').read() for pyc in pycs}
    assert not decodes_at_start(python, tmp_path)
    assert_example_runs_lazily([python, '-m', 'lazy_example'], tmp_path)
    assert {pyc: open(pyc, 'rb').read() for pyc in pycs} == written
