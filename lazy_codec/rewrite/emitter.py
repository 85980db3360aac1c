"""The rewrite: PEP 810 `lazy` statements -> calls into the runtime, lines kept.

`rewrite(text)` is a pure str -> str transform.  Every line that holds no lazy
statement comes back byte for byte; a lazy statement becomes an import of the
runtime's entry point plus one call, on the statement's own lines.  A file
whose lazy syntax 3.15 would reject becomes blank lines and one `raise` of the
SyntaxError that 3.15 gives, on the line 3.15 reports.

Only the part of the file up to the last line that can hold a lazy statement
is read (by `lexer`): the rest is never looked at.

The steps: `statements` reads the import statements into records,
`verdicts` judges each (`verdict`, `can_be_lazy`); the emitter below alone
writes what they become: runtime calls (`_call`) or the module that raises
(`error_source`, and `undecodable` for bytes that are not UTF-8).
"""

from lazy_codec.rewrite import ENTRY_NAME
from lazy_codec.rewrite.cookie import cookie_span
from lazy_codec.rewrite.lexer import Tok as _Tok
from lazy_codec.rewrite.lexer import split_lines
from lazy_codec.rewrite.statements import TOKENS, Statement, read_statements
from lazy_codec.rewrite.verdicts import LazyError, can_be_lazy, verdict

ONLY_AST = 0x400  # ast.PyCF_ONLY_AST: the parser's errors, not the compiler's

# a module that names this may make its plain imports lazy: all of it is read
LAZY_MODULES_NAME = '__lazy_modules__'
SET_MODE_NAME = 'set_lazy_imports'  # a module that switches the mode: its plain imports decide at run time

# -- the emitter: what each statement becomes ----------------------------------


class Edit:
    """the text from `start` to `end` (rows, columns) becomes `code` and
    `close`; a call's `code` is left open, for `close` to end it"""

    __slots__ = ('start', 'end', 'code', 'close')

    def __init__(self, start: tuple, end: tuple, code: str, close: str = ')') -> None:
        self.start = start
        self.end = end
        self.code = code
        self.close = close

    def __lt__(self, other: 'Edit') -> bool:
        return (self.start, self.end) < (other.start, other.end)


# what a rejected statement becomes while we ask the compiler whether it has
# an error of its own to report first: an expression statement, `(None)`
_NEUTRAL = '(None'


def _call(stmt: Statement, first_line: int) -> str:
    """the runtime call a statement becomes, left open (see Edit); the text's
    first line is the file's line `first_line`"""
    args = [repr(alias) for alias in stmt.aliases]
    if stmt.kind == 'from':
        args[:0] = (repr(stmt.module), str(stmt.level))
    # the statement's line: the frame's would cost the runtime a read of the
    # code's line table from its start, at every statement
    args.append(f'line={stmt.start[0] + first_line - 1}')
    func = ('lazy_' if stmt.lazy else 'maybe_lazy_') + stmt.kind
    return f'{ENTRY_NAME}.{func}(' + ', '.join(args)


def edits_for(statements: list, first_line: int = 1) -> tuple:
    """(edits, [(error, edit)]): the edits of the statements that stand, and
    the errors of those 3.15 rejects with the edits that make them neutral"""
    edits: list[Edit] = []
    errors: list[tuple[LazyError, Edit]] = []
    for stmt in statements:
        if not stmt.lazy:
            if can_be_lazy(stmt):
                edits.append(_standing(stmt, first_line))
        elif stmt.interpreter_error == TOKENS:
            edits.append(_eager(stmt.tokens))
        elif stmt.interpreter_error is None:
            error = verdict(stmt)
            if error is None:
                edits.append(_standing(stmt, first_line))
            else:
                errors.append((error, Edit(stmt.start, stmt.end, _NEUTRAL)))
    return edits, errors


def _standing(stmt: Statement, first_line: int) -> Edit:
    """the edit of a statement that stands.  Alone on its logical line, it
    becomes `if CALL: STATEMENT`, `lazy` left out: the call returns None, so
    the import in the body never runs, but a tool that reads the rewrite's
    syntax tree (pyflakes, pytest) sees the names it binds, at the
    user's line and columns on; elsewhere (after a `;` or a block's colon,
    before a `;`), the call alone"""
    if not stmt.alone:
        return Edit(stmt.start, stmt.end, _call(stmt, first_line))
    if not stmt.lazy:
        return Edit(stmt.start, stmt.start, 'if ' + _call(stmt, first_line), close='): ')
    lazy_tok, keyword = stmt.tokens[0], stmt.tokens[1]
    end = keyword.start if keyword.start[0] == lazy_tok.start[0] else lazy_tok.end
    return Edit(lazy_tok.start, end, 'if ' + _call(stmt, first_line), close='): ')


def _eager(stmt: list[_Tok]) -> Edit:
    """the edit that takes `lazy` off a statement the tokenizer cannot read
    to its end (an unclosed bracket or string, an unmatched bracket), so
    that the compiler reports its own error there: the keyword moves onto
    `lazy`, and blanks keep every later column where it was"""
    lazy_tok, keyword = stmt[0], stmt[1]
    if lazy_tok.start[0] != keyword.start[0]:
        return Edit(lazy_tok.start, lazy_tok.start, '', close='')  # over a continuation: as it is
    padding = ' ' * (keyword.start[1] - lazy_tok.start[1])
    return Edit(lazy_tok.start, keyword.end, keyword.string + padding, close='')


def _apply(lines: list[str], edits: list[Edit]) -> list[str]:
    out = list(lines)
    # from the end, so that a statement's columns are those it was found at
    for edit in sorted(edits, reverse=True):
        (row, col), (erow, ecol) = edit.start, edit.end
        first, last = out[row - 1], out[erow - 1]
        if row == erow:
            out[row - 1] = f'{first[:col]}{edit.code}{edit.close}{first[ecol:]}'
            continue
        # the call's parentheses carry it across the statement's lines
        out[row - 1] = first[:col] + edit.code + _ending(first)
        for i in range(row, erow - 1):
            out[i] = _ending(out[i])
        out[erow - 1] = ')' + last[ecol:]
    return out


def _ending(line: str) -> str:
    return line[len(line.rstrip('\r\n')) :]


# what error_source writes at the start of the error's line
ERROR_CALL = f'raise {ENTRY_NAME}.syntax_error('


def error_source(lines: list[str], error: LazyError, first_line: int = 1, text: 'str | None' = None) -> str:
    """the whole module as one raise of `error`, on its line; the text's
    first line is the file's line `first_line`; `text` is the error's source
    line if not the file's own"""
    out = [_ending(line) or '\n' for line in lines]
    shift = first_line - 1
    extra = '' if text is None else f', {text!r}'
    out[error.lineno - 1] = (
        f'{ERROR_CALL}{error.msg!r}, {error.lineno + shift}, {error.offset}, '
        f'{error.end_lineno + shift}, {error.end_offset}{extra})' + out[error.lineno - 1]
    )
    return ''.join(out)


def raises(text: str, out: str) -> bool:
    """is `out`, the rewrite of `text`, the module that raises 3.15's
    SyntaxError (error_source's)?"""
    return ERROR_CALL in out and ERROR_CALL not in text


# -- the rewrite ---------------------------------------------------------------


def _runs_into_import(text: str, at: int) -> bool:
    """is the `lazy` at `at` followed, over blanks and backslash
    continuations, by the word `import` or `from`?"""
    pos = at + 4
    gap = False
    while pos < len(text):
        ch = text[pos]
        if ch in ' \t\f':
            pos += 1
        elif ch == '\\':
            ending = text[pos + 1 : pos + 3]
            if ending == '\r\n':
                pos += 3
            elif ending[:1] in ('\n', '\r') and ending:
                pos += 2
            else:
                return False
        else:
            break
        gap = True
    if not gap:
        return False
    for word in ('import', 'from'):
        if text.startswith(word, pos):
            after = text[pos + len(word) : pos + len(word) + 1]
            return not (after.isalnum() or after == '_')
    return False


def last_candidate(text: str) -> int:
    """where the last possible lazy statement starts, or -1"""
    end = len(text)
    while True:
        at = text.rfind('lazy', 0, end)
        if at < 0:
            return -1
        before = text[at - 1 : at]
        if _runs_into_import(text, at) and not (before.isidentifier() or before.isdigit() or before == '.'):
            return at
        end = at + 3  # rfind's end is exclusive: the next match starts before `at`


def rewrite(text: str, first_line: int = 1, every_import: bool = False) -> str:
    """the source the compiler sees for `text`, a module with the cookie
    whose first line is the file's line `first_line`; `every_import` (mode
    "all") makes every eligible plain import potentially lazy"""
    plain = every_import or LAZY_MODULES_NAME in text or SET_MODE_NAME in text
    last = last_candidate(text)
    if last < 0 and not plain:
        return text
    if plain:
        stop_after = len(text) + 1
    else:  # the line of `last`: count '\n', '\r\n' and '\r' endings before it
        stop_after = text.count('\n', 0, last) + text.count('\r', 0, last) - text.count('\r\n', 0, last) + 1
    statements, reader = read_statements(text, stop_after, plain)
    edits, errors = edits_for(statements, first_line)
    if not errors:
        if not edits:
            return text
        return ''.join(_apply(reader.lines, edits)) + text[reader.end :]
    # 3.15 reports the parser's first error, else its first lazy placement
    # error (before any other of its compiler's): the file's own parser
    # errors are found by parsing it with the bad statements made neutral
    lines = split_lines(text)
    probe = ''.join(_apply(lines, edits + [edit for _, edit in errors]))
    grammar = [error for error, _ in errors if error.grammar]
    try:
        compile(probe, '<lazy_codec>', 'exec', ONLY_AST, dont_inherit=True)
    except SyntaxError as exc:
        theirs = (exc.lineno or 0, exc.offset or 0)
        if not grammar or theirs < (grammar[0].lineno, grammar[0].offset):
            return probe  # the compiler raises its own error from this text
    return error_source(lines, grammar[0] if grammar else errors[0][0], first_line)


# -- bytes that are not UTF-8 ---------------------------------------------------

# `lazy ` at the start of a statement's line: what makes it eager
LAZY_KEYWORD = rb'(?m)^([ \t]*)lazy[ \t]+(?=import\b|from\b)'


def without_lazy(data: bytes) -> bytes:
    """`data` with `lazy ` left out of every lazy statement that starts a line"""
    import re  # (not at the first decode: only bytes that are not UTF-8 need it)

    return re.sub(LAZY_KEYWORD, rb'\1', data)


def undecodable(data: bytes, first_line: int = 1) -> str:
    """a module that raises the SyntaxError this interpreter gives for the
    same bytes declared as UTF-8 (without `lazy`, which it cannot parse)"""
    span = cookie_span(data)
    as_utf_8 = without_lazy(data if span is None else data[: span[0]] + b'utf-8' + data[span[1] :])
    # blank lines for those before the text, so that a message that names
    # a line ("... on line 4") names the file's
    shift = first_line - 1
    try:
        compile(b'\n' * shift + as_utf_8, '<lazy_codec>', 'exec', dont_inherit=True)
    except SyntaxError as exc:
        lineno = max((exc.lineno or 1) - shift, 1)
        end_lineno = max((getattr(exc, 'end_lineno', None) or exc.lineno or 1) - shift, 1)
        error = LazyError(
            exc.msg,
            lineno,
            exc.offset or 1,
            end_lineno,
            getattr(exc, 'end_offset', None) or exc.offset or 1,
            True,
        )
        text = exc.text
    else:
        # this interpreter accepts them (3.9-3.13 do not check comments):
        # so does the codec, with U+FFFD where the comment had bad bytes
        return rewrite(data.decode('utf-8', 'replace'), first_line)
    lines = split_lines(data.decode('utf-8', 'replace'))
    return error_source(lines, error, first_line, text=text)
