"""The edits `fix` makes, on tokenize-rt's tokens: a lazy statement (or an
`import` split into an eager one and a lazy one), and `__lazy_modules__`.

Each edits the token list in place; only the tokens it touches change.
"""

from __future__ import annotations

import ast

from tokenize_rt import NON_CODING_TOKENS, UNIMPORTANT_WS, Token, tokens_to_src

from lazy_codec.rewrite.statements import closing_bracket

LAZY_MODULES = '__lazy_modules__'


class Refused(Exception):
    """the file is left as it is, for the reason given"""


def line_ending(text: str) -> str:
    """the line ending the text uses first"""
    at = text.find('\n')
    return '\r\n' if at > 0 and text[at - 1] == '\r' else '\n'


def bound_name(stmt, alias) -> str:
    """the name one alias of a statement binds"""
    name, asname = alias
    if asname:
        return asname
    return name.partition('.')[0] if stmt.kind == 'import' else name


def written(stmt) -> str:
    """what a statement imports, as a message names it"""
    if stmt.kind == 'import':
        return ', '.join(name for name, _ in stmt.aliases)
    return '.' * stmt.level + stmt.module


def _clauses(tokens: list[Token], i: int) -> tuple[list[tuple[int, int]], int]:
    """([(first, last) token index of each alias], index of the token that
    ends the statement) of the `import` statement whose keyword is at `i`"""
    clauses: list = []
    start: int | None = None
    last: int | None = None
    j = i + 1
    while True:
        tok = tokens[j]
        if tok.name in ('NEWLINE', 'ENDMARKER', 'COMMENT') or tok.src == ';':
            break
        if tok.name not in NON_CODING_TOKENS:
            if tok.src == ',':
                clauses.append((start, last))
                start = None
            else:
                start = j if start is None else start
                last = j
        j += 1
    clauses.append((start, last))
    return clauses, j


def _line_start(tokens: list[Token], i: int) -> bool:
    """is the token at `i` the first of its line?"""
    j = i - 1
    while (
        j >= 0 and tokens[j].name in ('INDENT', 'DEDENT', UNIMPORTANT_WS) and tokens[j].line == tokens[i].line
    ):
        j -= 1
    return j < 0 or tokens[j].name in ('NEWLINE', 'NL', 'COMMENT') or tokens[j].line != tokens[i].line


def make_lazy(tokens: list[Token], i: int, stmt, picked: list[int], lines: list[str], say, path: str) -> None:
    """make the statement whose keyword is at `i` lazy, or the picked
    aliases of an `import` statement (split into an eager statement and a
    lazy one, on the next line)"""
    lazy = [Token('NAME', 'lazy'), Token(UNIMPORTANT_WS, ' ')]
    if len(picked) == len(stmt.aliases):
        tokens[i:i] = lazy
        return
    kept = [k for k in range(len(stmt.aliases)) if k not in picked]
    if {bound_name(stmt, stmt.aliases[k]) for k in kept} & {
        bound_name(stmt, stmt.aliases[k]) for k in picked
    }:
        say(
            f'{path}:{stmt.start[0]}:{stmt.start[1] + 1}: import of {written(stmt)} left eager: '
            f'it binds one name both eagerly and lazily'
        )
        return
    clauses, end = _clauses(tokens, i)
    moved = ', '.join(tokens_to_src(tokens[a : b + 1]) for a, b in (clauses[k] for k in picked))
    # the kept aliases, each with the separator that preceded it
    kept_src = tokens_to_src(tokens[clauses[kept[0]][0] : clauses[kept[0]][1] + 1])
    for k in kept[1:]:
        kept_src += tokens_to_src(tokens[clauses[k - 1][1] + 1 : clauses[k][1] + 1])
    at = end + 1 if tokens[end].name == 'NEWLINE' else None
    if tokens[end].name == 'COMMENT' and tokens[end + 1].name == 'NEWLINE':
        at = end + 2
    if _line_start(tokens, i) and at is not None:
        newline = tokens[at - 1]
        row, col = stmt.start
        indent = lines[row - 1][:col]
        nl = newline.src or line_ending(''.join(lines))
        addition = f'{indent}lazy import {moved}{nl}' if newline.src else f'{nl}{indent}lazy import {moved}'
        tokens[at:at] = [Token('CODE', addition)]
    else:
        tokens[clauses[-1][1] + 1 : clauses[-1][1] + 1] = [Token('CODE', f'; lazy import {moved}')]
    first, last = clauses[0][0], clauses[-1][1]
    tokens[first : last + 1] = [Token('CODE', kept_src)]


def _top_level(tokens: list[Token]) -> list[int]:
    """the index of the first token of each statement at module level that
    starts a line"""
    starts = []
    depth = 0
    at_start = True
    for i, tok in enumerate(tokens):
        if tok.name == 'INDENT':
            depth += 1
        elif tok.name == 'DEDENT':
            depth -= 1
        elif tok.name == 'NEWLINE':
            at_start = True
        elif tok.name in NON_CODING_TOKENS or tok.name == 'ENDMARKER':
            continue
        elif at_start:
            at_start = False
            if depth == 0:
                starts.append(i)
    return starts


def _quote(tokens: list[Token]) -> str:
    """the quote most of the file's strings use"""
    double = sum(tok.src.lstrip('rRbBuUfF')[:1] == '"' for tok in tokens if tok.name == 'STRING')
    single = sum(tok.src.lstrip('rRbBuUfF')[:1] == "'" for tok in tokens if tok.name == 'STRING')
    return '"' if double > single else "'"


def _closing(tokens: list[Token], i: int) -> int:
    j = closing_bracket([tok.src for tok in tokens], i)
    if j < 0:
        raise Refused(f'{LAZY_MODULES} has no closing bracket')
    return j


def _next_coding(tokens: list[Token], i: int) -> int:
    i += 1
    while tokens[i].name in NON_CODING_TOKENS:
        i += 1
    return i


def list_lazy_modules(tokens: list[Token], names: list[str], first_row: int, say, path: str) -> bool:
    """write `__lazy_modules__ = [...]` before the module's imports, or add
    the names the existing one lacks; False if it cannot be extended"""
    quote = _quote(tokens)
    starts = _top_level(tokens)
    found = [i for i in starts if tokens[i].matches(name='NAME', src=LAZY_MODULES)]
    nl = line_ending(tokens_to_src(tokens))
    if found:
        i = found[0]
        eq = _next_coding(tokens, i)
        opener = _next_coding(tokens, eq) if tokens[eq].src == '=' else eq
        if len(found) > 1 or tokens[eq].src != '=' or tokens[opener].src not in ('[', '(', '{'):
            say(
                f'{path}:{tokens[i].line}: {LAZY_MODULES} is not one list, tuple or set written '
                f'out: not extended'
            )
            return False
        close = _closing(tokens, opener)
        try:
            existing = ast.literal_eval(tokens_to_src(tokens[opener : close + 1]))
        except (ValueError, SyntaxError):
            say(f'{path}:{tokens[i].line}: {LAZY_MODULES} holds more than strings: not extended')
            return False
        if tokens[i].line > first_row:
            say(
                f'{path}:{tokens[i].line}: {LAZY_MODULES} is set after the imports it would '
                f'make lazy (line {first_row}): not extended'
            )
            return False
        new = [name for name in names if name not in existing]
        if not new:
            return True
        last = close - 1
        while tokens[last].name in NON_CODING_TOKENS:
            last -= 1
        quoted = [f'{quote}{name}{quote}' for name in new]
        j = close - 1
        while tokens[j].name == UNIMPORTANT_WS:
            j -= 1
        if tokens[j].name == 'NL' and last != opener:
            # one element a line: as many lines more, indented as the first
            k = opener + 1
            indent = (
                tokens[k + 1].src
                if tokens[k].name == 'NL' and tokens[k + 1].name == UNIMPORTANT_WS
                else '    '
            )
            tokens[j + 1 : j + 1] = [Token('CODE', ''.join(f'{indent}{q},{nl}' for q in quoted))]
            if tokens[last].src != ',':
                tokens[last + 1 : last + 1] = [Token('OP', ',')]
            return True
        if last == opener:  # empty
            added = ', '.join(quoted) + (',' if tokens[opener].src == '(' and len(new) == 1 else '')
        elif tokens[last].src == ',':
            added = ' ' + ', '.join(quoted) + ','
        else:
            added = ', ' + ', '.join(quoted)
        tokens[last + 1 : last + 1] = [Token('CODE', added)]
        return True
    # before the first module-level import (after the docstring and
    # `from __future__`), or the statement that holds the first one chosen
    i = starts[0] if starts else 0
    for n, i in enumerate(starts):
        next_row = tokens[starts[n + 1]].line if n + 1 < len(starts) else float('inf')
        tok = tokens[i]
        future = tok.src == 'from' and tokens[_next_coding(tokens, i)].src == '__future__'
        if tok.src in ('import', 'from') and not future or tok.line <= first_row < next_row:
            break
    line = f'{LAZY_MODULES} = [{", ".join(f"{quote}{name}{quote}" for name in names)}]'
    if len(line) > 79:
        line = f'{LAZY_MODULES} = [{nl}' + ''.join(f'    {quote}{name}{quote},{nl}' for name in names) + ']'
    tokens[i:i] = [Token('CODE', line + nl)]
    return True
