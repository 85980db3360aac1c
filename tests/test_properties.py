"""Property-based tests of the rewrite, over a small grammar of module-level code.

Hypothesis builds whole modules out of lazy statements of every form (plain,
dotted, `as`, several names, `from ... import`, parenthesized lists over several
lines with comments and a trailing comma, backslash continuations, `;`, tabs and
form feeds between tokens, one-line and indented `if`/`elif`/`else`/`for`/
`while`/`with` blocks and, on 3.10+, `match` arms), the identifier `lazy` used
as a variable, attribute, keyword argument, function, class and loop variable,
and strings, f-strings, comments and docstrings whose text is `lazy import x`.
Each module comes in two versions built side by side: the lazy one, and the eager one (the same statements
without `lazy`).  Properties:

(a) `rewrite` never raises and keeps the number of lines;
(b) every line that holds no lazy statement comes back byte for byte, and
    every line keeps its line ending;
(c) the rewritten text compiles (and on 3.15, the lazy text itself does);
(d) run in a subprocess with the cookie, the module prints what the eager
    module prints.

Every name bound by an import is used by the module's last line, and every
name is bound once, so that lazy and eager must agree (PEP 810).  The example
counts are fixed and the search derandomized, so that CI is repeatable.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field

import pytest

hypothesis = pytest.importorskip('hypothesis')
from conftest import COOKIE as COOKIE_LINE  # noqa: E402
from conftest import NATIVE, run_file, write_files  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from lazy_codec.rewrite.emitter import rewrite  # noqa: E402
from lazy_codec.rewrite.lexer import split_lines  # noqa: E402

COOKIE = COOKIE_LINE.rstrip('\n')  # (the programs here join lines)
PLAIN = '# a plain comment where the cookie was'
SHEBANG = '#!/usr/bin/env python3'

FAST = settings(max_examples=200, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=40, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))

# -- the grammar ---------------------------------------------------------------

# importable stdlib modules and names in them, all of which exist on 3.9-3.15
MODULES = (
    'json',
    'colorsys',
    'fractions',
    'textwrap',
    'decimal',
    'xml.dom.minidom',
    'email.mime.text',
    'urllib.parse',
    'html.parser',
    'json.decoder',
)
ATTRS = {
    'json': ('dumps', 'loads', 'JSONDecodeError'),
    'fractions': ('Fraction',),
    'colorsys': ('rgb_to_hsv', 'hsv_to_rgb'),
    'textwrap': ('dedent', 'shorten'),
    'decimal': ('Decimal',),
    'xml.dom': ('minidom',),  # a submodule, through `from`
    'xml.dom.minidom': ('parseString',),
    'email.mime.text': ('MIMEText',),
    'urllib.parse': ('quote', 'urlsplit'),
}
ALIASES = ('a', 'b', 'md', 'F', 'J', 'lazy_', 'import_', 'from_', 'lazy_import', 'as_', 'lazy')

# what stands between two tokens of a statement on one line
BLANK = st.sampled_from((' ', ' ', ' ', '  ', '\t', ' \t', '\x0c', ' \x0c ', '\t\x0c'))


@dataclass
class Piece:
    """some whole lines of module code, in its lazy and its eager version"""

    lazy: list[str]  # physical lines, without their endings
    eager: list[str]
    touched: list[bool]  # per lazy line: does a lazy statement reach it
    uses: list[str] = field(default_factory=list)  # expressions for the last line
    binds: list[str] = field(default_factory=list)  # names bound by imports
    statement: bool = True  # False: only comments and blank lines


def _indent(piece: Piece, prefix: str) -> Piece:
    """the piece one block deeper; continuation lines keep their own text"""
    return Piece(
        [
            prefix + line if line and not cont else line
            for line, cont in zip(piece.lazy, _continuations(piece.lazy))
        ],
        [
            prefix + line if line and not cont else line
            for line, cont in zip(piece.eager, _continuations(piece.eager))
        ],
        piece.touched,
        piece.uses,
        piece.binds,
        piece.statement,
    )


def _continuations(lines: list[str]) -> list[bool]:
    """which lines continue the one before (backslash, brackets, triple quotes)"""
    out = []
    depth = 0
    in_triple = False
    previous_backslash = False
    for line in lines:
        out.append(depth > 0 or in_triple or previous_backslash)
        # good enough for the grammar below: brackets and triple quotes are
        # never unbalanced inside a one-line string
        in_triple ^= line.count('"""') % 2 == 1
        if not in_triple and '"""' not in line and not line.lstrip().startswith('#'):
            code = line.split('#', 1)[0] if "'" not in line and '"' not in line else line
            depth += code.count('(') + code.count('[') - code.count(')') - code.count(']')
        previous_backslash = line.endswith('\\') and not line.lstrip().startswith('#')
    return out


@st.composite
def import_spec(draw):
    """(statement after `lazy `, as a list of tokens; uses; binds)"""
    if draw(st.booleans()):
        n = draw(st.integers(1, 3))
        parts, uses, binds = [], [], []
        for _ in range(n):
            module = draw(st.sampled_from(MODULES))
            alias = draw(st.one_of(st.none(), st.sampled_from(ALIASES)))
            if alias is None:
                parts.append([module])
                uses.append(module)
                binds.append(module.split('.')[0])
            else:
                parts.append([module, 'as', alias])
                uses.append(alias)
                binds.append(alias)
        return 'import', parts, uses, binds
    module = draw(st.sampled_from(sorted(ATTRS)))
    names = draw(st.lists(st.sampled_from(ATTRS[module]), min_size=1, max_size=3, unique=True))
    parts, uses, binds = [], [], []
    for name in names:
        alias = draw(st.one_of(st.none(), st.sampled_from(ALIASES)))
        parts.append([name] if alias is None else [name, 'as', alias])
        uses.append(alias or name)
        binds.append(alias or name)
    return ('from', module), parts, uses, binds


@st.composite
def lazy_statement(draw, one_line=False):
    """a lazy statement, maybe over several lines; (lazy lines, eager lines, uses, binds)"""
    kind, parts, uses, binds = draw(import_spec())
    sep = draw(BLANK)
    # between `lazy` and the next word: blanks, or a backslash continuation
    if not one_line and draw(st.integers(0, 5)) == 0:
        after_lazy = draw(st.sampled_from((' \\\n', '\\\n    ', ' \\\n\t', '\t\\\n  ')))
    else:
        after_lazy = draw(BLANK)

    def alias_text(part):
        return draw(BLANK).join(part) if len(part) == 3 else part[0]

    if kind == 'import':
        comma = draw(st.sampled_from((', ', ',', ' , ', ',\t')))
        body = 'import' + sep + comma.join(alias_text(p) for p in parts)
        if not one_line and len(parts) > 1 and draw(st.integers(0, 3)) == 0:
            body = body.replace(comma, ', \\\n    ', 1)  # a continuation inside
    else:
        module = kind[1]
        names = [alias_text(p) for p in parts]
        head = 'from' + draw(BLANK) + module + draw(BLANK) + 'import' + sep
        style = 'flat' if one_line else draw(st.sampled_from(('flat', 'flat', 'parens', 'tall', 'backslash')))
        if style == 'flat':
            body = head + ', '.join(names)
        elif style == 'parens':
            trailing = ',' if draw(st.booleans()) else ''
            body = head + '(' + ', '.join(names) + trailing + ')'
        elif style == 'backslash':
            body = head + ', \\\n    '.join(names)
        else:
            lines = [head + '(' + draw(st.sampled_from(('', '  # names', '\t# lazy import x')))]
            for i, name in enumerate(names):
                last = i == len(names) - 1
                comma = ',' if not last or draw(st.booleans()) else ''
                comment = draw(st.sampled_from(('', '', '  # why', '  # lazy from m import y')))
                lines.append(draw(st.sampled_from(('    ', '\t', '  '))) + name + comma + comment)
                if draw(st.integers(0, 4)) == 0:
                    lines.append('')  # a blank line inside the parentheses
            lines.append(draw(st.sampled_from((')', ')  # end', '  )'))))
            body = '\n'.join(lines)
    lazy_text = 'lazy' + after_lazy + body
    return lazy_text.split('\n'), body.split('\n'), uses, binds


@st.composite
def lazy_piece(draw, one_line=False):
    lazy, eager, uses, binds = draw(lazy_statement(one_line))
    comment = draw(st.sampled_from(('', '', '  # lazy import json', '  # type: ignore', '\t# c')))
    lazy[-1] += comment
    eager[-1] += comment
    return Piece(lazy, eager, [True] * len(lazy), uses, binds)


@st.composite
def semicolon_piece(draw):
    """simple statements on one line, joined by `;`: some lazy, some not"""
    n = draw(st.integers(2, 4))
    lazy_parts, eager_parts, uses, binds = [], [], [], []
    any_lazy = False
    for _ in range(n):
        if draw(st.booleans()):
            lazy, eager, u, b = draw(lazy_statement(one_line=True))
            lazy_parts.append(lazy[0])
            eager_parts.append(eager[0])
            uses += u
            binds += b
            any_lazy = True
        else:
            text = draw(st.sampled_from(SIMPLE_PLAIN))
            lazy_parts.append(text)
            eager_parts.append(text)
    joiner = draw(st.sampled_from(('; ', ';', ' ; ', ';\t')))
    end = draw(st.sampled_from(('', '', ';')))
    return Piece([joiner.join(lazy_parts) + end], [joiner.join(eager_parts) + end], [any_lazy], uses, binds)


# one-line simple statements that are not lazy statements (some use the word)
SIMPLE_PLAIN = (
    'lazy = 1',
    '_ns.lazy = 2',
    '_kw = dict(lazy=3)',
    'lazy_count = 4',
    '_x = [lazy for lazy in range(2)]',
    '_s = "lazy import json"',
    "_s = 'lazy from json import dumps'",
    '_s = f"{1} lazy import x {len(\'lazy import y\')}"',
    "_s = b'lazy import json'",
    '_f = lambda lazy=1: lazy',
    '(lazy) = 5',
    'lazy, _y = 6, 7',
    'lazy: int = 8',
    '_t = lazy',
    '_z = lazy if lazy else lazy',
    'pass',
)

# whole pieces that are not lazy statements (the word everywhere)
PLAIN_PIECES = (
    ['lazy = 9'],
    ['lazy', 'import os'],  # a name, then an eager import on the next line
    ['lazy; import os'],
    ['_t = lazy .__class__'],
    ['def lazy(lazy=None):', '    return lazy'],
    ['class lazy:', '    import_ = 1'],
    ['for lazy in range(1):', '    pass'],
    ['_s = """', 'lazy import json', 'lazy from json import (', '    dumps,', ')', '"""'],
    ['"""lazy import json"""'],
    ['def _doc():', '    """', '    lazy import json', '    """', '    return 1'],
    ['_s = ("lazy "', '      "import json")'],
    ['_s = "lazy \\', 'import json"'],
    ["_s = f'lazy import {lazy!r}'"],
    ['print("lazy import x", lazy == lazy)'],
    ['_s = r"lazy \\import x"'],
    ['x = 1  # lazy import json'],
    ['_ns.lazy = lazy'],
    ['_r = [lazy', '      for lazy in range(2)]'],
)
COMMENTS = (
    ['# lazy import json'],
    ['#lazy from json import dumps'],
    [''],
    ['', ''],
    ['\t# lazy \\'],
)


@st.composite
def plain_piece(draw):
    lines = list(draw(st.sampled_from(PLAIN_PIECES)))
    return Piece(lines, list(lines), [False] * len(lines))


@st.composite
def comment_piece(draw):
    lines = list(draw(st.sampled_from(COMMENTS)))
    return Piece(lines, list(lines), [False] * len(lines), statement=False)


@st.composite
def one_line_block(draw):
    """`if True: <simple statements>`: the body on the header's line"""
    header = draw(
        st.sampled_from(
            (
                'if True:',
                'if 1 :',
                'for _ in range(1):',
                'with _ctx():',
                'while lazy_once(@):',
                'if False: pass\nelse:',
                'for lazy in range(1):',
                'with _ctx() as lazy:',
            )
        )
    )
    body = draw(st.one_of(semicolon_piece(), lazy_piece(one_line=True)))
    blank = draw(st.sampled_from((' ', '\t', '')))
    head = header.split('\n')
    return Piece(
        head[:-1] + [head[-1] + blank + body.lazy[0]],
        head[:-1] + [head[-1] + blank + body.eager[0]],
        [False] * (len(head) - 1) + body.touched,
        body.uses,
        body.binds,
    )


# compound statement headers: (lines, how many units deeper the body is)
HEADERS = [
    ('if True:', 1),
    ('for _ in range(1):', 1),
    ('with _ctx():', 1),
    ('with _ctx() as _c, _ctx():', 1),
    ('if False:\n    pass\nelse:', 1),
    ('while lazy_once(@):', 1),
    ('for lazy in range(1):', 1),
    ('with _ctx() as lazy:', 1),
    ('if False:\n    pass\nelif True:', 1),
]
if sys.version_info >= (3, 10):
    HEADERS += [
        ('match 1:\n    case 1:', 2),
        ('match lazy_once(@):\n    case False:\n        pass\n    case _:', 2),
    ]


def block(children):
    @st.composite
    def build(draw):
        header, depth = draw(st.sampled_from(HEADERS))
        unit = draw(st.sampled_from(('    ', '  ', '\t')))
        body = draw(st.lists(children, min_size=1, max_size=3))
        if not any(p.statement for p in body):
            body.append(Piece(['pass'], ['pass'], [False]))
        head = header.split('\n')
        # the header's own lines: `else:` after an `if False:` body, `case`
        head = [line.replace('    ', unit) for line in head]
        piece = Piece(list(head), list(head), [False] * len(head))
        for child in body:
            child = _indent(child, unit * depth)
            _extend(piece, child)
        return piece

    return build()


def _extend(piece: Piece, other: Piece) -> None:
    piece.lazy += other.lazy
    piece.eager += other.eager
    piece.touched += other.touched
    piece.uses += other.uses
    piece.binds += other.binds


leaf = st.one_of(
    lazy_piece(),
    lazy_piece(),
    lazy_piece(),
    semicolon_piece(),
    plain_piece(),
    comment_piece(),
    one_line_block(),
)
statement = st.recursive(leaf, lambda children: block(children), max_leaves=5)

PRELUDE = [
    'class _NS: pass',
    '_ns = _NS()',
    'lazy = 0',
    'class _ctx:',
    '    def __enter__(self): return self',
    '    def __exit__(self, *exc): return False',
    '_seen = set()',
    'def lazy_once(key):  # True the first time for each `while` loop',
    '    if key in _seen:',
    '        return False',
    '    _seen.add(key)',
    '    return True',
    'def _d(x):',
    "    return type(x).__name__ + ':' + str(getattr(x, '__name__', ''))",
]


@dataclass
class Program:
    lazy: str  # the module with the cookie
    eager: str  # the same without `lazy`, and a comment instead of the cookie
    touched: list[bool]  # per physical line of `lazy`
    newline: str


def _unique_binds(pieces: list[Piece]) -> bool:
    seen = []
    for piece in pieces:
        seen += [name for name in piece.binds if name != 'lazy']
    return len(seen) == len(set(seen))


@st.composite
def program(draw, newlines=('\n', '\r\n')):
    pieces = draw(st.lists(statement, min_size=1, max_size=6).filter(_unique_binds))
    # at least one lazy statement, at module level, somewhere
    extra = draw(lazy_piece())
    if _unique_binds(pieces + [extra]):
        pieces.insert(draw(st.integers(0, len(pieces))), extra)
    newline = draw(st.sampled_from(newlines))
    shebang = draw(st.integers(0, 4)) == 0
    head = [SHEBANG] if shebang else []
    lazy = head + [COOKIE] + PRELUDE
    eager = head + [PLAIN] + PRELUDE
    touched = [False] * len(lazy)
    uses = []
    for piece in pieces:
        lazy += piece.lazy
        eager += piece.eager
        touched += piece.touched
        uses += piece.uses
    # the last line uses every bound name (once each, in order)
    last = 'print([_d(_e) for _e in ({})])'.format(''.join(u + ', ' for u in dict.fromkeys(uses)))
    lazy.append(last)
    eager.append(last)
    touched.append(False)
    final = newline if draw(st.integers(0, 3)) else ''  # sometimes no final newline
    return Program(
        _number(newline.join(lazy) + final), _number(newline.join(eager) + final), touched, newline
    )


def _number(text: str) -> str:
    """give each `while lazy_once(@):` its own key, so that it runs once"""
    parts = text.split('@')
    return ''.join(part + (str(i) if i < len(parts) - 1 else '') for i, part in enumerate(parts))


def _ending(line: str) -> str:
    return line[len(line.rstrip('\r\n')) :]


# -- (a), (b), (c): the rewrite as a function ------------------------------------
# one generation, several properties: generating a module costs far more than
# rewriting it, and the budget is ~40 s per interpreter


@FAST
@given(program(newlines=('\n', '\r\n', '\r')), st.integers(1, 3))
def test_rewrite_properties(prog, first_line):
    """(a) never raises, same line count; (b) untouched lines byte for byte,
    every line ending kept; (c) the result compiles (on 3.15 the lazy text
    itself does too); `first_line` (the text starts on that line of its
    file) changes nothing but the `line=` each call passes, shifted by
    first_line - 1; and a rewrite's own rewrite is itself"""
    src_lines = split_lines(prog.lazy)
    assert len(src_lines) == len(prog.touched)
    out = rewrite(prog.lazy)  # (a)
    out_lines = split_lines(out)
    assert len(out_lines) == len(src_lines)
    for number, (before, after, touched) in enumerate(zip(src_lines, out_lines, prog.touched), 1):
        assert _ending(after) == _ending(before), f'line {number}: ending changed'  # (b)
        if not touched:
            assert after == before, f'line {number} holds no lazy statement but changed'
    if not any(prog.touched):
        assert out == prog.lazy
    # (c)
    assert 'raise __lazy_codec_abi1__' not in out  # no statement was rejected
    compile(out, '<rewritten>', 'exec', dont_inherit=True)
    compile(prog.eager, '<eager>', 'exec', dont_inherit=True)  # the grammar is sound
    if NATIVE:
        compile(prog.lazy, '<native>', 'exec', dont_inherit=True)
    # each call passes the line it starts on, which is the statement's
    calls = [
        node
        for node in ast.walk(ast.parse(out))
        if isinstance(node, ast.Call)
        and getattr(node.func, 'value', None) is not None
        and getattr(node.func.value, 'id', None) == '__lazy_codec_abi1__'
    ]
    assert bool(calls) == any(prog.touched)
    for call in calls:
        assert [ast.literal_eval(kw.value) for kw in call.keywords] == [call.lineno]
    # a text that starts on a later line of its file passes the file's lines
    shifted = re.sub(r'(\), line=)(\d+)', lambda m: f'{m.group(1)}{int(m.group(2)) + first_line - 1}', out)
    assert rewrite(prog.lazy, first_line) == shifted
    assert rewrite(out) == out


# -- (d): the rewrite as the interpreter runs it ----------------------------------


def _run(directory: str, name: str, data: str, how: str) -> subprocess.CompletedProcess:
    write_files(directory, {name + '.py': data})
    return run_file(directory, name, how, unset_env=('PYTHONPATH',), timeout=30, text=False)


@SLOW
@given(program(), st.sampled_from(('script', 'import')))
def test_runs_like_eager(prog, how):
    """(d) the module with the cookie prints what the eager module prints"""
    with tempfile.TemporaryDirectory() as directory:
        lazy = _run(directory, 'lazy_mod', prog.lazy, how)
        eager = _run(directory, 'eager_mod', prog.eager, how)
    assert eager.returncode == 0, eager.stderr.decode(errors='replace')
    assert lazy.returncode == 0, lazy.stderr.decode(errors='replace')
    assert lazy.stdout == eager.stdout
    assert lazy.stderr == eager.stderr == b''


# -- the bug that (d) found (fixed) -------------------------------------------------
# 3.11-3.14: LazyName.__eq__ rebuilt the module dict in the middle of the C
# lookup that called it; in a module with some 15-35 globals the lookup then
# missed (NameError for a bound lazy name) or read freed memory (SIGSEGV).


def _dict_bug_module(globals_count: int) -> str:
    return (
        f'{COOKIE}\n'
        f"globals().update({{f'g{{i}}': i for i in range({globals_count})}})\n"
        'lazy import colorsys\n'
        'lazy import json\n'
        'def f():\n'
        '    return colorsys.__name__, json.__name__\n'
        'print(f())\n'
    )


@pytest.mark.parametrize(
    'globals_count',
    [
        pytest.param(20, id='20 globals: was NameError'),
        pytest.param(21, id='21 globals: was SIGSEGV'),
    ],
)
def test_lazy_names_in_a_bigger_module(globals_count):
    with tempfile.TemporaryDirectory() as directory:
        result = _run(directory, 'mod', _dict_bug_module(globals_count), 'import')
    assert (result.returncode, result.stdout, result.stderr) == (0, b"('colorsys', 'json')\n", b'')


def test_module_sizes_sweep():
    """the same for 0-40 globals: which sizes fail, on this version"""
    failed = {}
    with tempfile.TemporaryDirectory() as directory:
        for n in range(41):
            result = _run(directory, f'mod{n}', _dict_bug_module(n), 'import')
            if (result.returncode, result.stdout) != (0, b"('colorsys', 'json')\n"):
                failed[n] = result.returncode
    assert failed == {}


# -- the grammar's own checks ---------------------------------------------------


def test_grammar_examples_run():
    """a hand-written module of the grammar's hardest forms, so that a failure of
    the properties above is not a broken grammar"""
    lazy = [
        'lazy \\',
        '    import json',
        'lazy\tfrom\x0cfractions import\tFraction as F',
        'lazy from colorsys import (  # lazy import x',
        '    rgb_to_hsv as lazy_,  # why',
        '',
        '\thsv_to_rgb,',
        ')  # end',
        'x = 1; lazy import xml.dom.minidom; lazy from xml.dom import minidom as md;',
        'if True: lazy import email.mime.text',
        'with _ctx():',
        '\tlazy from json import dumps as lazy',
        '_s = """',
        'lazy import textwrap',
        '"""',
    ]
    eager = [
        'import json',
        '',
        'from\x0cfractions import\tFraction as F',
        'from colorsys import (  # lazy import x',
        '    rgb_to_hsv as lazy_,  # why',
        '',
        '\thsv_to_rgb,',
        ')  # end',
        'x = 1; import xml.dom.minidom; from xml.dom import minidom as md;',
        'if True: import email.mime.text',
        'with _ctx():',
        '\tfrom json import dumps as lazy',
        '_s = """',
        'lazy import textwrap',
        '"""',
    ]
    last = [
        'print([_d(_e) for _e in (json, F, lazy_, hsv_to_rgb, xml.dom.minidom, md, '
        'email.mime.text, lazy, _s)])'
    ]
    src = '\n'.join([COOKIE, *PRELUDE, *lazy, *last]) + '\n'
    plain = '\n'.join([PLAIN, *PRELUDE, *eager, *last]) + '\n'
    assert len(split_lines(rewrite(src))) == len(split_lines(src))
    with tempfile.TemporaryDirectory() as directory:
        a = _run(directory, 'lazy_mod', src, 'import')
        b = _run(directory, 'eager_mod', plain, 'import')
    assert b.returncode == 0, b.stderr.decode()
    assert (a.returncode, a.stdout, a.stderr) == (0, b.stdout, b'')
    assert a.stdout == (
        b"['module:json', 'ABCMeta:Fraction', 'function:rgb_to_hsv', 'function:hsv_to_rgb', "
        b"'module:xml.dom.minidom', 'module:xml.dom.minidom', 'module:email.mime.text', "
        b"'function:dumps', 'str:']\n"
    )
