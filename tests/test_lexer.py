"""The fast lexer against the stdlib tokenizer: same tokens where the rewrite looks.

`lexer.logical_lines` (no tokenize, no re) must give the rewrite exactly
what `tokenized.tokenized_lines` (the stdlib tokenizer) gives, or raise
Unsupported.  Compared on a table of tricky lines, on generated programs,
and on every file of this interpreter's standard library with a lazy
statement appended (so that the whole file is read).
"""

import keyword
import os
import sys
import sysconfig

import pytest
from conftest import run_process

from lazy_codec.rewrite import emitter, lexer, statements, tokenized
from lazy_codec.rewrite.lexer import Tok


def lines_of(text: str, fast: bool, stop_after: int = 10**9, plain: bool = False):
    """the logical lines, as comparable tuples; the rewrite reads only the
    tokens of the lines the fast lexer tokenizes (the others come as one
    OTHER token with an empty string)"""
    reader = lexer.LineReader(text)
    read = lexer.logical_lines if fast else tokenized.tokenized_lines
    return [
        [(t.type, t.string, t.start, t.end) for t in line] for line in read(reader, stop_after, plain)
    ], reader.lines


def header_only(line) -> bool:
    return len(line) == 2 and line[0][1] in lexer.COMPOUND and line[1][1] == ':'


def comparable(fast_lines, slow_lines):
    """the pairs of lines to compare token by token: a line the fast lexer
    did not tokenize starts where the tokenizer's does; a block header it
    gave as word and colon is, for the rewrite, one statement ending there"""
    assert len(fast_lines) == len(slow_lines)
    kept = []
    for fast, slow in zip(fast_lines, slow_lines):
        if len(fast) == 1 and fast[0][0] == lexer.OTHER and fast[0][1] == '':
            assert fast[0][2] == slow[0][2], (fast, slow)  # the line starts where it does
            continue
        if header_only(fast):
            assert fast[0] == slow[0], (fast, slow)
            found = list(statements.split_statements([Tok(*t) for t in slow]))
            assert len(found) == 1 and found[0][0][-1].string == ':', (fast, slow)
            continue
        kept.append((fast, slow))
    return kept


def assert_same(text: str, plain: bool = False, stop_after: int = 10**9) -> bool:
    """True if the fast lexer read `text` as the tokenizer does, False if
    it declined (Unsupported)"""
    try:
        fast, fast_read = lines_of(text, True, stop_after, plain)
    except lexer.Unsupported:
        return False
    slow, slow_read = lines_of(text, False, stop_after, plain)
    for fast_line, slow_line in comparable(fast, slow):
        assert fast_line == slow_line
    assert fast_read == slow_read  # the same physical lines read
    return True


SAME = {
    'plain': 'lazy import os\nx = 1\n',
    'crlf': 'lazy import os\r\nx = (1,\r\n 2)\r\nlazy from a import b\r\n',
    'cr': 'lazy import os\rx = 1\rlazy import sys\r',
    'no final newline': 'x = 1\nlazy import os',
    'docstring': '"""doc\nlazy import x\n"""\nlazy import os\n',
    'escaped quotes': "s = 'it\\'s'; t = \"a\\\\\"\nlazy import os\n",
    'triple with escapes': "s = '''a\\''''\nlazy import os\n",
    'prefixes': "x = rb'\\'' + Rb\"x\" + u'y' + br'''\nz'''\nlazy import os\n",
    'name then string': "if x: y = elif_ = 1\nfor'a' in b: pass\nlazy import os\n",
    'continued string': "s = 'abc\\\ndef'\nlazy import os\n",
    'brackets over lines': 'x = [1,\n  # lazy import q\n  (2,\n   {3: 4})]\nlazy import os\n',
    'backslash': 'x = 1 + \\\n    2\nlazy \\\n  import os\n',
    'comment with quote': "x = 1  # don't\nlazy import os\n",
    'hash in string': "x = '#'; lazy import os\n",
    'compound': 'if x:\n    lazy import os\nelif y: lazy import sys\nelse:\n  pass\n',
    'try': 'try:\n    lazy import os\nexcept ImportError:\n    pass\n',
    'def and class': (
        'def f(a, b=1) -> int:\n    return a\nclass C(B, metaclass=M):\n    x = 1\nlazy import os\n'
    ),
    'async': 'async def f():\n    await x\nlazy import os\n',
    'match': 'match x:\n    case [1, 2]:\n        lazy import os\nmatch = 1\nmatch(x)\n',
    'lambda header': 'if (lambda: 1)(): lazy import os\nif lambda: 1: pass\n',
    'numbers': 'x = 1.5e-3 + 0x1F + 1_000 + .5 + 1j + 0o7 + 0b1 + 1E+5\nlazy import os\n',
    'operators': 'x **= 2; y //= 3; z = a if b else c; w = a @ b; v = ...\nf = lambda: x -> y\n',
    'walrus': 'if (n := 10) > 5: lazy import os\n',
    'lazy as a name': 'lazy = 1\nlazy.x = lazy\nprint(lazy)\nlazy import os\n',
    'dotted relative': 'lazy from ...a.b import (c as d,\n    e,)\nlazy from . import f\n',
    'dedents': 'if a:\n    if b:\n        x = 1\n    y = 2\nz = 3\nlazy import os\n',
    'blank lines with tabs': 'if a:\n\t\n    x = 1\n   \n#c\nlazy import os\n',
    'semicolons': 'x = 1; lazy import os; y = 2\n',
    'string as statement': "'lazy import x'\nlazy import os\n",
    'f-string without field': "x = f'lazy import {{x}}'\nlazy import os\n",
    'f-string with fields': "x = f'{a!r:>10} and {b}' + f'''{c}\n{d}'''\nif f'{a}': lazy import os\n",
    'unicode in strings': "x = 'é'  # ü\nif x == 'ö': lazy import os\n",
    'empty': '',
    'only comments': '# lazy import x\n',
    'continuation at line start': 'x = 1\n\\\nlazy import os\n',
}
if sys.version_info >= (3, 12):
    # PEP 701: fields hold strings in the same quotes, nested fields, escapes
    SAME['f-string nesting quotes'] = "x = f'{a['k']}' + f'{f'{b}'}'\nlazy import os\n"
    SAME['f-string nesting braces'] = "x = f'{a:{w}.{p}}' + f'{ {1: 2}[1]}'\nlazy import os\n"
    SAME['f-string with a backslash'] = "x = f'\\n{a}\\'' + rf'\\{b}'\nlazy import os\n"
    SAME['f-string, triple quotes nesting'] = (
        'x = f"""{a["k"]}\n{f"""{b}"""}"""\nif f"{c["d"]!r:>{w}}": lazy import os\n'
    )
    SAME['f-string, != in a field'] = "x = f'{a != b}' + f'{a!r}'\nlazy import os\n"


@pytest.mark.parametrize('case', sorted(SAME))
def test_same_tokens_as_the_tokenizer(case):
    assert assert_same(SAME[case]), 'the fast lexer declined'


DECLINED = {
    'tab indentation': 'if a:\n\tlazy import os\n',
    'form feed indentation': 'if a:\n\f    x = 1\n',
    'open string': "x = 'abc\nlazy import os\n",
    'open triple string': 'x = """abc\nlazy import os\n',
    'open bracket': 'x = (1,\n',
    'closing bracket': 'x = 1)\nlazy import os\n',
    'stray backslash': 'x = 1 \\ 2\nlazy import os\n',
    'bad dedent': 'if a:\n        x = 1\n    y = 2\n',
    'non-ascii name': 'if café: lazy import os\n',
    'non-ascii lazy line': 'lazy import café\n',
    'odd character': 'if x$: lazy import os\n',
    'number into name': 'if 1if x else 2: lazy import os\n',
}
if sys.version_info >= (3, 12):
    DECLINED['f-string left open'] = "x = f'{a'\nlazy import os\n"
    DECLINED['f-string field left open'] = "x = f'{a['k'}'\nlazy import os\n"
    DECLINED['f-string, a comment in a field'] = 'x = f"""{a # c\n}"""\nlazy import os\n'
    DECLINED['f-string, a newline in a field'] = "x = f'{a\n}'\nlazy import os\n"


@pytest.mark.parametrize('case', sorted(DECLINED))
def test_declines_what_it_cannot_vouch_for(case):
    text = DECLINED[case]
    with pytest.raises(lexer.Unsupported):
        lines_of(text, True)
    # and the rewrite gives what it gives reading with the tokenizer itself
    found, reader = statements.read_statements(text, 10**9)
    tokenizer_reader = lexer.LineReader(text)
    try:
        expected = statements.find_statements(
            tokenized.tokenized_lines(tokenizer_reader, 10**9, False), False, tokenizer_reader
        )
    except SyntaxError as exc:  # what only the interpreter's tokenizer rejects
        pytest.skip(f'the tokenizer rejects it too: {exc}')

    def shown(edits, errors):  # (Edit and LazyError have slots, no __eq__)
        def fields(obj):
            return tuple(getattr(obj, name) for name in type(obj).__slots__)

        return [fields(e) for e in edits], [(fields(err), fields(e)) for err, e in errors]

    assert shown(*emitter.edits_for(found)) == shown(*emitter.edits_for(expected))
    assert reader.lines == tokenizer_reader.lines


@pytest.mark.parametrize('case', sorted(SAME))
def test_stops_where_asked(case):
    """the lines read end with the logical line that holds row 1"""
    text = SAME[case]
    assert assert_same(text, stop_after=1), 'the fast lexer declined'
    _, read = lines_of(text, True, stop_after=1)
    everything, _ = lines_of(text, False)
    first = next((line for line in everything if line[-1][3][0] >= 1), None)
    # the physical lines through the end of the first logical line, no more
    assert len(read) == (first[-1][3][0] if first is not None else len(lexer.split_lines(text)))


def test_plain_imports_are_tokenized():
    text = 'import os\nx = 1; from a import b\nif y:\n    import c\n'
    fast, _ = lines_of(text, True, plain=True)
    assert [line[0][1] for line in fast if line[0][0] == lexer.NAME] == ['import', 'x', 'if', 'import']
    assert assert_same(text, plain=True)


@pytest.mark.parametrize(
    ('strings', 'expected'),
    (
        pytest.param(['x', '=', '1'], [0, 0, 0], id='no brackets'),
        pytest.param(['f', '(', 'x', ',', '[', 'y', ']', ')'], [0, 0, 1, 1, 1, 2, 1, 0], id='nested'),
        pytest.param(['(', ']'], [0, 0], id='any shape closes'),
        pytest.param(['x', ')', ';', '(', 'y'], [0, -1, -1, -1, 0], id='closed, never opened'),
    ),
)
def test_bracket_depths(strings, expected):
    assert statements.bracket_depths(strings) == expected


@pytest.mark.parametrize(
    ('strings', 'at', 'expected'),
    (
        pytest.param(['(', '[', ']', ')', '('], 0, 3, id='outer'),
        pytest.param(['(', '[', ']', ')'], 1, 2, id='inner'),
        pytest.param(['(', 'x'], 0, -1, id='left open'),
    ),
)
def test_closing_bracket(strings, at, expected):
    assert statements.closing_bracket(strings, at) == expected


def test_keywords_are_the_interpreters():
    assert lexer.KEYWORDS == frozenset(keyword.kwlist)


def test_split_lines():
    assert lexer.split_lines('a\nb\r\nc\rd') == ['a\n', 'b\r\n', 'c\r', 'd']
    assert lexer.split_lines('') == []
    assert lexer.split_lines('a\n') == ['a\n']


@pytest.mark.skipif(sys.version_info >= (3, 15), reason='the codec is plain UTF-8 on 3.15+')
def test_the_codec_imports_no_tokenizer():
    """the first decode imports neither tokenize nor re (structural: their
    import is what made a script's first decode slow)"""
    code = (
        'import sys\n'
        'before = set(sys.modules)\n'
        'code = compile(b"# coding: lazy\\n\\"\\"\\"doc\\"\\"\\"\\nimport sys\\nlazy import json\\n'
        'def f(x):\\n    return json.dumps(x)\\n", "m.py", "exec")\n'
        'assert "__lazy_codec_abi1__" in code.co_names, code.co_names\n'
        'print(sorted(set(sys.modules) - before))\n'
    )
    out = run_process([sys.executable, '-I', '-c', code], check=True).stdout
    ours = [
        'lazy_codec._codec',
        'lazy_codec._entry',
        'lazy_codec.rewrite',
        'lazy_codec.rewrite.cookie',
        'lazy_codec.rewrite.emitter',
        'lazy_codec.rewrite.lexer',
        'lazy_codec.rewrite.statements',
        'lazy_codec.rewrite.verdicts',
    ]
    assert eval(out) == ours or eval(out) == ['lazy_codec'] + ours


def _stdlib_files():
    root = sysconfig.get_paths()['stdlib']
    for base, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in ('site-packages', '__pycache__'))
        for name in sorted(files):
            if name.endswith('.py'):
                yield os.path.join(base, name)


def test_stdlib_read_alike():
    """every stdlib file, with `lazy import os` appended so that the whole
    file is read: the fast lexer gives the tokenizer's tokens or declines"""
    read = declined = 0
    for path in _stdlib_files():
        try:
            with open(path, 'rb') as f:
                text = f.read().decode('utf-8')
        except (OSError, UnicodeDecodeError):
            continue  # a dangling link (Debian's sitecustomize), a latin-1 test file
        if not text.endswith(('\n', '\r')):
            text += '\n'
        text += 'lazy import os\n'
        if assert_same(text):
            read += 1
        else:
            declined += 1
    print(f'\n[lexer] python {sys.version.split()[0]}: stdlib files read alike={read} declined={declined}')
    # (Debian's python3 ships the standard library split up: 668 files for 3.11)
    assert read > 500 and declined < read / 3


def test_generated_programs_read_alike():
    """the property tests' programs (every form of lazy statement, odd
    whitespace, continuations, strings and comments naming `lazy import`)"""
    hypothesis = pytest.importorskip('hypothesis')
    from test_properties import FAST, program

    outcomes = []

    @FAST
    @hypothesis.given(program(newlines=('\n', '\r\n', '\r')))
    def read_alike(prog):
        outcomes.append(assert_same(prog.lazy))
        assert_same(prog.lazy, plain=True)

    read_alike()
    assert outcomes.count(True) > len(outcomes) / 2  # mostly read, not declined
