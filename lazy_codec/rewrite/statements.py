"""The rewrite's data model: import statements read as records.

`read_statements` reads the import statements of a text from the lexer's
logical lines (lexer) into `Statement` records: lazy or plain, kind, where
they are and in which blocks; the bracket helpers work on a statement's
tokens.  lazy_codec.rewrite.verdicts completes a record as 3.15's parser
reads it and judges it; the emitter and the tools use both, and neither
re-derives what is here.
"""

from lazy_codec.rewrite import lexer
from lazy_codec.rewrite.lexer import COMPOUND as _COMPOUND
from lazy_codec.rewrite.lexer import NAME, NEWLINE
from lazy_codec.rewrite.lexer import Tok as _Tok

# the blocks a lazy statement may not be in besides functions and classes
TRY_WORDS = frozenset(('try', 'except', 'finally'))

# -- brackets among a statement's tokens ---------------------------------------

OPENING = frozenset('([{')
CLOSING = frozenset(')]}')
BRACKETS = OPENING | CLOSING


def bracket_depths(strings: list) -> list:
    """how deep in brackets each of a statement's token strings is (any
    shape of bracket counts): a bracket is at the depth outside the pair it
    belongs to, so a closing bracket that was not opened is below 0"""
    if BRACKETS.isdisjoint(strings):
        return [0] * len(strings)  # most statements: at C speed
    depths = []
    depth = 0
    for string in strings:
        if string in OPENING:
            depths.append(depth)
            depth += 1
        elif string in CLOSING:
            depth -= 1
            depths.append(depth)
        else:
            depths.append(depth)
    return depths


def closing_bracket(strings: list, at: int) -> int:
    """the index of the bracket that closes the one at `at`, or -1"""
    depths = bracket_depths(strings[at:])
    for i in range(1, len(depths)):
        if not depths[i] and strings[at + i] in CLOSING:
            return at + i
    return -1


# -- reading statements --------------------------------------------------------


def split_statements(line: list[_Tok]):
    """yield (statement tokens, header word or None, the `;` after it or
    None) for one logical line

    the header word is set for a simple statement written after a compound
    statement's colon on the same line (`if x: lazy import y`).
    """
    if len(line) == 2 and line[1].string == ':' and line[0].type == NAME:
        yield line, None, None  # a block header as the fast lexer gives it (the common case)
        return
    strings = [tok.string for tok in line]
    if ';' not in strings and ':' not in strings:
        yield line, None, None  # one simple statement, the other common case
        return
    first = line[0].string
    header = first in _COMPOUND and line[0].type == NAME
    if header and first in ('match', 'case') and (len(line) < 2 or line[1].string in (':', '=', '.')):
        header = False
    lambdas = 0
    start = 0
    body_of = None
    depths = bracket_depths(strings)
    for i, string in enumerate(strings):
        if depths[i] or string in BRACKETS:
            continue
        if string == 'lambda':
            lambdas += 1
        elif string == ';':
            yield line[start:i], body_of, line[i]
            start = i + 1
        elif string == ':' and header and body_of is None:
            if lambdas:
                lambdas -= 1
                continue
            word = line[1].string if first == 'async' else first
            yield line[start : i + 1], None, None
            start = i + 1
            body_of = word
    if start < len(line):
        yield line[start:], body_of, None


def _newline_after(lines: list, tok: _Tok) -> _Tok:
    """the NEWLINE token that ends the logical line whose last token is
    `tok`, placed as 3.15's tokenizer places it: on the comment if there is
    one (to the end of the line), else on the line's end; after a backslash
    continuation, on the next line"""
    row, col = tok.end
    while True:
        text = lines[row - 1].rstrip('\r\n') if row <= len(lines) else ''
        at = col
        while at < len(text) and text[at] in ' \t\f':
            at += 1
        if text[at:] == '\\' and row < len(lines):
            row, col = row + 1, 0
            continue
        if text[at : at + 1] == '#':
            return _Tok(NEWLINE, '', (row, at), (row, len(text) + 1))
        return _Tok(NEWLINE, '', (row, at), (row, at + 1))


def read_statements(text: str, stop_after: int, plain: bool = False) -> tuple:
    """(the lazy statements of `text` through line `stop_after` and, with
    `plain`, its plain imports, in order; the reader of the lines read)"""
    reader = lexer.LineReader(text)
    try:
        return find_statements(lexer.logical_lines(reader, stop_after, plain), plain, reader), reader
    except lexer.Unsupported:
        from lazy_codec.rewrite.tokenized import tokenized_lines  # rarely needed: it imports tokenize

        reader = lexer.LineReader(text)
        return find_statements(tokenized_lines(reader, stop_after, plain), plain, reader), reader


def find_statements(lines, plain: bool, reader: lexer.LineReader) -> list:
    found: list[Statement] = []
    blocks: list[str] = []  # the compound word that opened each open block
    last_header: dict[int, str] = {}  # per depth: the last compound word there
    pending_block = None
    # (columns, columns with a tab as one) of each open block's indentation:
    # the interpreter's tokenizer rejects a line whose two measures disagree
    levels = [(0, 0)]
    indented = None  # the indentation just opened, if the line after it was not a block's
    for line in lines:
        tok = line[0]
        if tok.type == lexer.INDENT:
            blocks.append(pending_block or 'if')
            levels.append(_indentation(tok.string))
            indented = (levels[-2], pending_block is None)
            pending_block = None
            continue
        if tok.type == lexer.DEDENT:
            last_header.pop(len(blocks), None)
            blocks.pop()
            levels.pop()
            continue
        pending_block = None
        opened, indented = indented, None
        if tok.type == lexer.OTHER and not tok.string:
            continue  # a line the lexer found nothing of use in
        for stmt, body_of, semicolon in split_statements(line):
            if not stmt:
                continue
            first = stmt[0].string
            if body_of is None and first in _COMPOUND and stmt[-1].string == ':':
                word = stmt[1].string if first == 'async' else first
                if word == 'else' and last_header.get(len(blocks)) in TRY_WORDS:
                    word = 'except'  # try's else block is part of the try
                last_header[len(blocks)] = word
                pending_block = word
            is_lazy = (
                first == 'lazy'
                and len(stmt) > 1
                and stmt[0].type == NAME
                and stmt[1].string in ('import', 'from')
            )
            if not (is_lazy or plain and first in ('import', 'from')):
                continue
            if body_of == 'else' and last_header.get(len(blocks)) in TRY_WORDS:
                body_of = 'except'
            context = blocks + [body_of] if body_of else blocks
            alone = stmt[0] is line[0] and semicolon is None
            if not is_lazy:
                last = stmt[-1].end
                found.append(
                    Statement(
                        False,
                        stmt,
                        _Tok(NEWLINE, '', last, (last[0], last[1] + 1)),
                        list(context),
                        alone=alone,
                    )
                )
                continue
            if _indentation_error(reader.lines[tok.start[0] - 1][: tok.start[1]], levels, opened):
                # the interpreter's IndentationError or TabError for this
                # line comes first: it shows the line, so the line stays as written
                found.append(Statement(True, stmt, semicolon, list(context), INDENTATION))
                continue
            if _unreadable(stmt):
                found.append(Statement(True, stmt, semicolon, list(context), TOKENS))
                continue
            found.append(
                Statement(
                    True,
                    stmt,
                    semicolon or _newline_after(reader.lines, stmt[-1]),
                    list(context),
                    alone=alone,
                )
            )
    unfinished = reader.unfinished
    if (
        unfinished
        and unfinished[0].string == 'lazy'
        and unfinished[1:2]
        and unfinished[1].string in ('import', 'from')
    ):
        found.append(Statement(True, unfinished, None, [], TOKENS))
    return found


def _indentation(text: str) -> tuple:
    """(columns, columns with a tab as one) of an indentation, as the
    interpreter's tokenizer counts them (a tab to the next multiple of 8)"""
    col = alt = 0
    for ch in text:
        if ch == '\t':
            col = (col // 8 + 1) * 8
            alt += 1
        elif ch == '\f':
            col = alt = 0
        else:
            col += 1
            alt += 1
    return col, alt


def _indentation_error(text: str, levels: list, opened) -> bool:
    """will the interpreter reject the line indented by `text`, whose
    block is `levels[-1]`: an indent no block header asked for, or tabs and
    spaces that the two measures of the tokenizer disagree on?  `opened`:
    (the enclosing level, unexpected) if the line opened its block"""
    indentation = _indentation(text)
    if opened is not None:
        (_, outer_alt), unexpected = opened
        return unexpected or indentation[1] <= outer_alt
    return indentation != levels[-1]


def _unreadable(stmt: list[_Tok]) -> bool:
    """does the statement hold what only the tokenizer rejects: a string
    left open (3.9-3.11 tokenize goes on after it), or an unmatched bracket?"""
    for tok in stmt:
        if tok.type == lexer.ERROR and tok.string.strip():
            return True
    return min(bracket_depths([tok.string for tok in stmt])) < 0


# -- the record of a statement, and its parse ----------------------------------

# the interpreter's own error comes before 3.15's lazy errors: for an
# indentation it shows the line as written; for what its tokenizer rejects,
# `lazy` comes off so that its compiler reports it
INDENTATION = 'indentation'
TOKENS = 'tokens'


class Statement:
    """an import statement of the text, as the rewrite reads it: `lazy` or
    plain; `kind` 'import' or 'from'; `start`, `end`: (row, column) where
    its tokens start and end; `context`: the words of the blocks it is in
    ('def', 'class', 'try', 'except', 'if', ...), the innermost last.

    `parse` reads the rest: a `from`'s `module` (as written, no dots) and
    `level`; `aliases` [(module or name, asname or None)], empty for `*` and
    `__future__`, which parse but cannot be lazy (`form_error` says why)."""

    __slots__ = (
        'lazy',
        'kind',
        'tokens',
        'after',
        'context',
        'start',
        'end',
        'module',
        'level',
        'aliases',
        'form_error',
        'refusal',
        'interpreter_error',
        'alone',
    )

    def __init__(
        self,
        lazy: bool,
        tokens: list,
        after: '_Tok | None',
        context: list,
        interpreter_error: 'str | None' = None,
        alone: bool = False,
    ) -> None:
        self.lazy = lazy
        # INDENTATION or TOKENS: the interpreter reports its own error there first
        self.interpreter_error = interpreter_error
        self.kind = tokens[1 if lazy else 0].string
        self.tokens = tokens
        self.after = after  # the `;` or NEWLINE that follows it
        self.context = context
        # the only statement of its logical line (no `;`, no block header before
        # it): its rewrite can be a one-line `if` whose body is the statement
        self.alone = alone
        self.start = tokens[0].start
        self.end = tokens[-1].end
        self.module = ''
        self.level = 0
        self.aliases: list = []
        self.form_error: str | None = None
        self.refusal: str | None = None  # a plain import's: why it cannot be lazy where it is
