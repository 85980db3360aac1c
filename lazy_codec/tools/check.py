"""What the tools read of a text: the rewrite's statements and verdicts.

`check` prints `problems`; `fix` asks `plain_imports` which imports can be
lazy where they are, and `problems` whether its result passes.  Neither
judges a statement itself: the verdicts are the rewrite's (`statements`),
the ones the decoder goes by.  The decoder never imports this module.
"""

import re

from lazy_codec.rewrite.cookie import cookie_name
from lazy_codec.rewrite.emitter import edits_for, last_candidate
from lazy_codec.rewrite.statements import read_statements
from lazy_codec.rewrite.verdicts import parse, place_error

MSG_NO_COOKIE = (
    "lazy import in a script without the '# -*- coding: lazy -*-' cookie: `python FILE` needs it "
    'before Python 3.15 (imported, or run with -m, a module needs none)'
)
NOTE_COOKIE_NOT_NEEDED = (
    'note: the cookie is not needed here (a module: the import system compiles its lazy syntax '
    'without it; `lazy-codec fix --drop-cookie` removes it)'
)
NOTE_PYUPGRADE = (
    'note: pyupgrade removes coding cookies: keep it off this script, or run it with `lazy-codec run`'
)

# a module-level `if __name__ == '__main__':` (either way round)
_MAIN_BLOCK = re.compile(
    r"""(?m)^if\s+(?:__name__\s*==\s*(['"])__main__\1|(['"])__main__\2\s*==\s*__name__)\s*:"""
)


def is_main_script(text: str) -> bool:
    """is `text` written to be run as `python FILE` (a shebang, or a
    module-level `if __name__ == '__main__':`), the one case where the
    cookie is still needed before 3.15?"""
    return text.startswith('#!') or _MAIN_BLOCK.search(text) is not None


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


def problems(text: str) -> 'list[tuple[int, int, str]]':
    """`check`'s findings: (line, column, message) for each lazy statement
    3.15 rejects, and for lazy syntax in a script without the cookie"""
    if last_candidate(text) < 0:
        return []
    statements, _ = read_statements(text, len(text) + 1)
    edits, errors = edits_for(statements)
    found = [(error.lineno, error.offset, error.msg) for error, _ in errors]
    if edits and cookie_name(text.encode()) != b'lazy' and is_main_script(text):
        found.append((edits[0].start[0], edits[0].start[1] + 1, MSG_NO_COOKIE))
    return found


def notes(text: str, pyupgrade: bool = False) -> 'list[tuple[int, int, str]]':
    """`check`'s advice, which is not a problem: a cookie that a module does
    not need; with `pyupgrade` (it runs over the file), a script's cookie
    that pyupgrade would remove"""
    if cookie_name(text.encode()) != b'lazy':
        return []
    line = 1 if not text.startswith('#!') else 2
    if not is_main_script(text):
        return [(line, 1, NOTE_COOKIE_NOT_NEEDED)]
    return [(line, 1, NOTE_PYUPGRADE)] if pyupgrade else []
