"""`python -m lazy_codec fix`: move code to lazy imports, on tokenize-rt.

    fix [--diff] [--lazy MOD[,MOD...]] [--unused REPORT.json] [--lazy-modules]
        [--drop-cookie] PATH...

Files are edited in place (pyupgrade's conventions): exit status 1 when a
file changed or could not be fixed, and a second run changes nothing.  The
text goes through tokenize-rt, whose tokens give back every byte: only the
tokens an edit touches change.  Which imports can be lazy where they are is
the rewrite's verdict (`_check.plain_imports`, 3.15's rules and messages),
and a result is written only if `check` passes on it (`_check.problems`)
and it compiles on 3.15.

The decoder never imports this module (nor tokenize-rt): only the command does.
"""
from __future__ import annotations

import ast
import codecs
import difflib
import json
import os
import re
import subprocess
import sys

from tokenize_rt import NON_CODING_TOKENS, Token, UNIMPORTANT_WS, src_to_tokens, tokens_to_src

from lazy_codec._lexer import closing_bracket
from lazy_codec._check import MSG_NO_COOKIE, plain_imports, problems
from lazy_codec._rewrite import cookie_span, rewrite

COOKIE = '# -*- coding: lazy -*-'
LAZY_MODULES = '__lazy_modules__'
_UTF8 = frozenset(('utf-8', 'utf8', 'utf_8', 'lazy'))
# a comment line that is nothing but a cookie naming `lazy`: --drop-cookie removes the line
_COOKIE_ONLY = re.compile(
    r'[ \t\f]*#[ \t]*(-\*-[ \t]*)?(vim?:[ \t]*(set[ \t]+)?)?(file)?(en)?coding[:=][ \t]*lazy'
    r'[ \t]*(-\*-|:)?[ \t]*', re.IGNORECASE)


class Settings:
    """what to do to each file: `lazy`, module names whose imports become
    lazy; `unused`, {file's real path: [(line, bound name, used)]} from a
    report; `lazy_modules`, list them in __lazy_modules__ instead of writing
    lazy statements; `drop_cookie`, remove the cookie (3.15+ only code)"""

    def __init__(self, lazy=(), unused=None, lazy_modules=False, drop_cookie=False) -> None:
        self.lazy = frozenset(lazy)
        self.unused = unused
        self.lazy_modules = lazy_modules
        self.drop_cookie = drop_cookie


class Refused(Exception):
    """the file is left as it is, for the reason given"""


# -- the reading and writing of a file -----------------------------------------

def _decode(data: bytes) -> tuple[str, str]:
    """(text, encoding) of a source file, as the interpreter reads it"""
    if data.startswith(codecs.BOM_UTF8):
        raise Refused('starts with a UTF-8 BOM, which cannot go with the lazy cookie')
    span = cookie_span(data)
    name = 'utf-8' if span is None else data[span[0]:span[1]].decode('ascii').lower()
    if name in _UTF8:
        name = 'utf-8'
    try:
        text = data.decode(name)
    except (LookupError, UnicodeDecodeError) as exc:
        raise Refused(f'cannot be read: {exc}')
    return text, name


def _encode(text: str, encoding: str) -> bytes:
    name = _cookie_name(text)
    encoding = 'utf-8' if name is None or name in _UTF8 else encoding
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        raise Refused(f'the result cannot be written in {encoding}: {exc}')


def _head_length(text: str) -> int:
    """the length of the text's first two lines"""
    end = 0
    for _ in range(2):
        nl = text.find('\n', end)
        if nl < 0:
            return len(text)
        end = nl + 1
    return end


def _cookie(text: str) -> tuple[int, int] | None:
    """(start, end) of the codec name in the text's cookie, as str offsets"""
    head = text[:_head_length(text)]
    data = head.encode()
    span = cookie_span(data)
    if span is None:
        return None
    return len(data[:span[0]].decode()), len(data[:span[1]].decode())


def _cookie_name(text: str) -> str | None:
    span = _cookie(text)
    return None if span is None else text[span[0]:span[1]].lower()


def _newline(text: str) -> str:
    at = text.find('\n')
    return '\r\n' if at > 0 and text[at - 1] == '\r' else '\n'


# -- the cookie ---------------------------------------------------------------

def add_cookie(text: str) -> str:
    """the text with the lazy cookie: an existing cookie names `lazy`
    instead, else a cookie line goes first (second, after a shebang)"""
    span = _cookie(text)
    if span is not None:
        return text[:span[0]] + 'lazy' + text[span[1]:]
    at = 0
    if text.startswith('#!'):
        nl = text.find('\n')
        if nl < 0:
            return text + _newline(text) + COOKIE + _newline(text)
        at = nl + 1
    return text[:at] + COOKIE + _newline(text) + text[at:]


def drop_cookie(text: str) -> str:
    """the text without a lazy cookie: its line goes if it holds nothing
    else, else it names utf-8"""
    span = _cookie(text)
    if span is None or text[span[0]:span[1]].lower() != 'lazy':
        return text
    start = text.rfind('\n', 0, span[0]) + 1
    end = text.find('\n', span[1])
    end = len(text) if end < 0 else end + 1
    if _COOKIE_ONLY.fullmatch(text[start:end].rstrip('\r\n')):
        return text[:start] + text[end:]
    return text[:span[0]] + 'utf-8' + text[span[1]:]


# -- which imports --------------------------------------------------------------

def package_of(path: str) -> str | None:
    """the package a file is a module of, from the __init__.py files above
    it ('' at top level), or None for a file outside any package"""
    directory = os.path.dirname(os.path.abspath(path))
    parts: list[str] = []
    while os.path.exists(os.path.join(directory, '__init__.py')):
        parts.append(os.path.basename(directory))
        directory = os.path.dirname(directory)
    return '.'.join(reversed(parts)) if parts else None


def absolute(module: str, level: int, package: str | None) -> str | None:
    """a `from` import's module, absolute, or None where it cannot be known"""
    if level == 0:
        return module
    if not package:
        return None
    parts = package.split('.')
    if level - 1 >= len(parts):
        return None
    base = parts[:len(parts) - (level - 1)]
    return '.'.join(base + [module] if module else base)


def _listed(name: str | None, listed: frozenset) -> bool:
    """is the module `name`, or a package it is in, listed?"""
    while name:
        if name in listed:
            return True
        name = name.rpartition('.')[0]
    return False


def _bound(stmt, alias) -> str:
    name, asname = alias
    if asname:
        return asname
    return name.partition('.')[0] if stmt.kind == 'import' else name


def _checked_name(stmt, alias, package) -> str | None:
    """the name 3.15 looks for in __lazy_modules__ for one alias"""
    if stmt.kind == 'import':
        return alias[0]
    return absolute(stmt.module, stmt.level, package)


def _written(stmt) -> str:
    if stmt.kind == 'import':
        return ', '.join(name for name, _ in stmt.aliases)
    return '.' * stmt.level + stmt.module


def choose(text: str, path: str, settings: Settings, say) -> list:
    """[(statement, indices of the aliases to make lazy)] for the file's
    plain imports; a listed import that cannot be lazy where it is is told
    to `say`"""
    package = package_of(path)
    entries = None
    if settings.unused is not None:
        entries = settings.unused.get(_real(path), [])
    chosen = []
    for stmt in plain_imports(text):
        if not stmt.aliases:  # `*` or __future__: say so if the module was asked for
            name = absolute(stmt.module, stmt.level, package) or '.' * stmt.level + stmt.module
            if _listed(name, settings.lazy):
                say(f'{path}:{stmt.start[0]}:{stmt.start[1] + 1}: import of {_written(stmt)} '
                    f'left eager: {stmt.refusal}')
            continue
        picked = set()
        for i, alias in enumerate(stmt.aliases):
            name = alias[0] if stmt.kind == 'import' else (
                absolute(stmt.module, stmt.level, package) or '.' * stmt.level + stmt.module)
            if _listed(name, settings.lazy):
                picked.add(i)
        if entries:
            first, last = stmt.start[0], stmt.end[0]
            unused = set()
            for i, alias in enumerate(stmt.aliases):
                uses = [used for line, bound, used in entries
                        if first <= line <= last and bound == _bound(stmt, alias)]
                if uses and not any(uses):
                    unused.add(i)
            if stmt.kind == 'import' or len(unused) == len(stmt.aliases):
                # a `from` whose module was imported for a name used: nothing to gain
                picked |= unused
        if not picked:
            continue
        if stmt.refusal is not None:
            say(f'{path}:{stmt.start[0]}:{stmt.start[1] + 1}: import of {_written(stmt)} '
                f'left eager: {stmt.refusal}')
            continue
        chosen.append((stmt, sorted(picked)))
    return chosen


# -- the edits, on tokens ---------------------------------------------------------

def _index(tokens: list[Token], lines: list[str]):
    """(row, str column) -> the index of the NAME token there"""
    at = {}
    for i, tok in enumerate(tokens):
        if tok.name == 'NAME':
            at.setdefault((tok.line, tok.utf8_byte_offset), i)

    def find(pos) -> int:
        row, col = pos
        try:
            return at[(row, len(lines[row - 1][:col].encode()))]
        except (KeyError, IndexError):
            raise Refused(f'no token where the import at {row}:{col + 1} starts')
    return find


def _clauses(tokens: list[Token], i: int) -> tuple[list[tuple[int, int]], int]:
    """([(first, last) token index of each alias], index of the token that
    ends the statement) of the `import` statement whose keyword is at `i`"""
    clauses = []
    start = last = None
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
    while j >= 0 and tokens[j].name in ('INDENT', 'DEDENT', UNIMPORTANT_WS) and tokens[j].line == tokens[i].line:
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
    if {_bound(stmt, stmt.aliases[k]) for k in kept} & {_bound(stmt, stmt.aliases[k]) for k in picked}:
        say(f'{path}:{stmt.start[0]}:{stmt.start[1] + 1}: import of {_written(stmt)} left eager: '
            f'it binds one name both eagerly and lazily')
        return
    clauses, end = _clauses(tokens, i)
    moved = ', '.join(tokens_to_src(tokens[a:b + 1]) for a, b in (clauses[k] for k in picked))
    # the kept aliases, each with the separator that preceded it
    kept_src = tokens_to_src(tokens[clauses[kept[0]][0]:clauses[kept[0]][1] + 1])
    for k in kept[1:]:
        kept_src += tokens_to_src(tokens[clauses[k - 1][1] + 1:clauses[k][1] + 1])
    at = end + 1 if tokens[end].name == 'NEWLINE' else None
    if tokens[end].name == 'COMMENT' and tokens[end + 1].name == 'NEWLINE':
        at = end + 2
    if _line_start(tokens, i) and at is not None:
        newline = tokens[at - 1]
        row, col = stmt.start
        indent = lines[row - 1][:col]
        nl = newline.src or _newline(''.join(lines))
        addition = f'{indent}lazy import {moved}{nl}' if newline.src else f'{nl}{indent}lazy import {moved}'
        tokens[at:at] = [Token('CODE', addition)]
    else:
        tokens[clauses[-1][1] + 1:clauses[-1][1] + 1] = [Token('CODE', f'; lazy import {moved}')]
    first, last = clauses[0][0], clauses[-1][1]
    tokens[first:last + 1] = [Token('CODE', kept_src)]


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
    nl = _newline(tokens_to_src(tokens))
    if found:
        i = found[0]
        eq = _next_coding(tokens, i)
        opener = _next_coding(tokens, eq) if tokens[eq].src == '=' else eq
        if len(found) > 1 or tokens[eq].src != '=' or tokens[opener].src not in ('[', '(', '{'):
            say(f'{path}:{tokens[i].line}: {LAZY_MODULES} is not one list, tuple or set written '
                f'out: not extended')
            return False
        close = _closing(tokens, opener)
        try:
            existing = ast.literal_eval(tokens_to_src(tokens[opener:close + 1]))
        except (ValueError, SyntaxError):
            say(f'{path}:{tokens[i].line}: {LAZY_MODULES} holds more than strings: not extended')
            return False
        if tokens[i].line > first_row:
            say(f'{path}:{tokens[i].line}: {LAZY_MODULES} is set after the imports it would '
                f'make lazy (line {first_row}): not extended')
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
            indent = tokens[k + 1].src if tokens[k].name == 'NL' and tokens[k + 1].name == UNIMPORTANT_WS else '    '
            tokens[j + 1:j + 1] = [Token('CODE', ''.join(f'{indent}{q},{nl}' for q in quoted))]
            if tokens[last].src != ',':
                tokens[last + 1:last + 1] = [Token('OP', ',')]
            return True
        if last == opener:  # empty
            added = ', '.join(quoted) + (',' if tokens[opener].src == '(' and len(new) == 1 else '')
        elif tokens[last].src == ',':
            added = ' ' + ', '.join(quoted) + ','
        else:
            added = ', ' + ', '.join(quoted)
        tokens[last + 1:last + 1] = [Token('CODE', added)]
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


# -- one file --------------------------------------------------------------------

def fix_text(text: str, path: str, settings: Settings, say) -> str:
    """the text as fix leaves it (the same text when nothing changes);
    raises Refused"""
    if '\r' in text.replace('\r\n', ''):
        raise Refused('has lines ended by a lone CR, which the token library does not keep')
    out = text
    listed = False  # are imports of the file lazy through __lazy_modules__ now?
    if settings.lazy or settings.unused is not None:
        chosen = choose(text, path, settings, say)
        if chosen:
            try:
                tokens = src_to_tokens(text)
            except Exception as exc:  # tokenize.TokenError, IndentationError
                raise Refused(f'cannot be tokenized: {exc}')
            if tokens_to_src(tokens) != text:
                raise Refused('its tokens do not give back its text')
            lines = text.splitlines(True)
            find = _index(tokens, lines)
            if settings.lazy_modules:
                package = package_of(path)
                names: list[str] = []
                for stmt, picked in chosen:
                    for k in picked:
                        name = _checked_name(stmt, stmt.aliases[k], package)
                        if name is None:
                            say(f'{path}:{stmt.start[0]}:{stmt.start[1] + 1}: import of '
                                f'{_written(stmt)} left eager: its package is not known here')
                        elif name not in names:
                            names.append(name)
                if names:
                    listed = list_lazy_modules(tokens, names, min(s.start[0] for s, _ in chosen), say, path)
            else:
                for stmt, picked in sorted(chosen, key=lambda c: c[0].start, reverse=True):
                    make_lazy(tokens, find(stmt.start), stmt, picked, lines, say, path)
            out = tokens_to_src(tokens)
    if settings.drop_cookie:
        out = drop_cookie(out)
    elif _cookie_name(out) != 'lazy' and (
            out != text or listed or any(msg == MSG_NO_COOKIE for _, _, msg in problems(out))):
        out = add_cookie(out)
    found = problems(out, cookie=not settings.drop_cookie)
    if found:
        raise Refused('; '.join(f'{line}:{col}: {msg}' for line, col, msg in found))
    return out


def _real(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


# -- 3.15's compiler --------------------------------------------------------------

_COMPILE_ALL = r'''
import json, sys
errors = {}
for path, text in json.load(sys.stdin).items():
    try:
        compile(text, path, 'exec', dont_inherit=True)
    except SyntaxError as exc:
        errors[path] = f'{exc.msg} (line {exc.lineno})'
json.dump(errors, sys.stdout)
'''


def python315() -> str | None:
    """an interpreter 3.15+ to compile results with, other than this one"""
    given = os.environ.get('LAZY_CODEC_PYTHON315')
    if given:
        return given
    prefix = os.environ.get('REFERENCE_PYTHONS') or os.path.expanduser('~/.cache/reference-pythons')
    for candidate in (os.path.join(prefix, 'bin', 'python3.15'),):
        if os.access(candidate, os.X_OK):
            return candidate
    import shutil
    return shutil.which('python3.15')


def compile_315(texts: dict[str, str], say) -> dict[str, str]:
    """{path: 3.15's SyntaxError} for the texts that do not compile there;
    without a 3.15, the rewrite's text on this interpreter stands in"""
    if not texts:
        return {}
    if sys.version_info >= (3, 15):
        return _compile_here(texts, lambda text: text)
    python = python315()
    if python is not None:
        proc = subprocess.run([python, '-I', '-S', '-c', _COMPILE_ALL], input=json.dumps(texts),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if proc.returncode == 0:
            return json.loads(proc.stdout)
        say(f'fix: {python} failed ({proc.stderr.strip()[-200:]})')
    say(f'fix: no Python 3.15 found (set LAZY_CODEC_PYTHON315=PATH): results compiled through '
        f"lazy_codec's rewrite on {sys.version_info[0]}.{sys.version_info[1]} instead")
    return _compile_here(texts, rewrite)


def _compile_here(texts: dict[str, str], transform) -> dict[str, str]:
    errors = {}
    for path, text in texts.items():
        try:
            compile(transform(text), path, 'exec', dont_inherit=True)
        except SyntaxError as exc:
            errors[path] = f'{exc.msg} (line {exc.lineno})'
    return errors


# -- the command ---------------------------------------------------------------------

def read_report(path: str) -> dict[str, list[tuple[int, str, bool]]]:
    """{file's real path: [(line, bound name, used)]} from a report's JSON"""
    with open(path, encoding='utf-8') as f:
        data = json.load(f)
    cwd = data.get('cwd') or os.path.dirname(os.path.abspath(path))
    found: dict[str, list] = {}
    for entry in data.get('entries', []):
        if 'file' in entry:
            filename, line = entry['file'], entry['line']
        else:  # a report of an older lazy_codec: `declared` is path:line
            filename, _, line = entry['declared'].rpartition(':')
        found.setdefault(_real(os.path.join(cwd, filename)), []).append(
            (int(line), entry['bound_as'], bool(entry['used'])))
    return found


def fix_paths(paths: list[str], settings: Settings, diff: bool = False) -> int:
    """fix each file; 1 if one changed (would, with `diff`) or was refused"""
    def say(message: str) -> None:
        print(message, file=sys.stderr)

    status = 0
    results: dict[str, tuple[str, str, str]] = {}  # path -> (text, new text, encoding)
    for path in paths:
        try:
            with open(path, 'rb') as f:
                data = f.read()
            text, encoding = _decode(data)
            new = fix_text(text, path, settings, say)
            if new != text:
                if encoding != 'utf-8' and _cookie_name(new) == 'lazy' and not _same_as_utf8(data, text):
                    raise Refused(f'is written in {encoding}; the lazy codec reads UTF-8')
                _encode(new, encoding)
                results[path] = (text, new, encoding)
        except Refused as exc:
            say(f'{path}: {exc} (not changed)')
            status = 1
        except OSError as exc:
            say(f'{path}: {exc}')
            status = 1
    errors = compile_315({path: new for path, (_, new, _) in results.items()}, say)
    for path, (text, new, encoding) in results.items():
        if path in errors:
            say(f'{path}: the result would not compile on 3.15: {errors[path]} (not changed)')
            status = 1
            continue
        status = 1
        if diff:
            sys.stdout.writelines(difflib.unified_diff(
                _diff_lines(text), _diff_lines(new), fromfile=path, tofile=path))
        else:
            with open(path, 'wb') as f:
                f.write(_encode(new, encoding))
            say(f'Rewriting {path}')
    return status


def _same_as_utf8(data: bytes, text: str) -> bool:
    try:
        return data.decode('utf-8') == text
    except UnicodeDecodeError:
        return False


def _diff_lines(text: str) -> list[str]:
    lines = text.splitlines(True)
    if lines and not lines[-1].endswith('\n'):
        lines[-1] += '\n\\ No newline at end of file\n'
    return lines
