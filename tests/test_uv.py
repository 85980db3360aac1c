"""lazy_codec installed and used with uv, in fresh `uv venv`s of the
interpreter running pytest (they have no pip): `uv pip install` from the
source tree, regular and editable; `uv run` of a script with the cookie, in a
venv and with the script's own dependencies; `uv tool install` of the example
package's console script; `uv pip install --compile-bytecode`.

uv is the test venv's (tests/matrix.py installs it), else one on PATH, else
pip installs it into a temporary directory; the tests skip, saying so, only
when none can be had.  uv's cache and tool directories are temporary; wheels
come from the session's `wheels` directory (--no-index), and only the builds
from source reach the package index, for setuptools.  Everything runs in
subprocesses."""

import os
import shutil
import sys

import pytest
from conftest import run_process, transcript
from test_example_pkg import (
    assert_bytecode_serves_starts,
    assert_example_runs_lazily,
    decodes_at_start,
    pyc_files,
)
from test_install import PTH, REPO, assert_lazy_import_works, check, site_packages


def _find_uv(tmp_path_factory):
    """(path of a uv executable, None) or (None, why there is none)"""
    beside = os.path.join(os.path.dirname(sys.executable), 'uv')
    if os.access(beside, os.X_OK):
        return beside, None
    on_path = shutil.which('uv')
    if on_path:
        return on_path, None
    target = tmp_path_factory.mktemp('uv-install')
    result = run_process(
        [sys.executable, '-m', 'pip', 'install', '-q', '--target', target, 'uv'], timeout=300
    )
    installed = os.path.join(target, 'bin', 'uv')
    if result.returncode == 0 and os.access(installed, os.X_OK):
        return installed, None
    return (
        None,
        f'no uv beside {sys.executable} nor on PATH, and pip could not install it:\n{transcript(result)}',
    )


@pytest.fixture(scope='session')
def uv(tmp_path_factory):
    """runs uv with its cache under the session's temporary directory, no
    user or system configuration, no interpreter downloads"""
    path, why = _find_uv(tmp_path_factory)
    if path is None:
        print(why)
        pytest.skip(why)
    cache = tmp_path_factory.mktemp('uv-cache')

    def run_uv(*args, cwd=None, env=None, check=True):
        uv_env = dict(
            UV_CACHE_DIR=str(cache),
            UV_NO_CONFIG='1',
            UV_PYTHON_DOWNLOADS='never',
            UV_NO_PROGRESS='1',
            **(env or {}),
        )
        # the system's certificates, as pip uses, not only uv's own: where a
        # machine reaches the index through its own certificate authority
        # (UV_NATIVE_TLS: its older name)
        uv_env.update(UV_SYSTEM_CERTS='1', UV_NATIVE_TLS='1')
        result = run_process(
            [path, *map(str, args)],
            cwd=cwd,
            timeout=300,
            extra_env=uv_env,
            unset_env=('PYTHON*', 'UV_*', 'VIRTUAL_ENV*', 'CONDA*'),
        )
        if check:
            assert result.returncode == 0, f'uv {" ".join(map(str, args))}\n{transcript(result)}'
        return result

    return run_uv


def uv_venv(uv, path):
    """a venv made by uv of this interpreter; returns its python"""
    uv('venv', '-q', '--python', sys.executable, path)
    python = os.path.join(path, 'bin', 'python')
    assert not os.path.exists(os.path.join(path, 'bin', 'pip'))  # uv's venvs have none
    return python


@pytest.mark.parametrize('editable', [False, True], ids=['regular', 'editable'])
def test_uv_pip_install_from_source(uv, tmp_path, editable):
    python = uv_venv(uv, tmp_path / 'venv')
    # uv builds the tree with setuptools (from the package index), through
    # setup.py's build_py (a wheel) or editable_wheel (-e)
    target = ['-e', REPO] if editable else [REPO]
    uv('pip', 'install', '-q', '--python', python, *target)
    assert PTH in os.listdir(site_packages(python))
    where = check(
        [python, '-c', 'import lazy_codec; print(lazy_codec.__file__)'], cwd=tmp_path
    ).stdout.strip()
    in_repo = where == os.path.join(REPO, 'lazy_codec', '__init__.py')
    assert in_repo == editable, where
    assert_lazy_import_works(python, tmp_path)
    if os.environ.get('LAZY_CODEC_EXPECT_RUNTIME') == 'c':  # (the matrix: a compiler is here)
        shown = run_process(
            [python, '-m', 'lazy_codec', '--version'],
            cwd=tmp_path,
            check=True,
            unset_env=('PYTHON*', 'LAZY_CODEC_PURE'),
        ).stdout
        assert 'runtime: C accelerator' in shown, shown  # uv's build built the extension too
    # the .pth is in the install's RECORD: uninstalling removes it
    uv('pip', 'uninstall', '-q', '--python', python, 'lazy_codec')
    assert PTH not in os.listdir(site_packages(python))


def test_uv_run_script_in_uv_venv(uv, tmp_path, wheels):
    # `uv venv` makes .venv in the working directory, where `uv run` finds it
    uv('venv', '-q', '--python', sys.executable, cwd=tmp_path)
    uv('pip', 'install', '-q', '--no-index', '--find-links', wheels, 'lazy_codec', cwd=tmp_path)
    script = tmp_path / 'cookie_prog.py'
    script.write_text(
        '# -*- coding: lazy -*-\n'
        'import sys\n'
        'lazy import json\n'
        "print(sys.prefix == sys.argv[1], 'json' in sys.modules)\n"
        'json.dumps(1)\n'
        "print('json' in sys.modules)\n"
    )
    result = uv('run', '--no-project', script.name, tmp_path / '.venv', cwd=tmp_path)
    assert result.stdout.split() == ['True', 'False', 'True'], transcript(result)


def test_uv_run_script_with_inline_dependency(uv, tmp_path, wheels):
    # PEP 723: uv makes an environment with the script's dependencies
    script = tmp_path / 'cookie_prog.py'
    script.write_text(
        '# -*- coding: lazy -*-\n'
        '# /// script\n'
        '# dependencies = ["lazy_codec"]\n'
        '# ///\n'
        'import sys\n'
        'lazy import json\n'
        "print('json' in sys.modules)\n"
        'json.dumps(1)\n'
        "print('json' in sys.modules)\n"
    )
    result = uv(
        'run', '--no-index', '--find-links', wheels, '--python', sys.executable, script.name, cwd=tmp_path
    )
    assert result.stdout.split() == ['False', 'True'], transcript(result)


def test_uv_tool_install_example_cli(uv, tmp_path, wheels):
    tools, bin_dir = tmp_path / 'tools', tmp_path / 'bin'
    env = {'UV_TOOL_DIR': str(tools), 'UV_TOOL_BIN_DIR': str(bin_dir)}
    # the tool's environment gets lazy_codec as the example's dependency, and
    # uv compiles it with that environment's python: the .pth has run there
    uv(
        'tool',
        'install',
        '--no-index',
        '--find-links',
        wheels,
        '--python',
        sys.executable,
        '--compile-bytecode',
        'lazy_example',
        env=env,
    )
    assert_example_runs_lazily([bin_dir / 'lazy-example'], tmp_path)
    python = tools / 'lazy-example' / 'bin' / 'python'
    assert PTH in os.listdir(site_packages(python))
    missing = [pyc for pyc in pyc_files(python) if not os.path.exists(pyc)]
    assert not missing, missing
    assert not decodes_at_start(python, tmp_path)
    uv('tool', 'uninstall', 'lazy_example', env=env)
    assert not os.path.exists(bin_dir / 'lazy-example')


def test_uv_compile_bytecode_in_the_run_that_installs_lazy_codec(uv, tmp_path, wheels):
    python = uv_venv(uv, tmp_path / 'venv')
    # one run, lazy_codec as the example's dependency: uv compiles after
    # installing, in a new process of the venv's python, where the .pth runs
    # (pip, in its own process, cannot: see test_example_pkg.py)
    uv(
        'pip',
        'install',
        '-q',
        '--python',
        python,
        '--no-index',
        '--find-links',
        wheels,
        '--compile-bytecode',
        'lazy_example',
    )
    assert_bytecode_serves_starts(python, pyc_files(python), tmp_path)


def test_uv_pip_install_without_compile_bytecode_writes_none(uv, tmp_path, wheels):
    # uv's default: no bytecode for any package; the first start writes it
    # where it can (so the README's compileall step is for read-only ones)
    python = uv_venv(uv, tmp_path / 'venv')
    uv('pip', 'install', '-q', '--python', python, '--no-index', '--find-links', wheels, 'lazy_example')
    assert not [pyc for pyc in pyc_files(python) if os.path.exists(pyc)]
    assert decodes_at_start(python, tmp_path)
    assert_example_runs_lazily([python, '-c', 'import lazy_example.__main__ as m; m.main()'], tmp_path)
    missing = [pyc for pyc in pyc_files(python) if not os.path.exists(pyc)]
    assert not missing, missing
