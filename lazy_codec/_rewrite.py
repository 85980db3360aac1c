"""The rewrite: PEP 810 `lazy` statements -> calls into the runtime, lines kept.

`rewrite(text)` is a pure str -> str transform.  Every line that holds no lazy
statement comes back byte for byte; a lazy statement becomes an import of the
runtime's entry point plus one call, on the statement's own lines.  A file
whose lazy syntax 3.15 would reject becomes blank lines and one `raise` of the
SyntaxError that 3.15 gives, on the line 3.15 reports.

Only the part of the file up to the last line that can hold a lazy statement
is tokenized: the rest is never looked at.
"""
from __future__ import annotations

import re
import tokenize
from collections import namedtuple
from keyword import iskeyword

_ONLY_AST = 0x400  # ast.PyCF_ONLY_AST: the parser's errors, not the compiler's

# the stable names rewritten code calls: bytecode cached by one release must
# run with the next, so these never change meaning (see _abi1.py)
ENTRY_MODULE = 'lazy_codec._abi1'
ENTRY_NAME = '__lazy_codec_abi1__'
# a module that names this may make its plain imports lazy: all of it is read
LAZY_MODULES_NAME = '__lazy_modules__'

# where a lazy statement can be: the word, then blanks or backslash
# continuations, then `import` or `from` (and not preceded by a name's
# character or a dot: checked apart, so that the search runs on the literal)
_CANDIDATE = re.compile(
    r'lazy(?:[ \t\f]+|[ \t\f]*\\(?:\r\n|\r|\n)[ \t\f]*)+(?:import|from)\b',
)
_LINE = re.compile(r'[^\r\n]*(?:\r\n|\r|\n)?')
_NEWLINE = re.compile(r'\r\n?|\n')
# `lazy ` at the start of a line, as bytes: what makes a statement eager
LAZY_KEYWORD = re.compile(rb'(?m)^([ \t]*)lazy[ \t]+(?=import\b|from\b)')
# PEP 263's cookie, as bytes (group 1: everything before the codec's name)
COOKIE = re.compile(rb'^([ \t\f]*#[^\r\n]*?coding[:=][ \t]*)[-\w.]+', re.MULTILINE)

_SKIP = frozenset((tokenize.COMMENT, tokenize.NL))
_COMPOUND = frozenset((
    'if', 'elif', 'else', 'for', 'while', 'with', 'try', 'except', 'finally',
    'def', 'class', 'async', 'match', 'case',
))
_SCOPE_WORDS = {'def': 'functions', 'class': 'classes'}
_TRY_WORDS = frozenset(('try', 'except', 'finally'))

MSG_PLACE = 'lazy {} not allowed inside {}'
MSG_STAR = 'lazy from ... import * is not allowed'
MSG_FUTURE = 'lazy from __future__ import is not allowed'
MSG_TRAILING = 'trailing comma not allowed without surrounding parentheses'
MSG_INVALID = 'invalid syntax'


# a SyntaxError that 3.15 raises for a lazy statement: offsets are 1-based,
# as SyntaxError has them; `grammar` says the parser raises it (else the
# compiler does, after the parser has found no error of its own)
LazyError = namedtuple('LazyError', 'msg lineno offset end_lineno end_offset grammar')
_Tok = tokenize.TokenInfo


def cookie_name(data: bytes) -> bytes | None:
    """the codec name the PEP 263 cookie of `data`'s first two lines gives"""
    match = COOKIE.search(b'\n'.join(data.split(b'\n', 2)[:2]))
    return None if match is None else data[match.end(1):match.end()].lower()


class _LineReader:
    """the text's physical lines, split only as far as the tokenizer reads"""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines: list[str] = []  # the lines read so far, endings kept
        self.end = 0  # where the next line starts

    def readline(self) -> str:
        line = _LINE.match(self.text, self.end).group()
        if not line:
            return ''
        self.lines.append(line)
        self.end += len(line)
        # the tokenizer wants '\n' endings; columns are the same
        return line.rstrip('\r\n') + '\n'


def _tokens(reader: _LineReader):
    """tokenize as the compiler does; stops quietly at an error"""
    try:
        yield from tokenize.generate_tokens(reader.readline)
    except (tokenize.TokenError, SyntaxError):
        return  # the compiler will report it, at its own line


def _logical_lines(reader: _LineReader, stop_after: int):
    """yield the significant tokens of each logical line through `stop_after`"""
    current: list[_Tok] = []
    for tok in _tokens(reader):
        if tok.type in _SKIP:
            continue
        if tok.type in (tokenize.INDENT, tokenize.DEDENT):
            yield [tok]
        elif tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            if current:
                yield current
                current = []
            if tok.type == tokenize.ENDMARKER or tok.start[0] >= stop_after:
                return
        else:
            current.append(tok)


def _split_statements(line: list[_Tok]):
    """yield (statement tokens, header word or None) for one logical line

    the header word is set for a simple statement written after a compound
    statement's colon on the same line (`if x: lazy import y`).
    """
    first = line[0].string
    header = first in _COMPOUND and line[0].type == tokenize.NAME
    if header and first in ('match', 'case') and (
            len(line) < 2 or line[1].string in (':', '=', '.')):
        header = False
    depth = 0
    lambdas = 0
    start = 0
    body_of = None
    for i, tok in enumerate(line):
        if tok.type != tokenize.OP:
            if tok.string == 'lambda' and depth == 0:
                lambdas += 1
            continue
        if tok.string in '([{':
            depth += 1
        elif tok.string in ')]}':
            depth -= 1
        elif depth == 0 and tok.string == ';':
            yield line[start:i], body_of
            start = i + 1
        elif depth == 0 and tok.string == ':' and header and body_of is None:
            if lambdas:
                lambdas -= 1
                continue
            word = line[1].string if first == 'async' else first
            yield line[start:i + 1], None
            start = i + 1
            body_of = word
    if start < len(line):
        yield line[start:], body_of


# a valid statement: kind is 'import' or 'from'; call, the runtime call's arguments
_Spec = namedtuple('_Spec', 'kind call')


def _parse(stmt: list[_Tok]) -> _Spec | tuple[str, _Tok]:
    """parse the tokens after `lazy`: a spec, or (message, token at fault)"""
    toks = stmt[1:]
    end = _Tok(tokenize.NEWLINE, '', stmt[-1].end, (stmt[-1].end[0], stmt[-1].end[1] + 1), '')
    pos = 0

    def peek() -> _Tok:
        return toks[pos] if pos < len(toks) else end

    def name() -> str | None:
        nonlocal pos
        tok = peek()
        if tok.type == tokenize.NAME and not iskeyword(tok.string):
            pos += 1
            return tok.string
        return None

    def dotted() -> str | None:
        nonlocal pos
        part = name()
        if part is None:
            return None
        parts = [part]
        while peek().string == '.':
            pos += 1
            part = name()
            if part is None:
                return None
            parts.append(part)
        return '.'.join(parts)

    def as_name() -> tuple[bool, str | None]:
        nonlocal pos
        if peek().string != 'as':
            return True, None
        pos += 1
        alias = name()
        return alias is not None, alias

    def bad_alias():
        """3.15's message for what follows `as` when it is not a name"""
        tok = peek()
        if tok.string in ('None', 'True', 'False'):
            return f'cannot use {tok.string} as import target', tok
        return MSG_INVALID, tok

    if toks[0].string == 'import':
        pos = 1
        aliases = []
        while True:
            module = dotted()
            if module is None:
                return MSG_INVALID, peek()
            ok, alias = as_name()
            if not ok:
                return bad_alias()
            aliases.append((module, alias))
            if peek().string != ',':
                break
            pos += 1
        if pos != len(toks):
            return MSG_INVALID, peek()
        return _Spec('import', ', '.join(repr(a) for a in aliases))

    pos = 1  # after `from`
    level = 0
    while peek().string in ('.', '...'):
        level += len(peek().string)
        pos += 1
    module = ''
    if peek().string != 'import':
        module = dotted()
        if module is None:
            return MSG_INVALID, peek()
    elif level == 0:  # `from import x`
        return MSG_INVALID, peek()
    if peek().string != 'import':
        return MSG_INVALID, peek()
    pos += 1
    if peek().string == '*':
        pos += 1
        if pos != len(toks):
            return MSG_INVALID, peek()
        return MSG_STAR, stmt[0]
    parens = peek().string == '('
    pos += parens
    aliases = []
    while True:
        attr = name()
        if attr is None:
            if parens and aliases and peek().string == ')':
                break  # trailing comma inside parentheses
            return MSG_INVALID, peek()
        ok, alias = as_name()
        if not ok:
            return bad_alias()
        aliases.append((attr, alias))
        if peek().string != ',':
            break
        pos += 1
        if not parens and peek() is end:  # 3.15 points just after the comma
            return MSG_TRAILING, end
    if parens:
        if peek().string != ')':
            return MSG_INVALID, peek()
        pos += 1
    if pos != len(toks):
        return MSG_INVALID, peek()
    if module == '__future__' and level == 0:
        return MSG_FUTURE, stmt[0]
    args = [repr(module), str(level)] + [repr(a) for a in aliases]
    return _Spec('from', ', '.join(args))


def _place_error(kind: str, blocks: list[str]) -> str | None:
    """3.15's message for a lazy statement in `blocks`: the innermost
    function, class or try block names the place"""
    words = 'import' if kind == 'import' else 'from ... import'
    for word in reversed(blocks):
        if word in _SCOPE_WORDS:
            return MSG_PLACE.format(words, _SCOPE_WORDS[word])
        if word in _TRY_WORDS:
            return MSG_PLACE.format(words, 'try/except blocks')
    return None


# the text from start (line, col) of `lazy` to end (just after the statement's
# last token) becomes code, an unclosed call that `)` ends
Edit = namedtuple('Edit', 'start end code')


# what a rejected statement becomes while we ask the compiler whether it has
# an error of its own to report first: an expression statement, `(None)`
_NEUTRAL = '(None'


def find_lazy(reader: _LineReader, stop_after: int, plain: bool = False,
              ) -> tuple[list[Edit], list[tuple[LazyError, Edit]]]:
    """the edits for valid lazy statements, and the rejected ones' errors,
    reading the text's lines through `stop_after`; with `plain`, also for the
    module-level imports that `__lazy_modules__` or mode "all" can make lazy"""
    edits: list[Edit] = []
    errors: list[tuple[LazyError, Edit]] = []
    blocks: list[str] = []  # the compound word that opened each open block
    last_header: dict[int, str] = {}  # per depth: the last compound word there
    pending_block = None
    for line in _logical_lines(reader, stop_after):
        tok = line[0]
        if tok.type == tokenize.INDENT:
            blocks.append(pending_block or 'if')
            pending_block = None
            continue
        if tok.type == tokenize.DEDENT:
            last_header.pop(len(blocks), None)
            blocks.pop()
            continue
        pending_block = None
        for stmt, body_of in _split_statements(line):
            if not stmt:
                continue
            first = stmt[0].string
            if body_of is None and first in _COMPOUND and stmt[-1].string == ':':
                word = stmt[1].string if first == 'async' else first
                if word == 'else' and last_header.get(len(blocks)) in _TRY_WORDS:
                    word = 'except'  # try's else block is part of the try
                last_header[len(blocks)] = word
                pending_block = word
            is_lazy = (first == 'lazy' and len(stmt) > 1 and stmt[0].type == tokenize.NAME
                       and stmt[1].string in ('import', 'from'))
            if not (is_lazy or plain and first in ('import', 'from')):
                continue
            if body_of == 'else' and last_header.get(len(blocks)) in _TRY_WORDS:
                body_of = 'except'
            context = blocks + [body_of] if body_of else blocks
            if not is_lazy:
                edit = _plain_import(stmt, context)
                if edit is not None:
                    edits.append(edit)
                continue
            edit, error = _lazy_statement(stmt, context)
            if error is None:
                edits.append(edit)
            else:
                errors.append((error, edit))
    return edits, errors


def _lazy_statement(stmt: list[_Tok], context: list[str]) -> tuple[Edit, LazyError | None]:
    lazy_tok, last = stmt[0], stmt[-1]
    neutral = Edit(lazy_tok.start, last.end, _NEUTRAL)
    whole = (lazy_tok.start[0], lazy_tok.start[1] + 1, last.end[0], last.end[1] + 1)
    parsed = _parse(stmt)
    if not isinstance(parsed, _Spec):
        msg, at = parsed
        if msg not in (MSG_STAR, MSG_FUTURE):  # the parser's own errors
            at_error = (at.start[0], at.start[1] + 1, at.end[0], at.end[1] + 1)
            return neutral, LazyError(msg, *at_error, grammar=True)
    kind = parsed.kind if isinstance(parsed, _Spec) else 'from'
    placement = _place_error(kind, context)
    if placement is not None:
        return neutral, LazyError(placement, *whole, grammar=False)
    if not isinstance(parsed, _Spec):
        msg, at = parsed
        if msg == MSG_FUTURE:  # 3.15 marks the keyword only
            (row, col), (erow, ecol) = lazy_tok.start, lazy_tok.end
            return neutral, LazyError(msg, row, col + 1, erow, ecol + 1, grammar=False)
        return neutral, LazyError(msg, *whole, grammar=False)
    func = 'lazy_import' if parsed.kind == 'import' else 'lazy_from'
    code = f'from {ENTRY_MODULE} import {func} as {ENTRY_NAME};{ENTRY_NAME}({parsed.call}'
    return Edit(lazy_tok.start, last.end, code), None


def _plain_import(stmt: list[_Tok], context: list[str]) -> Edit | None:
    """the edit that makes an eligible plain import potentially lazy, as 3.15
    does for `__lazy_modules__` and mode "all": not in a function, class or
    try block, not `*`, not `__future__`"""
    if _place_error('import', context) is not None:
        return None
    parsed = _parse([stmt[0]] + stmt)
    if not isinstance(parsed, _Spec):
        return None  # `*`, `__future__`, or the compiler's own error
    func = 'maybe_lazy_import' if parsed.kind == 'import' else 'maybe_lazy_from'
    code = f'from {ENTRY_MODULE} import {func} as {ENTRY_NAME};{ENTRY_NAME}({parsed.call}'
    return Edit(stmt[0].start, stmt[-1].end, code)


def _apply(lines: list[str], edits: list[Edit]) -> list[str]:
    out = list(lines)
    # from the end, so that a statement's columns are those it was found at
    for edit in sorted(edits, reverse=True):
        (row, col), (erow, ecol) = edit.start, edit.end
        first, last = out[row - 1], out[erow - 1]
        if row == erow:
            out[row - 1] = f'{first[:col]}{edit.code}){first[ecol:]}'
            continue
        # the call's parentheses carry it across the statement's lines
        out[row - 1] = first[:col] + edit.code + _ending(first)
        for i in range(row, erow - 1):
            out[i] = _ending(out[i])
        out[erow - 1] = ')' + last[ecol:]
    return out


def _ending(line: str) -> str:
    return line[len(line.rstrip('\r\n')):]


def error_source(lines: list[str], error: LazyError, first_line: int = 1,
                 text: str | None = None) -> str:
    """the whole module as one raise of `error`, on its line; the text's
    first line is the file's line `first_line`; `text` is the error's source
    line if not the file's own"""
    out = [_ending(line) or '\n' for line in lines]
    shift = first_line - 1
    extra = '' if text is None else f', {text!r}'
    out[error.lineno - 1] = (
        f'from {ENTRY_MODULE} import syntax_error as {ENTRY_NAME};'
        f'raise {ENTRY_NAME}({error.msg!r}, {error.lineno + shift}, {error.offset}, '
        f'{error.end_lineno + shift}, {error.end_offset}{extra})' + out[error.lineno - 1]
    )
    return ''.join(out)


def split_lines(text: str) -> list[str]:
    """the physical lines as the compiler counts them, endings kept"""
    lines = _LINE.findall(text)
    lines.pop()  # the empty match at the end
    return lines


def _last_candidate(text: str) -> int:
    """where the last possible lazy statement starts, or -1"""
    end = len(text)
    while True:
        at = text.rfind('lazy', 0, end)
        if at < 0:
            return -1
        before = text[at - 1:at]
        if _CANDIDATE.match(text, at) and not (before.isidentifier() or before.isdigit() or before == '.'):
            return at
        end = at + 3  # rfind's end is exclusive: the next match starts before `at`


def rewrite(text: str, first_line: int = 1, every_import: bool = False) -> str:
    """the source the compiler sees for `text`, a module with the cookie
    whose first line is the file's line `first_line`; `every_import` (mode
    "all") makes every eligible plain import potentially lazy"""
    plain = every_import or LAZY_MODULES_NAME in text
    last = _last_candidate(text)
    if last < 0 and not plain:
        return text
    stop_after = len(_NEWLINE.findall(text, 0, last)) + 1 if not plain else len(text) + 1
    reader = _LineReader(text)
    edits, errors = find_lazy(reader, stop_after, plain)
    if not errors:
        if not edits:
            return text
        return ''.join(_apply(reader.lines, edits)) + text[reader.end:]
    # 3.15 reports the parser's first error, else its first lazy placement
    # error (before any other of its compiler's): the file's own parser
    # errors are found by parsing it with the bad statements made neutral
    lines = split_lines(text)
    probe = ''.join(_apply(lines, edits + [edit for _, edit in errors]))
    grammar = [error for error, _ in errors if error.grammar]
    try:
        compile(probe, '<lazy_codec>', 'exec', _ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:
        theirs = (exc.lineno or 0, exc.offset or 0)
        if not grammar or theirs < (grammar[0].lineno, grammar[0].offset):
            return probe  # the compiler raises its own error from this text
    return error_source(lines, grammar[0] if grammar else errors[0][0], first_line)
