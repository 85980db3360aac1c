"""Hostile and broken input, through real imports and scripts in subprocesses.

Each case writes a module with the cookie into a temporary directory, then runs
`python -c 'import mod'` and/or `python mod.py` with this interpreter (which
has lazy_codec installed) and checks that the error is the interpreter's own,
in its own shape (type, line; compared with the same interpreter running the
eager equivalent: `# -*- coding: utf-8 -*-` and no `lazy`), and that nothing is
lost: the file on disk is unchanged, and a second run, from whatever bytecode
the first one cached, fails alike (the codec's module for a failing file
compiles, and raises the interpreter's error when it runs: `check_again`).
Runnable cases must print what they are expected to.

Known bugs are kept as `xfail(strict=True)` with the version range where they
show; the reasons say what is wrong.
"""

from __future__ import annotations

import codecs
import glob
import os
import re
import subprocess
import sys
import time

import pytest
from conftest import COOKIE as COOKIE_TEXT
from conftest import NATIVE, run_file, write_files

from lazy_codec.rewrite.emitter import rewrite
from lazy_codec.rewrite.lexer import split_lines

V = sys.version_info[:2]
COOKIE = COOKIE_TEXT.encode()
LAZY = re.compile(
    rb'(?m)^([ \t\x0c]*(?:if True: )?)lazy(?:[ \t\x0c]+|[ \t\x0c]*\\\r?\n[ \t\x0c]*)(?=import\b|from\b)'
)


def eager_of(data: bytes, encoding: bytes = b'utf-8') -> bytes:
    """the same module, eager: a plain cookie, no `lazy` keyword"""
    data, n = re.subn(rb'coding: lazy', b'coding: ' + encoding, data, count=1)
    assert n == 1
    return LAZY.sub(rb'\1', data)


class Run:
    def __init__(self, proc: subprocess.CompletedProcess, path: str):
        self.rc = proc.returncode
        self.out = proc.stdout.decode('utf-8', 'replace')
        self.err = proc.stderr.decode('utf-8', 'replace')
        self.path = path

    @property
    def last(self) -> str:
        lines = self.err.strip().splitlines()
        return lines[-1] if lines else ''

    @property
    def error_type(self) -> str | None:
        m = re.match(r'(\w+(?:\.\w+)*)(?::|$)', self.last)
        return m.group(1) if m and self.rc != 0 else None

    @property
    def line(self) -> int | None:
        """the line of the module that the traceback names last"""
        found = re.findall(rf'File "{re.escape(self.path)}", line (-?\d+)', self.err)
        return int(found[-1]) if found else None

    def shape(self):
        return self.rc, self.out, self.error_type, self.line

    def __repr__(self):
        return f'<rc={self.rc} out={self.out!r} err={self.err[-900:]}>'


def run(tmp_path, name: str, data: bytes, how: str = 'import') -> Run:
    """write `data` as module `name`, run it as a script or import it; in
    bytes, since a broken module's output need not be text, and with bytecode
    written, since what is cached for a broken module is checked"""
    path = tmp_path / f'{name}.py'
    write_files(tmp_path, {path.name: data})
    proc = run_file(tmp_path, name, how, unset_env=('PYTHONPATH', 'PYTHONDONTWRITEBYTECODE'), text=False)
    assert path.read_bytes() == data, 'the source file changed'
    return Run(proc, str(path))


def cached(tmp_path, name: str) -> list[str]:
    return glob.glob(str(tmp_path / '__pycache__' / f'{name}.*.pyc'))


def check_again(tmp_path, name: str, data: bytes, how: str, result: Run) -> None:
    """a second run, from whatever bytecode the first one cached, fails alike
    (the backport caches a module that raises the SyntaxError when it runs)"""
    if result.rc != 0:
        again = run(tmp_path, name, data, how)
        assert again.shape() == result.shape() and again.last == result.last, (again, result)


HOWS = ('import', 'script')


def xfail_if(condition: bool, reason: str):
    return pytest.mark.xfail(condition, strict=True, reason=reason)


def _reference(data: bytes, how: str) -> bytes:
    # 3.9 and 3.10 read a script whose cookie names a codec other than UTF-8
    # through a text layer, with its own quirks (an EOF error one line early
    # on 3.9, NUL bytes on 3.10): the interpreter's own shape for such a file
    # is that of latin-1 (any codec), not utf-8's
    if how == 'script' and V <= (3, 10):
        return eager_of(data, b'latin-1')
    return eager_of(data)


# -- invalid UTF-8 -------------------------------------------------------------

# (name, bytes after the cookie, the file's line of the bad byte, shebang first?)
INVALID_UTF8 = {
    'cookie line': (b'lazy import json\nprint(json.dumps(1))\n', 1),
    'line start': (b'\xfflazy import json\nprint(json.dumps(1))\n', 2),
    'middle': (b'lazy import json\nx = 1\n\xfe = 2\ny = 3\nprint(json.dumps(1))\n', 4),
    'last byte': (b'lazy import json\nprint(json.dumps(1))\n\xff', 4),
    'in a lazy statement': (b'x = 1\nlazy import json \xff\nprint(json.dumps(1))\n', 3),
    'in a multi-line lazy statement': (b'lazy from json import (\n    dumps,  \xc3\n)\nprint(dumps(1))\n', 3),
    'in a string': (b'lazy import json\ns = "ab\xc3"\nprint(json.dumps(1))\n', 3),
    'in a comment': (b'lazy import json\n# \xff\nprint(json.dumps(1))\n', 3),
    'after a shebang': (b'lazy import json\nx = "\xff"\nprint(json.dumps(1))\n', 4),
}

# (fixed) on 3.9-3.13 the interpreter does not check that comments are
# UTF-8 (the eager file runs): the codec accepted them too late


@pytest.mark.parametrize(
    ('case', 'how'), [pytest.param(case, how, id=f'{case}-{how}') for case in INVALID_UTF8 for how in HOWS]
)
def test_invalid_utf8(tmp_path, case, how):
    body, line = INVALID_UTF8[case]
    if case == 'cookie line':
        data = COOKIE[:-1] + b'\xff\n' + body
    elif case == 'after a shebang':
        data = b'#!/usr/bin/env python3\n' + COOKIE + body
    else:
        data = COOKIE + body
    result = run(tmp_path, 'mod', data, how)
    eager = run(tmp_path, 'eager', eager_of(data), how)
    assert 'line 0' not in result.err, result
    assert 'encoding problem' not in result.err, result
    if eager.rc == 0 and result.rc == 0:
        # this interpreter does not check the bytes (a comment, 3.9-3.13): run alike
        assert result.out == eager.out
        return
    assert result.error_type == 'SyntaxError', result
    assert result.line == line, result
    said = re.search(r'on line (\d+)', result.last)
    if said:
        assert int(said.group(1)) == line, result
    check_again(tmp_path, 'mod', data, how, result)


# -- NUL bytes -----------------------------------------------------------------

NUL = {
    'first byte': b'\x00lazy import json\nprint(json.dumps(1))\n',
    'middle': b'lazy import json\nx = 1\x00\nprint(json.dumps(1))\n',
    'in a lazy statement': b'x = 1\nlazy import json\x00\nprint(json.dumps(1))\n',
    'in a string': b'lazy import json\ns = "a\x00b"\nprint(json.dumps(1))\n',
    'in a comment': b'lazy import json\n# a\x00b\nprint(json.dumps(1))\n',
    'last byte': b'lazy import json\nprint(json.dumps(1))\n\x00',
    'after the last lazy statement': b'lazy import json\nprint(json.dumps(1))\nx = 2\ny = 3 \x00\n',
}


@pytest.mark.parametrize(
    ('case', 'how'), [pytest.param(case, how, id=f'{case}-{how}') for case in NUL for how in HOWS]
)
def test_nul_bytes(tmp_path, case, how):
    """the same exception type and line as the eager file on this interpreter"""
    if how == 'script' and (3, 11) <= sys.version_info[:3] < (3, 11, 7):
        # seen with Debian's 3.11.2: the interpreter's own reading of a script
        # with a NUL byte through a codec raises SystemError (string_parser.c)
        # or stops at the NUL; pyenv's 3.11.7 behaves as 3.10 and 3.12 do
        pytest.skip(f'{sys.version.split()[0]} mishandles NUL bytes in a script read through a codec')
    data = COOKIE + NUL[case]
    result = run(tmp_path, 'mod', data, how)
    eager = run(tmp_path, 'eager', _reference(data, how), how)
    assert result.shape() == eager.shape(), (result, eager)
    check_again(tmp_path, 'mod', data, how, result)


# -- line endings ----------------------------------------------------------------

PROGRAM_LINES = [
    b'lazy import json',
    b'lazy from fractions import Fraction as F',
    b'lazy from colorsys import (',
    b'    rgb_to_hsv,  # c',
    b'    hsv_to_rgb,',
    b')',
    b'lazy \\',
    b'    import xml.dom.minidom',
    b'x = 1; lazy import textwrap; y = 2',
    b'print(json.dumps([1]), F(1, 3), rgb_to_hsv(1, 0, 0), hsv_to_rgb(0, 0, 0))',
    b'print(xml.dom.minidom.__name__, textwrap.dedent("  a"), x + y)',
    b'lazy import email.mime.text',
    b'print(email.mime.text.__name__)',
]
PROGRAM_OUT = '[1] 1/3 (0.0, 1.0, 1) (0, 0, 0)\nxml.dom.minidom a 3\nemail.mime.text\n'


@pytest.mark.parametrize('newline', [b'\n', b'\r\n', b'\r'], ids=['LF', 'CRLF', 'CR'])
@pytest.mark.parametrize('final', [True, False], ids=['final newline', 'no final newline'])
@pytest.mark.parametrize('how', HOWS)
def test_line_endings(tmp_path, newline, final, how):
    data = newline.join([COOKIE[:-1]] + PROGRAM_LINES) + (newline if final else b'')
    result = run(tmp_path, 'mod', data, how)
    assert (result.rc, result.out, result.err) == (0, PROGRAM_OUT, ''), result
    text = data.decode()
    assert len(split_lines(rewrite(text))) == len(split_lines(text))


# -- tabs and spaces, form feeds -------------------------------------------------

WHITESPACE = {
    'tab after spaces, on the lazy line': b'if True:\n    x = 1\n\tlazy import json\nprint(json.dumps(2))\n',
    'tab after 8 spaces, on the lazy line': (
        b'if True:\n        x = 1\n\tlazy import json\nprint(json.dumps(2))\n'
    ),
    'tab after the lazy line': b'if True:\n  lazy import json\n\tx = 1\nprint(json.dumps(2))\n',
    'tabs only': (
        b'if True:\n\tlazy import json\n\tif True:\n\t\tlazy from fractions import Fraction\n'
        b'print(json.dumps(2), Fraction(1, 2))\n'
    ),
    'lazy line dedents wrongly': b'if True:\n        x = 1\n    lazy import json\nprint(json.dumps(2))\n',
    'lazy line indented alone': b'x = 1\n    lazy import json\nprint(json.dumps(2))\n',
    'form feed at line start': b'\x0clazy import json\nprint(json.dumps(2))\n',
    'form feed before the indentation': b'if True:\n\x0c    lazy import json\nprint(json.dumps(2))\n',
    'form feed after the indentation': b'if True:\n    \x0clazy import json\nprint(json.dumps(2))\n',
    'form feeds between tokens': (
        b'lazy\x0cimport\x0cjson\nlazy\x0c from\x0cjson\x0cimport\x0cdumps\nprint(dumps(2))\n'
    ),
    'form feed line between lazy lines': (
        b'lazy import json\n\x0c\nlazy from json import dumps\nprint(dumps(2))\n'
    ),
}


@pytest.mark.parametrize(
    ('case', 'how'), [pytest.param(case, how, id=f'{case}-{how}') for case in WHITESPACE for how in HOWS]
)
def test_whitespace(tmp_path, case, how):
    """runs, or fails, as the eager file does: same output, exception type and line"""
    data = COOKIE + WHITESPACE[case]
    result = run(tmp_path, 'mod', data, how)
    eager = run(tmp_path, 'eager', eager_of(data), how)
    assert result.shape() == eager.shape(), (result, eager)
    if result.rc:
        assert result.last == eager.last, (result, eager)
    check_again(tmp_path, 'mod', data, how, result)


INDENTATION_ERRORS = {
    # body after the cookie, the error, its line
    'tabs': (b'if True:\n    x = 1\n\tlazy import json\nprint(json.dumps(2))\n', 'TabError', 4),
    'unexpected indent': (b'x = 1\n    lazy import json\nprint(json.dumps(2))\n', 'IndentationError', 3),
    'unexpected indent, from': (b'x = 1\n  lazy from json import dumps\n', 'IndentationError', 3),
    'unindent': (b'if True:\n    x = 1\n  lazy import json\n', 'IndentationError', 4),
}


@pytest.mark.parametrize('case', sorted(INDENTATION_ERRORS))
@pytest.mark.parametrize('how', HOWS)
def test_interpreter_error_shows_the_line_as_written(tmp_path, how, case):
    body, error, line = INDENTATION_ERRORS[case]
    result = run(tmp_path, 'mod', COOKIE + body, how)
    assert result.error_type == error and result.line == line, result
    assert '__lazy_codec_abi1__' not in result.err and 'lazy ' in result.err, result


# -- a very long dotted name ------------------------------------------------------


def test_ten_thousand_segment_name(tmp_path):
    dotted = '.'.join(['m'] * 10000)
    body = (
        f'lazy import {dotted}\n'
        'print("bound")\n'
        'try:\n    m\nexcept ModuleNotFoundError as e:\n    print("caught", e.name)\n'
        'print("after")\n'
    )
    text = COOKIE.decode() + body
    if not NATIVE:
        out = rewrite(text)
        assert len(split_lines(out)) == len(split_lines(text))
        compile(out, 'mod.py', 'exec', dont_inherit=True)
    for how in HOWS:
        result = run(tmp_path, f'mod_{how}', text.encode(), how)
        assert (result.rc, result.out, result.err) == (0, 'bound\ncaught m\nafter\n', ''), result


# -- a big file --------------------------------------------------------------------


def _big(lines: int) -> bytes:
    """`lines` lines, most `x = 1`, one in ten a long string: ~50 bytes a line"""
    chunk = ('x = 1\n' * 9 + 's = "' + 'y' * 439 + '"\n').encode()
    body = chunk * ((lines - 4) // 10) + b'x = 1\n' * ((lines - 4) % 10)
    return (
        COOKIE
        + b'lazy import json\n'
        + body
        + b'lazy from fractions import Fraction\nprint(json.dumps(1), Fraction(1, 2))\n'
    )


def test_big_file_memory():
    """100,000 lines (5 MB) with lazy statements at both ends, so that all
    of it is read: the rewrite's peak memory is a small multiple of the text
    (the lines, and the tokens of one logical line at a time)"""
    import tracemalloc

    # what an import compiles (the loader's rewrite; on 3.15 the codec's plain decode)
    if NATIVE:

        def source(data):
            return codecs.lookup('lazy').decode(data)[0]
    else:
        from lazy_codec._loader import rewritten_text

        def source(data):
            return rewritten_text(data)

    data = _big(100_000)
    tracemalloc.start()
    try:
        text = source(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert text.count('\n') == 100_000
    assert '__lazy_codec_abi1__' in text.splitlines()[-2] or NATIVE
    print(f'\n[big file] 100,000 lines, {len(data) / 1e6:.1f} MB: peak {peak / 1e6:.1f} MB while decoding')
    assert peak < 8 * len(data)


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get('LAZY_CODEC_SLOW') != '1', reason='set LAZY_CODEC_SLOW=1 (50 MB)')
def test_big_file():
    from lazy_codec._loader import rewritten_text  # what an import compiles

    timings = {}
    for lines in (100_000, 1_000_000):
        data = _big(lines)
        start = time.perf_counter()
        text = rewritten_text(data)
        timings[lines] = (len(data), time.perf_counter() - start)
        assert len(split_lines(text)) == lines
        assert text.count('\n') == lines
        del text, data
    print('\n'.join(f'{n} lines, {size / 1e6:.1f} MB: rewrite {t:.2f} s' for n, (size, t) in timings.items()))


# -- type comments, TYPE_CHECKING, match -----------------------------------------------


def test_type_comments_and_type_checking(tmp_path):
    body = (
        b'from typing import TYPE_CHECKING\n'
        b'if TYPE_CHECKING:\n'
        b'    lazy import nonexistent_module_xyz\n'
        b'    lazy from json import dumps\n'
        b'lazy import json  # type: ignore\n'
        b'x = []  # type: list[int]\n'
        b'lazy from fractions import Fraction  # type: ignore[attr-defined]\n'
        b'lazy import another_nonexistent_module  # never used: never imported\n'
        b'def f(a):\n'
        b'    # type: (int) -> str\n'
        b'    return json.dumps(a)\n'
        b'print(f(1), Fraction(1, 2), "dumps" in globals(), "nonexistent_module_xyz" in globals())\n'
        b'import sys\n'
        b'print("another_nonexistent_module" in sys.modules)\n'
    )
    for how in HOWS:
        result = run(tmp_path, f'mod_{how}', COOKIE + body, how)
        assert (result.rc, result.out, result.err) == (0, '1 1/2 False False\nFalse\n', ''), result


@pytest.mark.skipif(V < (3, 10), reason='match needs 3.10')
def test_match_arms(tmp_path):
    body = (
        b'import sys\n'
        b'match len(sys.argv):\n'
        b'    case 0:\n'
        b'        lazy import colorsys\n'
        b'    case 1 | 2 if True:\n'
        b'        lazy import json\n'
        b'        lazy from fractions import Fraction as F\n'
        b'    case _: lazy import textwrap\n'
        b'match = case = 1  # soft keywords as names\n'
        b'print(json.dumps(match + case), F(1, 3), "colorsys" in globals(), "textwrap" in globals())\n'
    )
    for how in HOWS:
        result = run(tmp_path, f'mod_{how}', COOKIE + body, how)
        assert (result.rc, result.out, result.err) == (0, '2 1/3 False False\n', ''), result


# -- unterminated strings and brackets ------------------------------------------------

UNTERMINATED = {
    'string after a lazy statement': b'lazy import json\nx = "abc\nprint(json)\n',
    'bracket before a lazy statement': b'lazy import json\nx = (1,\ny = 2\nlazy import colorsys\n',
    'triple quote swallowing a lazy statement': b'lazy import json\nx = """abc\nlazy import colorsys\n',
    'bracket in a lazy statement': b'lazy from json import (dumps,\nx = 1\n',
    'bracket in a lazy statement at the end': b'x = 1\nlazy from json import (dumps,\n',
    'bracket before the only lazy statement': b'x = [1, 2\nlazy import json\n',
    'bracket at the end': b'lazy import json\nx = 1\ny = {\n',
    'string in a lazy statement': b'lazy import json\nlazy from json import "dumps\n',
    'backslash at the end': b'lazy import json\nx = 1 + \\\n',
    'lazy and backslash at the end': b'x = 1\nlazy \\\n',
    'unmatched bracket in a lazy statement': b'lazy import json)\nx = 1\n',
    'bracket over lines in a lazy statement': b'lazy from json import (dumps,\n    loads\n',
}


@pytest.mark.parametrize(
    ('case', 'how'), [pytest.param(case, how, id=f'{case}-{how}') for case in UNTERMINATED for how in HOWS]
)
def test_unterminated(tmp_path, case, how):
    data = COOKIE + UNTERMINATED[case]
    result = run(tmp_path, 'mod', data, how)
    eager = run(tmp_path, 'eager', _reference(data, how), how)
    assert result.shape() == eager.shape(), (result, eager)
    assert result.error_type in ('SyntaxError', 'IndentationError'), result
    check_again(tmp_path, 'mod', data, how, result)


@pytest.mark.parametrize('case', list(UNTERMINATED))
def test_unterminated_message(tmp_path, case):
    """the message, too, is what the eager file gets (import)"""
    data = COOKIE + UNTERMINATED[case]
    result = run(tmp_path, 'mod', data)
    eager = run(tmp_path, 'eager', eager_of(data))
    assert result.last == eager.last, (result, eager)


# -- a module that changes between imports ------------------------------------------


def test_reload_sees_new_source(tmp_path):
    script = (
        'import importlib, os, sys\n'
        'sys.path.insert(0, os.getcwd())\n'
        'def write(body):\n'
        '    with open("changing.py", "wb") as f:\n'
        '        f.write(b"# -*- coding: lazy -*-\\n" + body)\n'
        'write(b"lazy import json\\nVALUE = json.dumps([1])\\n")\n'
        'import changing\n'
        'print(changing.VALUE)\n'
        'st = os.stat("changing.py")\n'
        'write(b"lazy from fractions import Fraction\\nVALUE = str(Fraction(1, 3))\\n")\n'
        'os.utime("changing.py", (st.st_atime + 10, st.st_mtime + 10))\n'
        'importlib.reload(changing)\n'
        'print(changing.VALUE)\n'
        'write(b"lazy from colorsys import rgb_to_hsv as VALUE\\nVALUE = VALUE.__name__\\n")\n'
        'os.utime("changing.py", (st.st_atime + 20, st.st_mtime + 20))\n'
        'del sys.modules["changing"]\n'
        'import changing\n'
        'print(changing.VALUE)\n'
    )
    result = run(tmp_path, 'driver', script.encode(), 'script')
    assert (result.rc, result.out, result.err) == (0, '[1]\n1/3\nrgb_to_hsv\n', ''), result
    # and a fresh interpreter, from the cached bytecode, runs the newest code
    again = run(tmp_path, 'again', b'import changing\nprint(changing.VALUE)\n', 'script')
    assert (again.rc, again.out) == (0, 'rgb_to_hsv\n'), again
    assert len(cached(tmp_path, 'changing')) == 1


# -- BOM -------------------------------------------------------------------------------

BOM = b'\xef\xbb\xbf'


@pytest.mark.parametrize('how', HOWS)
def test_bom_with_cookie_is_rejected(tmp_path, how):
    result = run(tmp_path, 'mod', BOM + COOKIE + b'lazy import json\nprint(json.dumps(1))\n', how)
    assert result.rc == 1 and result.out == '', result
    assert result.error_type == 'SyntaxError', result
    assert 'encoding problem' in result.last and 'BOM' in result.last, result


@pytest.mark.parametrize('how', HOWS)
def test_bom_without_cookie_runs(tmp_path, how):
    result = run(tmp_path, 'mod', BOM + b'import json\nprint(json.dumps(1))\n', how)
    assert (result.rc, result.out, result.err) == (0, '1\n', ''), result
