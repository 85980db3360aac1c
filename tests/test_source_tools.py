"""The tools people run over their source, in subprocesses, on files with the
cookie and on 3.15 source without it: formatters and fixers never see or
write the rewrite (a formatted file stays byte for byte), linters report on
the user's code what they report on its eager form, and the compilers
(py_compile, compileall, pdb) get the rewrite.  Each tool's own limits (a
parser that does not know `lazy` before 3.15) are asserted as what they are,
so that a change in them shows.  A tool that is not installed here skips."""

import importlib.util
import os
import re
import sys

import pytest
from conftest import COOKIE, run_process, write_files

NATIVE = sys.version_info >= (3, 15)
ENTRY = '__lazy_codec_abi1__'

# formatted as black, isort, yapf and autopep8 leave it
MODULE = '''\
"""A module written for 3.15."""

import sys
lazy import json
lazy from decimal import ROUND_UP
lazy from decimal import Decimal as D


def dump(value):
    return json.dumps(str(D(value)))


def unused_name():
    return sys.argv
'''


def eager(text):
    return re.sub(r'(?m)^lazy (import|from) ', r'\1 ', text.replace('coding: lazy', 'coding: utf-8'))


def needs(module):
    if importlib.util.find_spec(module) is None:
        pytest.skip(f'{module} is not installed here')


def tool(cwd, *args):
    return run_process(
        [sys.executable, '-m', *args], cwd=cwd, timeout=300, unset_env=('COV_CORE*', 'COVERAGE_*', 'PYTEST_*')
    )


FILES = {'cookie': COOKIE + MODULE, 'cookieless': MODULE}


@pytest.fixture(params=sorted(FILES))
def source(request, tmp_path):
    path = tmp_path / 'mod.py'
    path.write_bytes(FILES[request.param].encode())
    return path


# -- formatters and fixers: what they write is the user's text -------------------


@pytest.mark.parametrize(
    ('module', 'args'),
    [
        ('black', ['-q']),
        ('autopep8', ['--in-place']),
        ('yapf', ['-i']),
        ('isort', ['-q']),
    ],
)
def test_formatter_leaves_the_file_as_written(source, module, args):
    needs(module)
    if module == 'isort':
        # (its versions differ on blank lines around `lazy` lines: the file is
        # first formatted by this one, its lazy statements kept as written)
        lazy_lines = [line for line in source.read_text().splitlines() if line.startswith('lazy ')]
        tool(source.parent, module, *args, source.name)
        assert [line for line in source.read_text().splitlines() if line.startswith('lazy ')] == lazy_lines
    before = source.read_bytes()
    out = tool(source.parent, module, *args, source.name)
    after = source.read_bytes()
    assert ENTRY.encode() not in after, out.stdout + out.stderr
    assert after == before, (out.stdout + out.stderr, after.decode())


def test_black_reformats_the_text_or_refuses(source):
    # a file that needs formatting: black never writes the rewrite; before
    # 3.15 it refuses (its own limit: it checks its result with this
    # interpreter's `ast`, which does not know `lazy`) and writes nothing
    needs('black')
    source.write_text(source.read_text().replace('return sys.argv', 'return  sys.argv'))
    before = source.read_bytes()
    out = tool(source.parent, 'black', '-q', source.name)
    after = source.read_bytes()
    assert ENTRY.encode() not in after
    if NATIVE:
        assert out.returncode == 0 and after == before.replace(b'return  sys', b'return sys')
    else:
        assert out.returncode == 123 and after == before, out.stdout + out.stderr


def test_pyupgrade_removes_only_the_cookie(source):
    # pyupgrade removes any coding cookie (its own rule): a module needs none,
    # and still runs lazily here after it (`check` warns on a script's)
    needs('pyupgrade')
    before = source.read_text()
    tool(source.parent, 'pyupgrade', '--py39-plus', source.name)
    after = source.read_text()
    assert ENTRY not in after
    assert after == before.replace(COOKIE, '', 1)
    out = run_process(
        [sys.executable, '-c', 'import sys, mod; print("json" in sys.modules, mod.dump(1))'],
        cwd=source.parent,
        check=True,
    )
    assert out.stdout == 'False "1"\n'


# -- linters: the user's code, as its eager form lints ---------------------------


def _messages(out: str, path) -> list:
    # (columns on a lazy line are the rewrite's, where the linter parses it: left out)
    return sorted(re.sub(r'^[^:]*:(\d+):\d+:', r'\1:', line) for line in out.splitlines() if line.strip())


def test_pyflakes_as_on_the_eager_form(source, tmp_path):
    needs('pyflakes')
    twin = tmp_path / 'twin' / 'mod.py'
    write_files(tmp_path / 'twin', {'mod.py': eager(source.read_text())})
    ours = tool(source.parent, 'pyflakes', source.name)
    theirs = tool(twin.parent, 'pyflakes', 'mod.py')
    assert ENTRY not in ours.stdout + ours.stderr
    if not NATIVE and 'coding' not in source.read_text():
        # 3.15 source without the cookie: pyflakes parses the text with this
        # interpreter's parser, which does not know `lazy` (its own limit)
        assert 'invalid syntax' in ours.stdout + ours.stderr, ours.stdout + ours.stderr
        return
    assert _messages(ours.stdout, source) == _messages(theirs.stdout, twin) != []


def test_pycodestyle_reads_the_text(source, tmp_path):
    needs('pycodestyle')
    twin_dir = tmp_path / 'twin'
    write_files(twin_dir, {'mod.py': source.read_text().replace('coding: lazy', 'coding: utf-8')})
    ours = tool(source.parent, 'pycodestyle', '--max-line-length=79', source.name)
    theirs = tool(twin_dir, 'pycodestyle', '--max-line-length=79', 'mod.py')
    assert ours.stdout == theirs.stdout and ENTRY not in ours.stdout


def test_pylint_never_sees_the_rewrite(source):
    needs('pylint')
    out = tool(source.parent, 'pylint', '--disable=C,R', '--score=n', source.name)
    assert ENTRY not in out.stdout + out.stderr, out.stdout
    if not NATIVE:
        # its own limit: astroid parses the file's text with this interpreter's
        # parser, which does not know `lazy` before 3.15
        first = 1 + [line.startswith('lazy ') for line in source.read_text().splitlines()].index(True)
        assert 'syntax-error' in out.stdout and f'mod.py:{first}:' in out.stdout, out.stdout
    else:
        assert 'syntax-error' not in out.stdout, out.stdout


# -- compilers: the rewrite -------------------------------------------------------

PROBE = 'import sys, mod\nprint("json" in sys.modules, mod.dump(2), "json" in sys.modules)\n'


@pytest.mark.parametrize('how', ['py_compile', 'compileall'])
def test_byte_compiled_then_loaded_from_bytecode_alone(source, how):
    # the bytecode written is the rewrite's; loaded with no source beside it
    if how == 'py_compile':
        run_process([sys.executable, '-m', 'py_compile', source.name], cwd=source.parent, check=True)
        pyc = importlib.util.cache_from_source(str(source))
        os.replace(pyc, source.parent / 'mod.pyc')
    else:
        run_process([sys.executable, '-m', 'compileall', '-q', '-b', '.'], cwd=source.parent, check=True)
    source.unlink()
    out = run_process([sys.executable, '-c', PROBE], cwd=source.parent, check=True)
    assert out.stdout == 'False "2" True\n'


def _pdb_reads_the_script_as_text() -> bool:
    # 3.11.0-3.11.2's pdb: `io.open(script)` in text mode and the locale's
    # encoding, then compile() of that str, which ignores any cookie
    import inspect
    import pdb

    target = getattr(pdb, '_ScriptTarget', None)
    code = getattr(target, 'code', None)
    return isinstance(code, property) and 'open_code' not in inspect.getsource(code.fget)


def test_pdb_runs_a_script_with_the_cookie(tmp_path):
    if _pdb_reads_the_script_as_text():
        pytest.skip(
            "this pdb reads the script as UTF-8 text: the cookie is not read (fixed in 3.11's later releases)"
        )
    # (colorsys: pdb imports json itself on 3.14)
    write_files(
        tmp_path,
        {
            'script.py': COOKIE + 'import sys\nlazy import colorsys\n'
            'print("colorsys" in sys.modules, colorsys.__name__, "colorsys" in sys.modules)\n'
        },
    )
    out = run_process([sys.executable, '-m', 'pdb', 'script.py'], cwd=tmp_path, input='c\nq\n', timeout=60)
    assert 'False colorsys True' in out.stdout, out.stdout + out.stderr


def test_tokenize_linecache_inspect_give_the_text(source):
    code = (
        'import inspect, linecache, tokenize, mod\n'
        'text = open("mod.py", encoding="utf-8").read()\n'
        'print(tokenize.open("mod.py").read() == text, inspect.getsource(mod) == text,\n'
        '      "".join(linecache.getlines(mod.__file__)) == text)\n'
    )
    out = run_process([sys.executable, '-c', code], cwd=source.parent, check=True)
    assert out.stdout == 'True True True\n'


def test_a_script_with_the_cookie_adds_no_audit_hook(tmp_path):
    # the hook that tells compile() from a text decode is installed only by
    # the first stateless decode from Python code: the interpreter's reading
    # of a script needs none (an audit hook costs every later audited event)
    write_files(
        tmp_path,
        {
            'app.py': COOKIE + 'lazy import json\nimport sys\n'
            'print(sys.modules["lazy_codec._codec"]._watching, json.dumps(1))\n'
            'compile(open(__file__, "rb").read(), __file__, "exec")\n'
            'print(sys.modules["lazy_codec._codec"]._watching)\n'
        },
    )
    out = run_process([sys.executable, 'app.py'], cwd=tmp_path, check=True)
    assert out.stdout == '[] 1\n[True]\n'


@pytest.mark.skipif(NATIVE, reason='3.15: no loader hooks')
def test_loader_hooks_without_lazy_codec_importable(tmp_path):
    # pip's isolated build environments run the .pth with a sys.path that
    # lacks lazy_codec: modules then load as without it (a cookie file's
    # codec is then unknown, as the interpreter says), never an ImportError
    write_files(
        tmp_path,
        {
            'uses_list.py': "__lazy_modules__ = ['json']\nimport json\nX = 1\n",
            'says_lazy.py': '# lazy, in a comment on line 1\nY = 2\n',
        },
    )
    code = (
        'import sys\n'
        'sys.path[:] = [p for p in sys.path if "site-packages" not in p]\n'
        'for name in [m for m in sys.modules if m.startswith("lazy_codec")]:\n'
        '    del sys.modules[name]\n'
        'import uses_list, says_lazy\n'
        'print(uses_list.X, says_lazy.Y, type(vars(uses_list)["json"]).__name__)\n'
    )
    out = run_process(
        [sys.executable, '-c', code], cwd=tmp_path, unset_env=('PYTHONDONTWRITEBYTECODE',), check=True
    )
    assert out.stdout == '1 2 module\n'
