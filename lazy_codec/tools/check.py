"""What the tools read of a text: the rewrite's statements and verdicts.

`check` prints `problems`; `fix` asks `plain_imports` which imports can be
lazy where they are, and `problems` whether its result passes.  Neither
judges a statement itself: the verdicts are the rewrite's (`statements`),
the ones the decoder goes by.  The decoder never imports this module.
"""

from lazy_codec.rewrite.cookie import cookie_name
from lazy_codec.rewrite.emitter import edits_for, last_candidate
from lazy_codec.rewrite.statements import read_statements
from lazy_codec.rewrite.verdicts import parse, place_error

MSG_NO_COOKIE = "lazy import without the '# -*- coding: lazy -*-' cookie (needed before Python 3.15)"


def plain_imports(text: str) -> list:
    """every plain import statement of `text` that parses (a `Statement`),
    its `refusal` set to what 3.15 says of making it lazy where it is (in a
    function, class or try block, `*`, `__future__`), else None: what
    `__lazy_modules__` and mode "all" go by"""
    statements, _ = read_statements(text, len(text) + 1, True)
    found = []
    for stmt in statements:
        if stmt.lazy or parse(stmt) is not None:
            continue
        stmt.refusal = stmt.form_error or place_error(stmt.kind, stmt.context)
        found.append(stmt)
    return found


def problems(text: str, cookie: bool = True) -> 'list[tuple[int, int, str]]':
    """`check`'s findings: (line, column, message) for each lazy statement
    3.15 rejects and, with `cookie`, for lazy syntax in a text without the
    cookie"""
    if last_candidate(text) < 0:
        return []
    statements, _ = read_statements(text, len(text) + 1)
    edits, errors = edits_for(statements)
    found = [(error.lineno, error.offset, error.msg) for error, _ in errors]
    if cookie and edits and cookie_name(text.encode()) != b'lazy':
        found.append((edits[0].start[0], edits[0].start[1] + 1, MSG_NO_COOKIE))
    return found
