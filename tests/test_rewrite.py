"""The rewrite itself: tables of source -> statement records and verdicts,
and of source -> rewritten source."""

import pytest

from lazy_codec.rewrite.emitter import rewrite
from lazy_codec.rewrite.lexer import split_lines
from lazy_codec.rewrite.statements import read_statements
from lazy_codec.rewrite.verdicts import can_be_lazy, verdict

_IMPORT = '__lazy_codec_abi1__.lazy_import'
_FROM = '__lazy_codec_abi1__.lazy_from'
_ERROR = 'raise __lazy_codec_abi1__.syntax_error'


def records(src: str, plain: bool = False) -> list:
    """(kind, module, level, aliases, start, end, context, verdict) of each
    statement the rewrite reads; the verdict of a lazy statement is 'ok' or
    3.15's error (message, lineno, offset, end_lineno, end_offset), of a
    plain import whether it may be lazy where it is"""
    statements, _ = read_statements(src, 10**9, plain)
    out = []
    for stmt in statements:
        if stmt.interpreter_error is not None:
            judged = stmt.interpreter_error
        elif stmt.lazy:
            error = verdict(stmt)
            judged = (
                'ok'
                if error is None
                else (error.msg, error.lineno, error.offset, error.end_lineno, error.end_offset)
            )
        else:
            judged = 'may be lazy' if can_be_lazy(stmt) else 'eager'
        out.append(
            (stmt.kind, stmt.module, stmt.level, stmt.aliases, stmt.start, stmt.end, stmt.context, judged)
        )
    return out


@pytest.mark.parametrize(
    ('src', 'expected'),
    (
        pytest.param(
            'lazy import a.b as c, d\n',
            [('import', '', 0, [('a.b', 'c'), ('d', None)], (1, 0), (1, 23), [], 'ok')],
            id='import',
        ),
        pytest.param(
            'lazy from ..m import (x,\n    y as z)\n',
            [('from', 'm', 2, [('x', None), ('y', 'z')], (1, 0), (2, 11), [], 'ok')],
            id='from, lines',
        ),
        pytest.param(
            'lazy from . import x\n',
            [('from', '', 1, [('x', None)], (1, 0), (1, 20), [], 'ok')],
            id='relative',
        ),
        pytest.param(
            'if x: lazy import os\n',
            [('import', '', 0, [('os', None)], (1, 6), (1, 20), ['if'], 'ok')],
            id='after a colon',
        ),
        pytest.param(
            'def f():\n    lazy import os\n',
            [
                (
                    'import',
                    '',
                    0,
                    [('os', None)],
                    (2, 4),
                    (2, 18),
                    ['def'],
                    ('lazy import not allowed inside functions', 2, 5, 2, 19),
                )
            ],
            id='function',
        ),
        pytest.param(
            'class C:\n    lazy from os import path\n',
            [
                (
                    'from',
                    'os',
                    0,
                    [('path', None)],
                    (2, 4),
                    (2, 28),
                    ['class'],
                    ('lazy from ... import not allowed inside classes', 2, 5, 2, 29),
                )
            ],
            id='class',
        ),
        pytest.param(
            'try: pass\nexcept E: pass\nelse: lazy import os\n',
            [
                (
                    'import',
                    '',
                    0,
                    [('os', None)],
                    (3, 6),
                    (3, 20),
                    ['except'],
                    ('lazy import not allowed inside try/except blocks', 3, 7, 3, 21),
                )
            ],
            id="try's else",
        ),
        pytest.param(
            'lazy from m import *\n',
            [
                (
                    'from',
                    'm',
                    0,
                    [],
                    (1, 0),
                    (1, 20),
                    [],
                    ('lazy from ... import * is not allowed', 1, 1, 1, 21),
                )
            ],
            id='star',
        ),
        pytest.param(
            'lazy from __future__ import annotations\n',
            [
                (
                    'from',
                    '__future__',
                    0,
                    [],
                    (1, 0),
                    (1, 39),
                    [],
                    ('lazy from __future__ import is not allowed', 1, 1, 1, 5),
                )
            ],
            id='future marks the keyword',
        ),
        pytest.param(
            'lazy import a as b.c\n',
            [
                (
                    'import',
                    '',
                    0,
                    [],
                    (1, 0),
                    (1, 20),
                    [],
                    ('cannot use attribute as import target', 1, 18, 1, 21),
                )
            ],
            id='target not a name',
        ),
        pytest.param(
            'lazy from m import\n',
            [
                (
                    'from',
                    '',
                    0,
                    [],
                    (1, 0),
                    (1, 18),
                    [],
                    ("Expected one or more names after 'import'", 1, 19, 1, 19),
                )
            ],
            id='no names',
        ),
        pytest.param(
            'lazy from m import a,\n',
            [
                (
                    'from',
                    '',
                    0,
                    [],
                    (1, 0),
                    (1, 21),
                    [],
                    ('trailing comma not allowed without surrounding parentheses', 1, 22, 1, 23),
                )
            ],
            id='trailing comma',
        ),
        pytest.param(
            'if a:\n    x = 1\n        lazy import os\n',
            [('import', '', 0, [], (3, 8), (3, 22), ['if', 'if'], 'indentation')],
            id='unexpected indent',
        ),
        pytest.param(
            'lazy import (os\n',
            [('import', '', 0, [], (1, 0), (1, 15), [], 'tokens')],
            id='bracket left open',
        ),
    ),
)
def test_records(src, expected):
    assert records(src) == expected


def test_plain_records():
    # plain imports are read only when they may become lazy (`__lazy_modules__`, mode "all")
    src = 'import os; from . import x\ndef f():\n    import y\nfrom m import *\n'
    assert records(src) == []
    assert records(src, plain=True) == [
        ('import', '', 0, [('os', None)], (1, 0), (1, 9), [], 'may be lazy'),
        ('from', '', 1, [('x', None)], (1, 11), (1, 26), [], 'may be lazy'),
        ('import', '', 0, [], (3, 4), (3, 12), ['def'], 'eager'),
        ('from', 'm', 0, [], (4, 0), (4, 15), [], 'eager'),
    ]


@pytest.mark.parametrize(
    'src',
    (
        pytest.param('', id='empty'),
        pytest.param('import os\n', id='eager import'),
        pytest.param('lazy = 1\nprint(lazy)\n', id='lazy is a name'),
        pytest.param('lazy.import_x = 1\n', id='attribute'),
        pytest.param('def lazy():\n    pass\n', id='function named lazy'),
        pytest.param('f(lazy=1)\n', id='keyword argument'),
        pytest.param('x = lazy\nimport os\n', id='name then import on the next line'),
        pytest.param('s = """\nlazy import os\n"""\n', id='in a string'),
        pytest.param('# lazy import os\n', id='in a comment'),
        pytest.param('def f():\n    """lazy import os"""\n', id='in a docstring'),
        pytest.param('x = f"{y} lazy import os {z!r}"\n', id='in an f-string'),
        pytest.param("x = f'{lazy}'\nlazy\nimport os\n", id='name alone on its line'),
        pytest.param('nonlazy = 1\nalazy = 2\n', id='lazy inside names'),
        pytest.param('x = a.lazy\nimport os\n', id='after a dot'),
        pytest.param('x.lazy\nimport os\n', id='attribute at line end'),
        pytest.param('print(lazy, import_)\n', id='in call'),
    ),
)
def test_noop(src):
    assert rewrite(src) == src


@pytest.mark.parametrize(
    ('src', 'expected'),
    (
        pytest.param('lazy import os\n', f"if {_IMPORT}(('os', None), line=1): import os\n", id='import'),
        pytest.param(
            'lazy import a.b.c\n', f"if {_IMPORT}(('a.b.c', None), line=1): import a.b.c\n", id='dotted'
        ),
        pytest.param(
            'lazy import a.b as c\n', f"if {_IMPORT}(('a.b', 'c'), line=1): import a.b as c\n", id='as'
        ),
        pytest.param(
            'lazy import a, b.c as d\n',
            f"if {_IMPORT}(('a', None), ('b.c', 'd'), line=1): import a, b.c as d\n",
            id='several',
        ),
        pytest.param(
            'lazy from m import x\n', f"if {_FROM}('m', 0, ('x', None), line=1): from m import x\n", id='from'
        ),
        pytest.param(
            'lazy from m import x as y, z\n',
            f"if {_FROM}('m', 0, ('x', 'y'), ('z', None), line=1): from m import x as y, z\n",
            id='from as',
        ),
        pytest.param(
            'lazy from . import x\n',
            f"if {_FROM}('', 1, ('x', None), line=1): from . import x\n",
            id='relative',
        ),
        pytest.param(
            'lazy from ..pkg.mod import y\n',
            f"if {_FROM}('pkg.mod', 2, ('y', None), line=1): from ..pkg.mod import y\n",
            id='relative dotted',
        ),
        pytest.param(
            'lazy from ... import y\n',
            f"if {_FROM}('', 3, ('y', None), line=1): from ... import y\n",
            id='ellipsis token',
        ),
        pytest.param(
            'lazy from m import (x,)\n',
            f"if {_FROM}('m', 0, ('x', None), line=1): from m import (x,)\n",
            id='trailing comma',
        ),
        pytest.param(
            'lazy from m import (\n    a,  # why\n    b as c,\n)  # end\nx = 1\n',
            f"if {_FROM}('m', 0, ('a', None), ('b', 'c'), line=1): from m import (\n"
            '    a,  # why\n    b as c,\n)  # end\nx = 1\n',
            id='multi-line keeps lines',
        ),
        pytest.param(
            'lazy \\\n  import os\n',
            f"if {_IMPORT}(('os', None), line=1):  \\\n  import os\n",
            id='continuation',
        ),
        pytest.param(
            'x = 1; lazy import os; y = 2\n',
            f"x = 1; {_IMPORT}(('os', None), line=1); y = 2\n",
            id='semicolons',
        ),
        pytest.param(
            'lazy import a; lazy from b import c\n',
            f"{_IMPORT}(('a', None), line=1); {_FROM}('b', 0, ('c', None), line=1)\n",
            id='two on a line',
        ),
        pytest.param(
            'if x:\n    lazy import os  # c\n',
            f"if x:\n    if {_IMPORT}(('os', None), line=2): import os  # c\n",
            id='in if',
        ),
        pytest.param('if x: lazy import os\n', f"if x: {_IMPORT}(('os', None), line=1)\n", id='after colon'),
        pytest.param(
            'lazy  import\tos\n', f"if {_IMPORT}(('os', None), line=1): import\tos\n", id='odd whitespace'
        ),
        pytest.param(
            'x = 1\r\nlazy import os\r\ny = 2',
            f"x = 1\r\nif {_IMPORT}(('os', None), line=2): import os\r\ny = 2",
            id='crlf, no final newline',
        ),
        pytest.param(
            'lazy import os\rx = 1\r', f"if {_IMPORT}(('os', None), line=1): import os\rx = 1\r", id='cr only'
        ),
        pytest.param(
            'for i in r:\n    lazy import os\nelse:\n    lazy import sys\n',
            f"for i in r:\n    if {_IMPORT}(('os', None), line=2): import os\n"
            f"else:\n    if {_IMPORT}(('sys', None), line=4): import sys\n",
            id='for else',
        ),
    ),
)
def test_rewrite(src, expected):
    # alone on its logical line, a statement becomes `if CALL: STATEMENT`
    # (the call returns None; tools reading the syntax tree see the names)
    assert rewrite(src) == expected
    assert len(split_lines(rewrite(src))) == len(split_lines(src))


def test_line_is_the_files():
    # a script's text reaches the codec without the lines before it: the
    # call passes the file's line, which the compiler numbers it
    assert (
        rewrite('x = 1\nlazy import os\n', first_line=3)
        == f"x = 1\nif {_IMPORT}(('os', None), line=4): import os\n"
    )


@pytest.mark.parametrize(
    ('src', 'raised'),
    (
        pytest.param(
            'def f():\n    lazy import os\n',
            "('lazy import not allowed inside functions', 2, 5, 2, 19)",
            id='function',
        ),
        pytest.param(
            'async def f():\n    lazy import os\n',
            "('lazy import not allowed inside functions', 2, 5, 2, 19)",
            id='async function',
        ),
        pytest.param(
            'class C:\n    lazy from os import path\n',
            "('lazy from ... import not allowed inside classes', 2, 5, 2, 29)",
            id='class',
        ),
        pytest.param(
            'try:\n    lazy import os\nexcept E:\n    pass\n',
            "('lazy import not allowed inside try/except blocks', 2, 5, 2, 19)",
            id='try',
        ),
        pytest.param(
            'try: pass\nexcept E: pass\nelse: lazy import os\n',
            "('lazy import not allowed inside try/except blocks', 3, 7, 3, 21)",
            id='try else',
        ),
        pytest.param(
            'lazy from m import *\n', "('lazy from ... import * is not allowed', 1, 1, 1, 21)", id='star'
        ),
        pytest.param(
            'lazy from __future__ import annotations\n',
            "('lazy from __future__ import is not allowed', 1, 1, 1, 5)",
            id='future',
        ),
        pytest.param('lazy import os,\n', "('invalid syntax', 1, 16, 1, 17)", id='trailing comma'),
        pytest.param(
            'lazy from m import a,\n',
            "('trailing comma not allowed without surrounding parentheses', 1, 22, 1, 23)",
            id='from trailing comma',
        ),
        pytest.param('lazy import a as\n', "('invalid syntax', 1, 17, 1, 18)", id='as nothing'),
    ),
)
def test_rejected(src, raised):
    out = rewrite(src)
    assert len(split_lines(out)) == len(split_lines(src))
    assert f'{_ERROR}{raised[:-1]}' in out


@pytest.mark.parametrize(
    'src',
    (
        pytest.param('if x:\n    pass\nelse: lazy import os\n', id='if else is fine'),
        pytest.param('f = lambda: 0\nlazy import os\n', id='lambda colon'),
    ),
)
def test_rejected_noop(src):
    # accepted: rewritten into the runtime call, and nothing raises
    out = rewrite(src)
    assert len(split_lines(out)) == len(split_lines(src))
    assert _ERROR not in out and f"{_IMPORT}(('os', None), line=" in out


def test_stops_after_last_lazy_line():
    # the rest of the file is returned as it is, without being tokenized:
    # an unterminated string after the last lazy statement is left to the compiler
    src = 'lazy import os\n' + 'x = 1\n' * 3 + 'y = "unterminated\n'
    assert (
        rewrite(src)
        == f"if {_IMPORT}(('os', None), line=1): import os\n" + 'x = 1\n' * 3 + 'y = "unterminated\n'
    )


def test_own_error_first():
    # a parser error before a misplaced lazy statement is the compiler's to report
    src = 'x = = 1\ndef f():\n    lazy import os\n'
    out = rewrite(src)
    assert _ERROR not in out and out.startswith('x = = 1\n')
    with pytest.raises(SyntaxError) as raised:
        compile(out, 'm.py', 'exec')
    assert raised.value.lineno == 1 and 'lazy' not in raised.value.msg


def test_only_ast_flag_is_the_interpreters():
    # written out in _rewrite so that the decoder does not import ast
    import ast

    from lazy_codec.rewrite import emitter

    assert emitter.ONLY_AST == ast.PyCF_ONLY_AST
