"""lazy_codec as pip installs it, in fresh venvs of the interpreter running
pytest: the .pth registers the codec at start-up without importing anything;
editable installs, uninstalls, half-removed installs, `-S` and `-I`.
Everything runs in subprocesses."""

import ast
import glob
import os
import re
import shutil
import sys
import tarfile

import pytest
from conftest import run_process, transcript

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PTH = 'lazy_codec.pth'
PROGRAM = """\
# -*- coding: lazy -*-
import sys
lazy import json
print('json' in sys.modules)
json.dumps(1)
print('json' in sys.modules)
"""
# modules the codec's implementation needs; start-up must not import them
HEAVY = ('tokenize', 'tokenize_rt', 'ast', 're', 'argparse', 'typing')


def run(cmd, **kwargs):
    """run_process for the venvs: PYTHONPATH & co. of the pytest process
    must not leak into them, and an install may take minutes"""
    return run_process(cmd, unset_env=('PYTHON*',), timeout=300, **kwargs)


def check(cmd, **kwargs):
    """run(), asserting exit 0"""
    return run(cmd, check=True, **kwargs)


def make_venv(path):
    """a venv of sys.executable's interpreter, with pip; returns its python"""
    python = os.path.join(path, 'bin', 'python')
    result = run([sys.executable, '-m', 'venv', path])
    if result.returncode != 0:
        # Debian's 3.14/3.15 builds have no ensurepip: bootstrap pip from
        # the wheel that get-reference-pythons downloaded
        wheels = sorted(glob.glob(os.path.expanduser('~/.cache/reference-pythons/wheels/pip-*.whl')))
        if not wheels:
            pytest.skip(
                f'{sys.executable} -m venv fails (no ensurepip?) and there is no '
                f'~/.cache/reference-pythons/wheels/pip-*.whl to bootstrap pip:\n'
                f'{transcript(result)}'
            )
        check([sys.executable, '-m', 'venv', '--clear', '--without-pip', path])
        check([python, os.path.join(wheels[-1], 'pip'), 'install', '-q', wheels[-1]])
    return python


def isolation_args(python):
    # build with `python`'s own setuptools only if it is one pyproject.toml's
    # [build-system] asks for (>= 77: PEP 639's license fields); else pip
    # fetches it for the build
    has_tools = run(
        [python, '-c', 'import setuptools, sys; sys.exit(int(setuptools.__version__.split(".")[0]) < 77)']
    )
    return ['--no-build-isolation'] if has_tools.returncode == 0 else []


def site_packages(python):
    return check([python, '-c', 'import sysconfig; print(sysconfig.get_path("purelib"))']).stdout.strip()


def install_wheel(python, wheel):
    check([python, '-m', 'pip', 'install', '-q', '--no-deps', wheel])


def write_program(directory):
    # no 'lazy' in the name: tests look for that word in error messages
    path = os.path.join(directory, 'cookie_prog.py')
    with open(path, 'w') as f:
        f.write(PROGRAM)
    return path


def assert_lazy_import_works(python, directory, *options):
    script = write_program(directory)
    as_script = run([python, *options, script], cwd=directory)
    assert as_script.stdout.split() == ['False', 'True'], transcript(as_script)
    assert as_script.returncode == 0, transcript(as_script)
    # -I leaves the current directory off sys.path: put the program's there
    as_module = run(
        [python, *options, '-c', 'import sys; sys.path.insert(0, "."); import cookie_prog'], cwd=directory
    )
    assert as_module.stdout.split() == ['False', 'True'], transcript(as_module)
    assert as_module.returncode == 0, transcript(as_module)


def imported_modules(python):
    """names `python -X importtime -c pass` reports importing at start-up"""
    result = check([python, '-X', 'importtime', '-c', 'pass'])
    names = set()
    for line in result.stderr.splitlines():
        if line.startswith('import time:'):
            name = line.rsplit('|', 1)[1].strip()
            if name != 'imported package':  # the header line
                names.add(name)
    assert 'site' in names, f'cannot read -X importtime output:\n{transcript(result)}'
    return names


@pytest.fixture(scope='session')
def wheel(wheels):
    # built once (conftest.py): every regular install in this session installs this file
    (path,) = glob.glob(os.path.join(wheels, 'lazy_codec-*.whl'))
    return path


@pytest.fixture(scope='module')
def installed(tmp_path_factory, wheel):
    """python of a venv with the wheel installed (tests must not change it)"""
    python = make_venv(tmp_path_factory.mktemp('installed') / 'venv')
    install_wheel(python, wheel)
    return python


@pytest.fixture(scope='module')
def plain(tmp_path_factory):
    """python of a venv made the same way, without lazy_codec but with an
    inert .pth: site on 3.13+ imports encodings.utf_8_sig to read any .pth
    file, and we compare what our .pth's code costs, not that it exists"""
    python = make_venv(tmp_path_factory.mktemp('plain') / 'venv')
    with open(os.path.join(site_packages(python), 'inert.pth'), 'w') as f:
        f.write('# no path, no import\n')
    return python


def test_wheel_install_puts_pth_in_site_packages_and_lazy_import_works(installed, tmp_path):
    assert PTH in os.listdir(site_packages(installed))
    assert_lazy_import_works(installed, tmp_path)


def test_editable_install_ships_pth_and_lazy_import_works(tmp_path):
    python = make_venv(tmp_path / 'venv')
    check([python, '-m', 'pip', 'install', '-q', '--no-deps', *isolation_args(python), '-e', REPO])
    assert PTH in os.listdir(site_packages(python))
    # editable: the package is imported from the repository itself
    where = check([python, '-c', 'import lazy_codec; print(lazy_codec.__file__)'], cwd=tmp_path)
    assert where.stdout.strip() == os.path.join(REPO, 'lazy_codec', '__init__.py')
    assert_lazy_import_works(python, tmp_path)
    # the .pth added to the editable wheel is recorded, so uninstall removes it
    check([python, '-m', 'pip', 'uninstall', '-y', 'lazy_codec'])
    assert PTH not in os.listdir(site_packages(python))


def test_start_file_only_where_asked_for(installed):
    # PEP 829's .start file costs every 3.15-3.17 start an import of pkgutil
    # (setup.py says how much); it is installed from 3.18 on, or when asked
    assert ('lazy_codec.start' in os.listdir(site_packages(installed))) == (sys.version_info >= (3, 18))


@pytest.mark.skipif(sys.version_info < (3, 15), reason='site reads .start files from 3.15 on (PEP 829)')
def test_without_start_file_315_calls_the_pth_deprecated_under_v_only(installed):
    pth = os.path.join(site_packages(installed), PTH)
    verbose = check([installed, '-v', '-c', 'pass']).stderr
    assert f'import lines in {pth} are deprecated, use entry points in a ' in verbose, verbose
    assert check([installed, '-c', 'pass']).stderr == ''


@pytest.mark.skipif(sys.version_info < (3, 15), reason='site reads .start files from 3.15 on (PEP 829)')
@pytest.mark.parametrize('editable', [False, True], ids=['regular', 'editable'])
def test_start_file_registers_the_codec_on_315(tmp_path, editable, monkeypatch, wheels):
    python = make_venv(tmp_path / 'venv')
    monkeypatch.setenv('LAZY_CODEC_START_FILE', '1')
    target = ['-e', REPO] if editable else [REPO]
    check([python, '-m', 'pip', 'install', '-q', '--no-deps', *isolation_args(python), *target])
    names = os.listdir(site_packages(python))
    assert 'lazy_codec.start' in names and PTH in names
    assert_lazy_import_works(python, tmp_path)
    verbose = check([python, '-v', '-c', 'pass']).stderr
    # site runs the entry point, skips the .pth's import line, and does not
    # call that line deprecated
    assert 'Executing entry point: lazy_codec:register_codec' in verbose, verbose
    assert f'import lines in {os.path.join(site_packages(python), PTH)} are deprecated' not in verbose
    assert check([python, '-c', 'pass']).stderr == ''
    # pip, whose start ran the entry point, byte-compiles cookie modules (_startup.before_install)
    (example,) = glob.glob(os.path.join(wheels, 'lazy_example-*.whl'))
    check([python, '-m', 'pip', 'install', '-q', '--no-deps', example])
    pycache = os.path.join(site_packages(python), 'lazy_example', '__pycache__')
    assert len([name for name in os.listdir(pycache) if name.endswith('.pyc')]) == 3, os.listdir(pycache)
    check([python, '-m', 'pip', 'uninstall', '-y', 'lazy_codec'])
    assert not {'lazy_codec.start', PTH} & set(os.listdir(site_packages(python)))


def test_uninstall_removes_pth_and_cookie_then_fails(tmp_path, wheel):
    python = make_venv(tmp_path / 'venv')
    install_wheel(python, wheel)
    site = site_packages(python)
    assert PTH in os.listdir(site)
    check([python, '-m', 'pip', 'uninstall', '-y', 'lazy_codec'])
    assert PTH not in os.listdir(site)
    started = check([python, '-c', 'pass'])
    assert started.stderr == '', transcript(started)
    cookie = run([python, write_program(tmp_path)], cwd=tmp_path)
    assert cookie.returncode != 0, transcript(cookie)
    error = cookie.stderr.strip().splitlines()[-1]  # e.g. SyntaxError: encoding problem: lazy
    assert error.startswith(('SyntaxError', 'LookupError')), transcript(cookie)
    assert 'encoding' in error and 'lazy' in error, transcript(cookie)


def test_pth_without_package_starts_and_names_lazy_codec_on_use(tmp_path, wheel):
    python = make_venv(tmp_path / 'venv')
    install_wheel(python, wheel)
    site = site_packages(python)
    shutil.rmtree(os.path.join(site, 'lazy_codec'))
    assert PTH in os.listdir(site)
    # start-up does not touch the package, so it neither fails nor warns
    started = check([python, '-c', "print('started')"])
    assert started.stdout == 'started\n' and started.stderr == '', transcript(started)
    # nor does an installer's start (the .pth then loads the codec: see _startup.py)
    pip = check([python, '-m', 'pip', 'install', '--help'])
    assert pip.stderr == '', transcript(pip)
    write_program(tmp_path)
    cookie = run([python, '-c', 'import cookie_prog'], cwd=tmp_path)
    assert cookie.returncode != 0, transcript(cookie)
    # the .pth's LookupError text (a script run shows only `encoding problem: lazy`)
    assert 'lazy_codec' in cookie.stderr.strip().splitlines()[-1], transcript(cookie)


def test_startup_imports_same_modules_as_plain_venv(installed, plain):
    # the .pth's one module (its bytecode cached, cheaper than compiling its
    # source at every start), and nothing of the package nor of the stdlib
    with_codec = imported_modules(installed)
    without = imported_modules(plain)
    assert [name for name in with_codec if 'lazy_codec' in name] == ['_lazy_codec_pth']
    assert not [name for name in HEAVY if name in with_codec and name not in without]
    assert with_codec - {'_lazy_codec_pth'} == without


def test_codec_lookup_case_insensitive_and_decoding_by_version(installed):
    # decoded as text, a cookie file is its exact text on every version; the
    # compiler of its bytes gets the rewrite on 3.9-3.14, where it runs lazily
    code = (
        'import codecs, sys\n'
        'print(codecs.lookup("LAZY").name)\n'
        'data = sys.stdin.buffer.read()\n'
        'print(ascii(data.decode("lazy")))\n'
        'exec(compile(data, "program.py", "exec"), {"__name__": "program"})\n'
    )
    result = run([installed, '-c', code], input=PROGRAM)
    assert result.returncode == 0, transcript(result)
    name, decoded, *ran = result.stdout.splitlines()
    assert name == 'lazy'
    assert ast.literal_eval(decoded) == PROGRAM
    assert ran == ['False', 'True'], transcript(result)


def test_no_site_flag_means_no_codec(installed, tmp_path):
    # documents the limit: -S skips site, so no .pth runs and `lazy` is unknown
    result = run([installed, '-S', write_program(tmp_path)], cwd=tmp_path)
    assert result.returncode == 1 and result.stdout == '', transcript(result)
    # the interpreter's own error for an unknown source encoding, nothing of ours
    assert re.fullmatch(
        r'SyntaxError: (encoding problem|unknown encoding): lazy', result.stderr.strip().splitlines()[-1]
    ), transcript(result)
    # and no codec at all: nothing of lazy_codec ran, the name is unknown
    lookup = check(
        [
            installed,
            '-S',
            '-c',
            'import codecs, sys\n'
            'try:\n    codecs.lookup("lazy")\nexcept LookupError as e:\n    print(e)\n'
            'print(sorted(m for m in sys.modules if m.startswith("lazy_codec")))\n',
        ]
    )
    assert lookup.stdout == 'unknown encoding: lazy\n[]\n', transcript(lookup)


def test_isolated_mode_still_registers_codec(installed, tmp_path):
    # -I is -E -s (and -P): it drops user site-packages and PYTHON* variables,
    # but site still runs and processes the venv's site-packages .pth files
    assert_lazy_import_works(installed, tmp_path, '-I')


@pytest.mark.skipif(sys.version_info >= (3, 15), reason='3.15+ has no backport runtime')
def test_version_names_the_runtime_in_use(installed, tmp_path):
    # the accelerator where the install built it, the pure runtime under
    # LAZY_CODEC_PURE=1; tests/matrix.py says which it expects (a build that
    # silently fell back must not pass as accelerated)
    shown = run_process(
        [installed, '-m', 'lazy_codec', '--version'],
        unset_env=('PYTHON*', 'LAZY_CODEC_PURE'),
        cwd=tmp_path,
        check=True,
    ).stdout
    assert re.fullmatch(
        r'lazy-codec \S+ \(Python \S+, runtime: (C accelerator|pure Python \(the C '
        r'accelerator is not built here\))\)\n',
        shown,
    ), shown
    expected = os.environ.get('LAZY_CODEC_EXPECT_RUNTIME')
    if expected == 'c':
        assert 'runtime: C accelerator' in shown
    forced = check(
        [installed, '-m', 'lazy_codec', '--version'], extra_env={'LAZY_CODEC_PURE': '1'}, cwd=tmp_path
    ).stdout
    assert forced.endswith('runtime: pure Python (LAZY_CODEC_PURE=1))\n'), forced
    if expected is not None:  # (the matrix's runs: this process's runtime is the one it expects)
        assert os.environ.get('LAZY_CODEC_PURE') == (
            '1' if expected == 'pure' and 'C accel' in shown else None
        )
    assert_lazy_import_works(installed, tmp_path)


@pytest.mark.skipif(sys.version_info >= (3, 15), reason='3.15+ builds no accelerator')
def test_install_without_a_compiler_gives_the_pure_runtime(tmp_path):
    # no C compiler (CC names none): pip install . still succeeds, with a
    # warning, and the pure runtime runs
    python = make_venv(tmp_path / 'venv')
    source = tmp_path / 'src'
    shutil.copytree(
        REPO, source, ignore=shutil.ignore_patterns('.venvs*', '.git', 'build', '*.so', '__pycache__')
    )
    result = run(
        [python, '-m', 'pip', 'install', '--no-deps', *isolation_args(python), '-v', str(source)],
        extra_env={'CC': os.path.join(str(tmp_path), 'no-such-compiler')},
    )
    assert result.returncode == 0, transcript(result)
    # setuptools' warning for an optional extension (setup.py)
    assert 'building extension "lazy_codec.runtime._accel" failed' in result.stdout + result.stderr, (
        transcript(result)
    )
    shown = run_process(
        [python, '-m', 'lazy_codec', '--version'],
        unset_env=('PYTHON*', 'LAZY_CODEC_PURE'),
        cwd=tmp_path,
        check=True,
    ).stdout
    assert 'runtime: pure Python (the C accelerator is not built here)' in shown, shown
    assert_lazy_import_works(python, tmp_path)


def test_sdist_builds_the_wheel_with_the_pth(tmp_path):
    # the sdist has what setup.py copies into site-packages (pth/) and the
    # test suite whole; pip installs it as from the index (an isolated build
    # of the wheel from the sdist's unpacked tree), .pth included
    python = make_venv(tmp_path / 'venv')
    source = tmp_path / 'src'
    shutil.copytree(
        REPO,
        source,
        ignore=shutil.ignore_patterns(
            '.venvs*', '.git', 'build', 'dist', '*.so', '__pycache__', '*.egg-info'
        ),
    )
    # setuptools' build_meta, as a build frontend calls it, in this venv
    check([python, '-m', 'pip', 'install', '-q', 'setuptools>=77'])
    code = 'import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))'
    dist = tmp_path / 'dist'
    name = check([python, '-c', code, str(dist)], cwd=source).stdout.strip().splitlines()[-1]
    with tarfile.open(os.path.join(dist, name)) as sdist:
        names = {member.split('/', 1)[1] for member in sdist.getnames() if '/' in member}
    for needed in (
        'pth/lazy_codec.pth',
        'pth/_lazy_codec_pth.py',
        'pth/lazy_codec.start',
        'lazy_codec/runtime/_accel_c/accel.h',
        'lazy_codec/runtime/_accel_c/module.c',
        'setup.py',
        'pyproject.toml',
        'LICENSE',
        'README.md',
        'tests/conftest.py',
        'examples/demo.py',
    ):
        assert needed in names, sorted(names)
    assert not [n for n in names if n.endswith(('.pyc', '.so'))], sorted(names)
    check([python, '-m', 'pip', 'uninstall', '-q', '-y', 'setuptools'])
    check([python, '-m', 'pip', 'install', '-q', '--no-deps', os.path.join(dist, name)])
    assert PTH in os.listdir(site_packages(python))
    assert_lazy_import_works(python, tmp_path)


def test_matrix_reads_the_dependencies_as_a_toml_parser_does():
    # tests/matrix.py runs on 3.9/3.10 too, where it reads pyproject.toml
    # itself: what it reads is what a TOML parser reads
    try:
        import tomllib
    except ImportError:  # 3.9, 3.10: pip's
        tomllib = pytest.importorskip('pip._vendor.tomli')
    sys.path.insert(0, os.path.join(REPO, 'tests'))
    try:
        import matrix
    finally:
        sys.path.remove(os.path.join(REPO, 'tests'))
    with open(matrix.PYPROJECT, 'rb') as f:
        data = f.read()
    project = tomllib.loads(data.decode('utf-8'))['project']
    expected = {'': project['dependencies'], **project['optional-dependencies']}
    assert matrix._read_dependencies_minimal(data.decode('utf-8')) == expected
    assert matrix.read_dependencies() == expected
    installs, tools = matrix.dependencies()
    assert 'pytest' in installs and 'tokenize-rt>=5' in installs and 'black' in tools
    assert not [d for d in installs + tools if d.startswith('lazy_codec')]
