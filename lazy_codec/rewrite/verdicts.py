"""3.15's verdict on an import statement: its parser's reading of a record
(module, level, aliases) or its error, and where a lazy statement may stand.

`parse` completes a `Statement` (lazy_codec.rewrite.statements) as 3.15's
parser reads it, or gives the parser's error; `verdict` judges a lazy
statement (ok, or 3.15's parser or placement error with its 1-based span, a
`LazyError`), `can_be_lazy` a plain one (as `__lazy_modules__` and mode "all"
make them).
"""

from lazy_codec.rewrite.lexer import KEYWORDS, NAME, NEWLINE
from lazy_codec.rewrite.lexer import Tok as _Tok
from lazy_codec.rewrite.statements import TRY_WORDS, Statement

_SCOPE_WORDS = {'def': 'functions', 'class': 'classes'}

MSG_PLACE = 'lazy {} not allowed inside {}'
MSG_STAR = 'lazy from ... import * is not allowed'
MSG_FUTURE = 'lazy from __future__ import is not allowed'
MSG_TRAILING = 'trailing comma not allowed without surrounding parentheses'
MSG_INVALID = 'invalid syntax'
MSG_NO_NAMES = "Expected one or more names after 'import'"


class LazyError:
    """a SyntaxError that 3.15 raises for a lazy statement: offsets are
    1-based, as SyntaxError has them; `grammar` says the parser raises it
    (else the compiler does, after the parser has found no error of its own)"""

    __slots__ = ('msg', 'lineno', 'offset', 'end_lineno', 'end_offset', 'grammar')

    def __init__(self, msg, lineno, offset, end_lineno, end_offset, grammar):
        self.msg = msg
        self.lineno = lineno
        self.offset = offset
        self.end_lineno = end_lineno
        self.end_offset = end_offset
        self.grammar = grammar


def span(start: tuple, end: tuple) -> 'tuple[int, int, int, int]':
    """(lineno, offset, end_lineno, end_offset), SyntaxError's 1-based
    columns, of the text from `start` to `end` ((row, column) pairs)"""
    return start[0], start[1] + 1, end[0], end[1] + 1


def parse(stmt: Statement) -> 'LazyError | None':
    """read the statement's module, level and aliases into it, as 3.15's
    parser does; its error, if it has one"""
    toks = stmt.tokens[1:] if stmt.lazy else stmt.tokens
    end = stmt.after
    pos = 0

    def peek_end() -> _Tok:
        return end  # type: ignore[return-value]

    def peek() -> _Tok:
        # (`after` is None only for a statement the interpreter rejects first: never parsed)
        return toks[pos] if pos < len(toks) else end  # type: ignore[return-value]

    def name() -> 'str | None':
        nonlocal pos
        tok = peek()
        if tok.type == NAME and tok.string not in KEYWORDS:
            pos += 1
            return tok.string
        return None

    def dotted() -> 'str | None':
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

    def as_name() -> 'tuple[bool, str | None]':
        nonlocal pos
        if peek().string != 'as':
            return True, None
        pos += 1
        after = toks[pos + 1] if pos + 1 < len(toks) else peek_end()
        if after.string not in (',', ')', ';', ''):
            return False, None  # 3.15 reads an expression here: see bad_alias
        alias = name()
        return alias is not None, alias

    def bad_alias():
        """3.15's message for what follows `as` when it is not a name"""
        from lazy_codec.rewrite.targets import expression  # only a rejected statement needs it

        kind, first, last, _ = expression(toks, pos, peek_end())
        if kind is None:
            return _invalid(first)
        return LazyError(f'cannot use {kind} as import target', *span(first.start, last.end), grammar=True)

    if toks[0].string == 'import':
        pos = 1
        aliases = []
        while True:
            module = dotted()
            if module is None:
                return _invalid(peek())
            ok, alias = as_name()
            if not ok:
                return bad_alias()
            aliases.append((module, alias))
            if peek().string != ',':
                break
            pos += 1
        if pos != len(toks):
            return _invalid(peek())
        stmt.aliases = aliases
        return None

    pos = 1  # after `from`
    level = 0
    while peek().string in ('.', '...'):
        level += len(peek().string)
        pos += 1
    module = ''
    if peek().string != 'import':
        module = dotted()
        if module is None:
            return _invalid(peek())
    elif level == 0:  # `from import x`
        return _invalid(peek())
    if peek().string != 'import':
        return _invalid(peek())
    pos += 1
    if peek().string == '*':
        pos += 1
        if pos != len(toks):
            return _invalid(peek())
        stmt.module, stmt.level, stmt.form_error = module, level, MSG_STAR
        return None
    if peek() is end and end.type == NEWLINE:
        (row, col), (_, end_col) = end.start, end.end
        return LazyError(MSG_NO_NAMES, row, col + 1, row, end_col, grammar=True)
    parens = peek().string == '('
    pos += parens
    aliases = []
    while True:
        attr = name()
        if attr is None:
            if parens and aliases and peek().string == ')':
                break  # trailing comma inside parentheses
            return _invalid(peek())
        ok, alias = as_name()
        if not ok:
            return bad_alias()
        aliases.append((attr, alias))
        if peek().string != ',':
            break
        pos += 1
        if not parens and peek() is end and end.type == NEWLINE:
            return LazyError(MSG_TRAILING, *span(end.start, end.end), grammar=True)
    if parens:
        if peek().string != ')':
            return _invalid(peek())
        pos += 1
    if pos != len(toks):
        return _invalid(peek())
    stmt.module, stmt.level = module, level
    if module == '__future__' and level == 0:
        stmt.form_error = MSG_FUTURE
    else:
        stmt.aliases = aliases
    return None


def _invalid(tok: _Tok) -> LazyError:
    return LazyError(MSG_INVALID, *span(tok.start, tok.end), grammar=True)


def place_error(kind: str, blocks: list[str]) -> 'str | None':
    """3.15's message for a lazy statement in `blocks`: the innermost
    function, class or try block names the place"""
    words = 'import' if kind == 'import' else 'from ... import'
    for word in reversed(blocks):
        if word in _SCOPE_WORDS:
            return MSG_PLACE.format(words, _SCOPE_WORDS[word])
        if word in TRY_WORDS:
            return MSG_PLACE.format(words, 'try/except blocks')
    return None


# -- verdicts ------------------------------------------------------------------


def verdict(stmt: Statement) -> 'LazyError | None':
    """the SyntaxError 3.15 raises for a lazy statement, or None: its
    parser's error first, else its compiler's for where the statement is,
    else for its form"""
    error = parse(stmt)
    if error is not None:
        return error
    placement = place_error(stmt.kind, stmt.context)
    if placement is not None:
        return LazyError(placement, *span(stmt.start, stmt.end), grammar=False)
    if stmt.form_error == MSG_FUTURE:  # 3.15 marks the keyword only
        return LazyError(MSG_FUTURE, *span(stmt.start, stmt.tokens[0].end), grammar=False)
    if stmt.form_error is not None:
        return LazyError(stmt.form_error, *span(stmt.start, stmt.end), grammar=False)
    return None


def can_be_lazy(stmt: Statement) -> bool:
    """may a plain import become lazy where it is, as 3.15 makes them for
    `__lazy_modules__` and mode "all": not in a function, class or try
    block, not `*`, not `__future__`, and it parses"""
    return place_error(stmt.kind, stmt.context) is None and parse(stmt) is None and stmt.form_error is None
