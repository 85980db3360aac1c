"""The text as the rewrite reads it: logical lines of significant tokens.

`logical_lines` lexes without `tokenize`, whose import (it pulls in `re`
and `enum`) costs more than a typical decode.  It tokenizes fully only the
logical lines the rewrite looks into: those whose text holds `lazy` (or
`import`, when plain imports count), and those that start a compound
statement.  Of every other logical line it only follows strings, brackets,
comments and continuations to find where the line ends.

What it cannot vouch for -- tabs or form feeds in indentation, a string or
bracket left open, a stray backslash, a name that is not ASCII, an
f-string holding a replacement field on 3.12+ (nested quotes), ... --
raises `Unsupported`, and the caller reads the text again with
`tokenized.tokenized_lines`, the stdlib tokenizer's view.  Both yield the
same tokens for what the rewrite looks at (asserted by tests/test_lexer.py).
"""

import sys

# token types: only what the rewrite tells apart
NAME = 'NAME'
OP = 'OP'
OTHER = 'OTHER'  # numbers, strings, anything the rewrite never reads
ERROR = 'ERROR'  # what 3.9-3.11's tokenize could not read (a quote left open), and went on
INDENT = 'INDENT'
DEDENT = 'DEDENT'
NEWLINE = 'NEWLINE'


class Tok:
    """one token: its type, text, and (row, col) where it starts and ends"""

    __slots__ = ('type', 'string', 'start', 'end')

    def __init__(self, type: str, string: str, start: tuple, end: tuple) -> None:
        self.type = type
        self.string = string
        self.start = start
        self.end = end

    def __repr__(self) -> str:
        return f'Tok({self.type}, {self.string!r}, {self.start}, {self.end})'


class Unsupported(Exception):
    """the fast lexer cannot vouch for how the compiler reads this text"""


class LineReader:
    """the text's physical lines, split only as far as they are read"""

    def __init__(self, text: str) -> None:
        self.text = text
        self.lines: list[str] = []  # the lines read so far, endings kept
        self.end = 0  # where the next line starts
        # the tokens of the logical line the tokenizer stopped in, if it did
        self.unfinished: list[Tok] | None = None

    def readline(self) -> str:
        """the next line with a '\\n' ending (columns are the same), or ''"""
        text, start = self.text, self.end
        if start >= len(text):
            return ''
        nl = text.find('\n', start)
        stop = len(text) if nl < 0 else nl + 1
        cr = text.find('\r', start, stop)
        if cr >= 0:  # '\r' or '\r\n' ends the line
            stop = cr + 2 if text[cr + 1 : cr + 2] == '\n' else cr + 1
        line = text[start:stop]
        self.lines.append(line)
        self.end = stop
        return line.rstrip('\r\n') + '\n'

    def read_through(self, at: int) -> list:
        """read the lines through the one that holds offset `at`; they come
        as readline gives them"""
        stop = self.text.find('\n', at)
        stop = len(self.text) if stop < 0 else stop + 1
        chunk = self.text[self.end : stop]
        if '\r' in chunk:
            lines = []
            while self.end <= at:
                lines.append(self.readline())
            return lines
        lines = chunk.split('\n')
        last = lines.pop()  # '' when the chunk ends with a newline
        read = [line + '\n' for line in lines]
        self.lines.extend(read)
        if last:  # the text's last line, without an ending
            self.lines.append(last)
            read.append(last + '\n')
        self.end = stop
        return read


def split_lines(text: str) -> list:
    """the physical lines as the compiler counts them, endings kept"""
    reader = LineReader(text)
    while reader.readline():
        pass
    return reader.lines


# the hard keywords of 3.9-3.14 (keyword.kwlist, asserted by the tests; not
# imported: the module is one more import at the first decode)
# fmt: off
KEYWORDS = frozenset((
    'False', 'None', 'True', 'and', 'as', 'assert', 'async', 'await', 'break', 'class', 'continue',
    'def', 'del', 'elif', 'else', 'except', 'finally', 'for', 'from', 'global', 'if', 'import',
    'in', 'is', 'lambda', 'nonlocal', 'not', 'or', 'pass', 'raise', 'return', 'try', 'while',
    'with', 'yield',
) + (('__peg_parser__',) if sys.version_info[:2] == (3, 9) else ()))
# the words that may start a compound statement's header
COMPOUND = frozenset((
    'if', 'elif', 'else', 'for', 'while', 'with', 'try', 'except', 'finally', 'def', 'class',
    'async', 'match', 'case',
))
# fmt: on
_COMPOUND_FIRST = frozenset(word[0] for word in COMPOUND)

_F_PREFIXES = frozenset(('f', 'fr', 'rf') + (('t', 'tr', 'rt') if sys.version_info >= (3, 14) else ()))
_PREFIXES = frozenset(('', 'r', 'u', 'b', 'br', 'rb')) | _F_PREFIXES
# 3.12+ f-strings may nest the same quotes inside a replacement field
_NESTED_FSTRINGS = sys.version_info >= (3, 12)
# fmt: off
_OPERATORS = frozenset((
    '**=', '//=', '>>=', '<<=', '...',
    '->', '**', '//', '>>', '<<', '<=', '>=', '==', '!=', ':=',
    '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '@=',
    '+', '-', '*', '/', '%', '&', '|', '^', '~', '<', '>',
    '(', ')', '[', ']', '{', '}', ',', ':', ';', '.', '=', '@',
) + (('<>',) if sys.version_info >= (3, 12) else ()))  # 3.12+ reads `<>` as one
# fmt: on
_NUMBER_CHARS = frozenset('0123456789_.eEjJxXoObBaAcCdDfF')
_WORD_CHARS = frozenset('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_')


def _string_end(src: str, start: int, quote: str) -> int:
    """where the string whose body starts at `start` ends (just after its
    closing `quote`), or -1 if `src` ends first"""
    at = start
    while True:
        at = src.find(quote, at)
        if at < 0:
            return -1
        slashes = 0
        while src[at - 1 - slashes] == '\\':
            slashes += 1
        if not slashes % 2:
            return at + len(quote)
        at += 1


def _fstring_end(src: str, at: int, quote: str) -> int:
    """3.12+: where the f-string whose body starts at `at` ends (after its
    closing `quote`), reading its replacement fields, whose strings may use
    the same quotes (PEP 701); -1 if `src` ends first, or the string holds
    what this reader does not vouch for (a comment, a backslash or, in
    one-quote strings, a newline inside a field)"""
    n = len(src)
    while at < n:
        ch = src[at]
        if ch == '\\':
            at += 2
        elif src.startswith(quote, at):
            return at + len(quote)
        elif ch == '{':
            if src.startswith('{{', at):
                at += 2
                continue
            at = _field_end(src, at + 1, quote)
            if at < 0:
                return -1
        else:
            at += 1
    return -1


def _field_end(src: str, at: int, quote: str) -> int:
    """after the `}` that closes the replacement field whose expression
    starts at `at` (a format spec's own fields included), or -1"""
    n = len(src)
    depth = 0
    in_spec = False
    while at < n:
        ch = src[at]
        if ch == '}' and (depth == 0 or in_spec):
            return at + 1
        if in_spec:
            if ch == '{':
                at = _field_end(src, at + 1, quote)
                if at < 0:
                    return -1
                continue
            if ch == '\\' or src.startswith(quote, at) or ch == '\n' and len(quote) == 1:
                return -1
            at += 1
            continue
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        elif ch == ':' and depth == 0:
            in_spec = True
        elif ch in '\'"':
            inner = ch * 3 if src.startswith(ch * 3, at) else ch
            prefix = _string_prefix(src, at, 0)
            body = at + len(inner)
            end = (_fstring_end if prefix in _F_PREFIXES else _string_end)(src, body, inner)
            if end < 0:
                return -1
            at = end
            continue
        elif ch in '#\\' or ch == '\n' and len(quote) == 1:
            return -1
        at += 1
    return -1


def _string_prefix(src: str, quote_at: int, floor: int) -> str:
    """the prefix of the string whose quote is at `quote_at` ('' if the
    letters before it are a name's)"""
    at = quote_at
    while at > floor and src[at - 1] in _WORD_CHARS:
        at -= 1
    prefix = src[at:quote_at].lower()
    return prefix if prefix in _PREFIXES else ''


def _next_line(reader: LineReader) -> str:
    line = reader.readline()
    if not line:
        raise Unsupported('the file ends inside a statement')
    return line


def _skip_string(reader: LineReader, lines: list, quote_at: int, prefix: str) -> int:
    """read through the string whose quote is at `quote_at` of the last of
    `lines`, appending the lines it spans; where it ends in the last line"""
    line = lines[-1]
    quote = line[quote_at]
    if line.startswith(quote * 3, quote_at):
        quote *= 3
    body = quote_at + len(quote)
    if _NESTED_FSTRINGS and prefix in _F_PREFIXES:
        return _skip_fstring(reader, lines, body, quote)
    end = _string_end(line, body, quote)
    if end < 0 and len(quote) == 3:
        # a docstring, say: find its end in the whole text, and take the
        # lines up to it at once
        close = _string_end(reader.text, reader.end, quote)
        if close < 0:
            raise Unsupported('a string is left open')
        lines.extend(reader.read_through(close - 1))
        line = lines[-1]
        end = close - (reader.end - len(reader.lines[-1]))
    while end < 0:
        if len(quote) == 1:
            # a one-quote string goes on only after a backslash-newline
            slashes = 0
            while line[-2 - slashes] == '\\':
                slashes += 1
            if not slashes % 2:
                raise Unsupported('a string is left open')
        line = _next_line(reader)
        lines.append(line)
        end = _string_end(line, 0, quote)
    return end


def _skip_fstring(reader: LineReader, lines: list, body: int, quote: str) -> int:
    """_skip_string for an f-string on 3.12+, whose end only a reading of
    its fields can find"""
    line = lines[-1]
    if len(quote) == 1:
        end = _fstring_end(line, body, quote)
        if end < 0:
            raise Unsupported('an f-string this reader does not follow')
        return end
    line_start = reader.end - len(line)
    close = _fstring_end(reader.text, line_start + body, quote)
    if close < 0:
        raise Unsupported('an f-string this reader does not follow')
    if close > reader.end:
        lines.extend(reader.read_through(close - 1))
    return close - (reader.end - len(lines[-1]))


def _scan(reader: LineReader, line: str, at: int, words: tuple) -> tuple:
    """read the logical line that starts with `line` from `at` to its end:
    strings, comments, brackets and backslash continuations decide where
    that is.  Returns (its physical lines, the last character of its code,
    whether its code (not its strings or comments) holds one of `words`)"""
    lines = [line]
    depth = 0
    last = ''
    wanted = False
    while True:
        nl = len(line) - 1  # every line read ends with '\n'
        stop = nl
        for mark in ("'", '"', '#'):
            found = line.find(mark, at, stop)
            if found >= 0:
                stop = found
        code = line[at:stop]
        continued = False
        if code:
            depth += (
                code.count('(')
                + code.count('[')
                + code.count('{')
                - code.count(')')
                - code.count(']')
                - code.count('}')
            )
            if depth < 0:
                raise Unsupported('a bracket closes that was not opened')
            if '\\' in code:
                if stop != nl or code.find('\\') != len(code) - 1:
                    raise Unsupported('a backslash outside a string')
                continued = True
            last = code.rstrip(' \t\f\\')[-1:] or last
            if not wanted:
                for word in words:
                    if word in code:
                        wanted = True
        if stop != nl and line[stop] != '#':
            at = _skip_string(reader, lines, stop, _string_prefix(line, stop, at))
            line = lines[-1]
            last = line[at - 1]
            continue
        if continued or depth:
            line = _next_line(reader)
            lines.append(line)
            at = 0
            continue
        return lines, last, wanted


def _tokens(src: str, at: int, row: int) -> list:
    """the tokens of the logical line `src` from `at`, its first token, on `row`"""
    toks: list[Tok] = []
    line_start = 0
    n = len(src)
    while at < n:
        ch = src[at]
        if ch in ' \t\f':
            at += 1
        elif ch == '\n':
            at += 1
            row += 1
            line_start = at
        elif ch == '\\':  # _scan allows it only before a newline
            at += 2
            row += 1
            line_start = at
        elif ch == '#':
            at = src.find('\n', at)
        elif ch in _WORD_CHARS and not ch.isdigit():
            end = at + 1
            while end < n and src[end] in _WORD_CHARS:
                end += 1
            if src[end : end + 1] in ('"', "'") and src[at:end].lower() in _PREFIXES:
                at, row, line_start = _string_token(toks, src, at, end, row, line_start)
                continue
            if end < n and src[end] > '\x7f':
                raise Unsupported('a name that is not ASCII')
            toks.append(Tok(NAME, src[at:end], (row, at - line_start), (row, end - line_start)))
            at = end
        elif ch in '"\'':
            at, row, line_start = _string_token(toks, src, at, at, row, line_start)
        elif ch.isdigit() or ch == '.' and src[at + 1 : at + 2].isdigit():
            end = at + 1
            while end < n and (
                src[end] in _NUMBER_CHARS
                or src[end] in '+-'
                and src[end - 1] in 'eE'
                and src[at : at + 2].lower() != '0x'
            ):
                end += 1
            if end < n and (src[end] > '\x7f' or src[end] in _WORD_CHARS):
                raise Unsupported('a number run into a name')
            toks.append(Tok(OTHER, src[at:end], (row, at - line_start), (row, end - line_start)))
            at = end
        else:
            for size in (3, 2, 1):
                op = src[at : at + size]
                if op in _OPERATORS:
                    break
            else:
                raise Unsupported(f'the character {ch!r}')
            toks.append(Tok(OP, op, (row, at - line_start), (row, at + size - line_start)))
            at += size
    return toks


def _string_token(toks: list, src: str, start: int, quote_at: int, row: int, line_start: int):
    """append the string token that starts at `start`; (end, row, line start) after it"""
    quote = src[quote_at] * (3 if src.startswith(src[quote_at] * 3, quote_at) else 1)
    fstring = _NESTED_FSTRINGS and src[start:quote_at].lower() in _F_PREFIXES
    end = (_fstring_end if fstring else _string_end)(src, quote_at + len(quote), quote)  # _scan found it
    begin = (row, start - line_start)
    newlines = src.count('\n', start, end)
    if newlines:
        row += newlines
        line_start = src.rfind('\n', start, end) + 1
    toks.append(Tok(OTHER, src[start:end], begin, (row, end - line_start)))
    return end, row, line_start


def logical_lines(reader: LineReader, stop_after: int, plain: bool = False):
    """yield the significant tokens of each logical line through row
    `stop_after`, and each change of indentation as [INDENT] or [DEDENT].
    A logical line the rewrite has no use for comes as one OTHER token with
    no text; a block header as its word and its colon.  With `plain`, lines
    that mention `import` are of use."""
    words = ('lazy', 'import') if plain else ('lazy',)
    indents = [0]
    row = 0
    while True:
        text = reader.readline()
        if not text:
            for _ in indents[1:]:  # as the tokenizer closes the blocks at the end
                yield [Tok(DEDENT, '', (row + 1, 0), (row + 1, 0))]
            return
        row += 1
        body = text.lstrip(' \t\f')
        if body[0] in '\n#':
            continue  # blank, or a comment alone: no indentation
        col = len(text) - len(body)
        if col:
            if text[:col].strip(' '):
                raise Unsupported('a tab or form feed in indentation')
            if col > indents[-1]:
                indents.append(col)
                yield [Tok(INDENT, text[:col], (row, 0), (row, col))]
        if col < indents[-1]:
            while col < indents[-1]:
                indents.pop()
                yield [Tok(DEDENT, '', (row, col), (row, col))]
            if col != indents[-1]:
                raise Unsupported('a dedent to no outer level')
        start_row = row
        lines, last, wanted = _scan(reader, text, col, words)
        row += len(lines) - 1
        word = _first_word(body) if body[0] in _COMPOUND_FIRST else ''
        if wanted:
            yield _tokens(''.join(lines), col, start_row)
        elif word in COMPOUND:
            if (
                last == ':'
                and word not in _HEADERS_READ_WHOLE
                and all('lambda' not in line for line in lines)
            ):
                # a block header (the common case): all the rewrite reads of it
                yield [
                    Tok(NAME, word, (start_row, col), (start_row, col + len(word))),
                    Tok(OP, ':', (row, 0), (row, 1)),
                ]
            else:
                yield _tokens(''.join(lines), col, start_row)
        else:
            yield [Tok(OTHER, '', (start_row, col), (row, 0))]
        if row >= stop_after:
            return


# headers whose next token matters to the rewrite (`async def`, `match(x)`)
_HEADERS_READ_WHOLE = frozenset(('async', 'match', 'case'))


def _first_word(body: str) -> str:
    end = 0
    while end < len(body) and body[end] in _WORD_CHARS:
        end += 1
    return body[:end]
