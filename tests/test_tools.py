"""The real pytest and coverage.py, in subprocesses, on projects whose files carry the cookie."""

import html
import re
import sys

import pytest
from conftest import run_process, write_files

pytestmark = pytest.mark.skipif(
    sys.version_info >= (3, 15),
    reason='3.15 parses lazy itself and the codec is plain UTF-8: nothing of ours is in the way',
)

PLUGIN = '[run]\nplugins = lazy_codec.coverage_plugin\n'


def write(root, files, lazy=True, cookie=True):
    """the project; with lazy=False its eager twin, line for line; with
    cookie=False, 3.15 source: no cookie"""
    if not cookie:
        files = {name: text.replace('# -*- coding: lazy -*-\n', '') for name, text in files.items()}
    if not lazy:
        files = {
            name: re.sub(
                r'(?m)^(\s*)lazy (import|from) ', r'\1\2 ', text.replace('coding: lazy', 'coding: utf-8')
            )
            for name, text in files.items()
        }
    write_files(root, files)


def run_module(cwd, *args):
    """python -m ARGS in cwd, as a run of its own: without the variables
    through which the pytest running this (and its pytest-cov) would reach it"""
    return run_process(
        [sys.executable, '-m', *args], cwd=cwd, timeout=300, unset_env=('COV_CORE*', 'COVERAGE_*', 'PYTEST_*')
    )


PYTEST_PROJECT = {
    'pytest.ini': '[pytest]\n',
    'lazy_mod.py': 'value = 1\n',
    'conftest.py': '# -*- coding: lazy -*-\nlazy import json\nimport pytest\n\n'
    '@pytest.fixture\ndef dumped():\n    return json.dumps([1])\n',
    'sub/conftest.py': '# -*- coding: lazy -*-\nlazy from os import path as os_path\nimport pytest\n\n'
    '@pytest.fixture\ndef sep():\n    return os_path.sep\n',
    'test_top.py': '# -*- coding: lazy -*-\nlazy import lazy_mod\n\n'
    'def test_fixture(dumped):\n    assert dumped == "[1]"\n\n'
    'def test_global():\n    assert lazy_mod.value == 2\n',
    'sub/test_sub.py': '# -*- coding: lazy -*-\nlazy from lazy_mod import value\n\n'
    'def test_fixtures(sep, dumped):\n    assert (sep, dumped) == ("/", "[1]")\n\n'
    'def test_local():\n    import lazy_mod as m\n    assert m.value == value + 2\n',
}


@pytest.mark.parametrize('cookie', [True, False], ids=['cookie', 'no cookie'])
@pytest.mark.parametrize('mode', ['prepend', 'importlib'])
def test_pytest(tmp_path, mode, cookie):
    # conftest and test modules with lazy imports are collected, and pytest's
    # assertion rewriter (which compiles the bytes, so gets the rewritten text)
    # explains failures exactly as for the eager twin
    outputs = []
    for lazy in (True, False):
        root = tmp_path / ('lazy' if lazy else 'eager')
        write(root, PYTEST_PROJECT, lazy, cookie)
        out = run_module(root, 'pytest', '-p', 'no:cacheprovider', f'--import-mode={mode}', '-rN', '-vv')
        assert out.returncode == 1, out.stdout + out.stderr
        assert '2 failed, 2 passed' in out.stdout, out.stdout
        # (no warning: pytest marks lazy_codec's files for its rewrite, and would
        # warn that the .pth's module and the package were imported before it)
        assert 'warning' not in out.stdout.splitlines()[-1], out.stdout
        outputs.append(
            [
                line.replace(str(root), 'ROOT')
                for line in out.stdout.splitlines()
                if line.startswith(('E ', '>'))
            ]
        )
    lazy_lines, eager_lines = outputs
    assert lazy_lines == eager_lines
    assert '>       assert lazy_mod.value == 2' in lazy_lines
    assert 'E       assert 1 == 2' in lazy_lines
    assert 'E        +  where 1 = lazy_mod.value' in lazy_lines
    assert 'E       AssertionError: assert 1 == (1 + 2)' in lazy_lines
    assert any(
        re.match(r"E        \+  where 1 = <module 'lazy_mod' from 'ROOT/lazy_mod.py'>\.value$", line)
        for line in lazy_lines
    ), lazy_lines


COVERAGE_PROJECT = {
    'lib.py': '# -*- coding: lazy -*-\nlazy import json\nlazy from os import (\n    path,\n)\n\n'
    'def dump(obj):\n    return json.dumps(obj)\n\n'
    'def unused():\n    return path.sep\n',
    'app.py': '# -*- coding: lazy -*-\nimport sys\nlazy import lib\nif len(sys.argv) > 5:\n'
    '    lazy import never_there\n    print(never_there)\nprint(lib.dump([1]))\n',
}
REPORT = """\
Name     Stmts   Miss  Cover   Missing
--------------------------------------
app.py       6      2    67%   5-6
lib.py       6      1    83%   11
--------------------------------------
TOTAL       12      3    75%
"""
ANNOTATED = {
    'app.py,cover': '  # -*- coding: lazy -*-\n> import sys\n> lazy import lib\n'
    '> if len(sys.argv) > 5:\n!     lazy import never_there\n!     print(never_there)\n'
    '> print(lib.dump([1]))\n',
    'lib.py,cover': '  # -*- coding: lazy -*-\n> lazy import json\n> lazy from os import (\n'
    '>     path,\n> )\n'
    '  \n> def dump(obj):\n>     return json.dumps(obj)\n  \n> def unused():\n!     return path.sep\n',
}


@pytest.mark.parametrize('target', [['app.py'], ['-m', 'app']])
def test_coverage(tmp_path, target):
    # a lazy line is covered when its statement ran; with the plugin, annotate
    # and html show the file as written
    write(tmp_path, dict(COVERAGE_PROJECT, **{'.coveragerc': PLUGIN}))
    out = run_module(tmp_path, 'coverage', 'run', *target)
    assert (out.returncode, out.stdout, out.stderr) == (0, '[1]\n', '')
    out = run_module(tmp_path, 'coverage', 'report', '-m')
    assert (out.stdout, out.stderr) == (REPORT, '')
    out = run_module(tmp_path, 'coverage', 'annotate')
    assert out.returncode == 0, out.stderr
    assert {name: (tmp_path / name).read_text() for name in ANNOTATED} == ANNOTATED
    out = run_module(tmp_path, 'coverage', 'html', '-q')
    assert out.returncode == 0, out.stderr
    page = html.unescape(re.sub(r'<[^>]*>', '', (tmp_path / 'htmlcov' / 'app_py.html').read_text()))
    assert 'lazy import lib' in page and 'lazy import never_there' in page
    assert '__lazy_codec_abi1__' not in page
    functions = tmp_path / 'htmlcov' / 'function_index.html'
    if functions.exists():  # coverage 7.5+: regions, found in the rewritten text
        assert all(f"<data value='{f}'>" in functions.read_text() for f in ('dump', 'unused'))


def test_coverage_of_315_source_without_the_cookie(tmp_path):
    # the modules have no cookie (run with -m: the import system compiles
    # them); the plugin analyses their rewrite and shows them as written
    write(tmp_path, dict(COVERAGE_PROJECT, **{'.coveragerc': PLUGIN}), cookie=False)
    out = run_module(tmp_path, 'coverage', 'run', '-m', 'app')
    assert (out.returncode, out.stdout, out.stderr) == (0, '[1]\n', '')
    out = run_module(tmp_path, 'coverage', 'report', '-m')
    assert (out.stdout, out.stderr) == (REPORT.replace('5-6', '4-5').replace('   11', '   10'), '')
    out = run_module(tmp_path, 'coverage', 'annotate')
    assert out.returncode == 0, out.stderr
    assert {name: (tmp_path / name).read_text() for name in ANNOTATED} == {
        name: text.replace('  # -*- coding: lazy -*-\n', '') for name, text in ANNOTATED.items()
    }


def test_coverage_without_plugin(tmp_path):
    # measurement needs no plugin: coverage compiles what the codec gives, and
    # lines never move; but its reports then show the rewritten lines
    write(tmp_path, COVERAGE_PROJECT)
    assert run_module(tmp_path, 'coverage', 'run', 'app.py').returncode == 0
    assert run_module(tmp_path, 'coverage', 'report', '-m').stdout == REPORT
    assert run_module(tmp_path, 'coverage', 'annotate').returncode == 0
    line = (tmp_path / 'app.py,cover').read_text().splitlines()[2]
    assert line.startswith('> if __lazy_codec_abi1__.lazy_import(')


def test_pytest_cov(tmp_path):
    pytest.importorskip('pytest_cov')
    write(
        tmp_path,
        dict(
            COVERAGE_PROJECT,
            **{
                '.coveragerc': PLUGIN,
                'pytest.ini': '[pytest]\n',
                'test_app.py': '# -*- coding: lazy -*-\nlazy import lib\n\n'
                'def test_dump():\n    assert lib.dump([1]) == "[1]"\n',
            },
        ),
    )
    out = run_module(
        tmp_path,
        'pytest',
        '-p',
        'no:cacheprovider',
        '--cov=lib',
        '--cov-report=term-missing',
        '--cov-report=annotate:ann',
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert re.search(r'^lib\.py +6 +1 +83% +11$', out.stdout, re.M), out.stdout
    assert (tmp_path / 'ann' / 'lib.py,cover').read_text() == ANNOTATED['lib.py,cover']


@pytest.mark.parametrize('cookie', [True, False], ids=['cookie', 'no cookie'])
def test_pytest_doctest_modules(tmp_path, cookie):
    # --doctest-modules imports the module (its lazy syntax compiled) and
    # reads its docstrings from the text as written
    write(
        tmp_path,
        {
            'pytest.ini': '[pytest]\n',
            'doc_mod.py': (
                '# -*- coding: lazy -*-\nlazy import json\n\n'
                'def dump(obj):\n    """\n    >>> dump([1])\n    \'[1]\'\n'
                '    """\n    return json.dumps(obj)\n'
            ),
        },
        cookie=cookie,
    )
    out = run_module(tmp_path, 'pytest', '-p', 'no:cacheprovider', '--doctest-modules', 'doc_mod.py')
    assert out.returncode == 0 and '1 passed' in out.stdout, out.stdout + out.stderr
