"""`python -m lazy_codec fix`: move code to lazy imports, on tokenize-rt.

    fix [--diff] [--lazy MOD[,MOD...]] [--unused REPORT.json] [--lazy-modules]
        [--drop-cookie] PATH...

Files are edited in place (pyupgrade's conventions): exit status 1 when a
file changed or could not be fixed, and a second run changes nothing.  The
text goes through tokenize-rt, whose tokens give back every byte: only the
tokens an edit touches change.  Which imports can be lazy where they are is
the rewrite's verdict (`check.plain_imports`, 3.15's rules and messages),
and a result is written only if `check` passes on it (`check.problems`)
and it compiles on 3.15.

The decoder never imports this module (nor tokenize-rt): only the command does.
"""

from __future__ import annotations

import codecs
import difflib
import json
import os
import re
import subprocess
import sys

from tokenize_rt import Token, src_to_tokens, tokens_to_src

from lazy_codec.rewrite.cookie import cookie_span
from lazy_codec.rewrite.emitter import rewrite
from lazy_codec.tools.check import MSG_NO_COOKIE, is_main_script, plain_imports, problems
from lazy_codec.tools.fix_edits import Refused, bound_name, line_ending, list_lazy_modules, make_lazy, written

COOKIE = '# -*- coding: lazy -*-'
_UTF8 = frozenset(('utf-8', 'utf8', 'utf_8', 'lazy'))
# a comment line that is nothing but a cookie naming `lazy`: --drop-cookie removes the line
_COOKIE_ONLY = re.compile(
    r'[ \t\f]*#[ \t]*(-\*-[ \t]*)?(vim?:[ \t]*(set[ \t]+)?)?(file)?(en)?coding[:=][ \t]*lazy'
    r'[ \t]*(-\*-|:)?[ \t]*',
    re.IGNORECASE,
)


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


# -- the reading and writing of a file -----------------------------------------


def _decode(data: bytes) -> tuple[str, str]:
    """(text, encoding) of a source file, as the interpreter reads it"""
    if data.startswith(codecs.BOM_UTF8):
        raise Refused('starts with a UTF-8 BOM, which cannot go with the lazy cookie')
    span = cookie_span(data)
    name = 'utf-8' if span is None else data[span[0] : span[1]].decode('ascii').lower()
    if name in _UTF8:
        name = 'utf-8'
    try:
        text = data.decode(name)
    except (LookupError, UnicodeDecodeError) as exc:
        raise Refused(f'cannot be read: {exc}') from None
    return text, name


def _encode(text: str, encoding: str) -> bytes:
    name = _cookie_name(text)
    encoding = 'utf-8' if name is None or name in _UTF8 else encoding
    try:
        return text.encode(encoding)
    except UnicodeEncodeError as exc:
        raise Refused(f'the result cannot be written in {encoding}: {exc}') from None


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
    head = text[: _head_length(text)]
    data = head.encode()
    span = cookie_span(data)
    if span is None:
        return None
    return len(data[: span[0]].decode()), len(data[: span[1]].decode())


def _cookie_name(text: str) -> str | None:
    span = _cookie(text)
    return None if span is None else text[span[0] : span[1]].lower()


# -- the cookie ---------------------------------------------------------------


def add_cookie(text: str) -> str:
    """the text with the lazy cookie: an existing cookie names `lazy`
    instead, else a cookie line goes first (second, after a shebang)"""
    span = _cookie(text)
    if span is not None:
        return text[: span[0]] + 'lazy' + text[span[1] :]
    at = 0
    if text.startswith('#!'):
        nl = text.find('\n')
        if nl < 0:
            return text + line_ending(text) + COOKIE + line_ending(text)
        at = nl + 1
    return text[:at] + COOKIE + line_ending(text) + text[at:]


def drop_cookie(text: str) -> str:
    """the text without a lazy cookie: its line goes if it holds nothing
    else, else it names utf-8"""
    span = _cookie(text)
    if span is None or text[span[0] : span[1]].lower() != 'lazy':
        return text
    start = text.rfind('\n', 0, span[0]) + 1
    end = text.find('\n', span[1])
    end = len(text) if end < 0 else end + 1
    if _COOKIE_ONLY.fullmatch(text[start:end].rstrip('\r\n')):
        return text[:start] + text[end:]
    return text[: span[0]] + 'utf-8' + text[span[1] :]


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
    base = parts[: len(parts) - (level - 1)]
    return '.'.join(base + [module] if module else base)


def _listed(name: str | None, listed: frozenset) -> bool:
    """is the module `name`, or a package it is in, listed?"""
    while name:
        if name in listed:
            return True
        name = name.rpartition('.')[0]
    return False


def _checked_name(stmt, alias, package) -> str | None:
    """the name 3.15 looks for in __lazy_modules__ for one alias"""
    if stmt.kind == 'import':
        return alias[0]
    return absolute(stmt.module, stmt.level, package)


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
                say(
                    f'{path}:{stmt.start[0]}:{stmt.start[1] + 1}: import of {written(stmt)} '
                    f'left eager: {stmt.refusal}'
                )
            continue
        picked = set()
        for i, alias in enumerate(stmt.aliases):
            name = (
                alias[0]
                if stmt.kind == 'import'
                else (absolute(stmt.module, stmt.level, package) or '.' * stmt.level + stmt.module)
            )
            if _listed(name, settings.lazy):
                picked.add(i)
        if entries:
            first, last = stmt.start[0], stmt.end[0]
            unused = set()
            for i, alias in enumerate(stmt.aliases):
                uses = [
                    used
                    for line, bound, used in entries
                    if first <= line <= last and bound == bound_name(stmt, alias)
                ]
                if uses and not any(uses):
                    unused.add(i)
            if stmt.kind == 'import' or len(unused) == len(stmt.aliases):
                # a `from` whose module was imported for a name used: nothing to gain
                picked |= unused
        if not picked:
            continue
        if stmt.refusal is not None:
            say(
                f'{path}:{stmt.start[0]}:{stmt.start[1] + 1}: import of {written(stmt)} '
                f'left eager: {stmt.refusal}'
            )
            continue
        chosen.append((stmt, sorted(picked)))
    return chosen


def _index(tokens: list[Token], lines: list[str]):
    """(row, str column) -> the index of the NAME token there"""
    at: dict = {}
    for i, tok in enumerate(tokens):
        if tok.name == 'NAME':
            at.setdefault((tok.line, tok.utf8_byte_offset), i)

    def find(pos) -> int:
        row, col = pos
        try:
            return at[(row, len(lines[row - 1][:col].encode()))]
        except (KeyError, IndexError):
            raise Refused(f'no token where the import at {row}:{col + 1} starts') from None

    return find


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
                raise Refused(f'cannot be tokenized: {exc}') from None
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
                            say(
                                f'{path}:{stmt.start[0]}:{stmt.start[1] + 1}: import of '
                                f'{written(stmt)} left eager: its package is not known here'
                            )
                        elif name not in names:
                            names.append(name)
                if names:
                    listed = list_lazy_modules(tokens, names, min(s.start[0] for s, _ in chosen), say, path)
            else:
                for stmt, picked in sorted(chosen, key=lambda c: c[0].start, reverse=True):
                    make_lazy(tokens, find(stmt.start), stmt, picked, lines, say, path)
            out = tokens_to_src(tokens)
    if settings.drop_cookie:
        if is_main_script(out):
            if _cookie_name(out) == 'lazy':
                say(f'{path}: cookie kept: a script run as `python FILE` needs it before 3.15')
        else:
            out = drop_cookie(out)
    elif (
        _cookie_name(out) != 'lazy'
        and is_main_script(out)
        and (out != text or listed or any(msg == MSG_NO_COOKIE for _, _, msg in problems(out)))
    ):
        # (a module needs no cookie: the import system compiles its lazy
        # syntax; a script run as `python FILE` does, before 3.15)
        out = add_cookie(out)
    found = problems(out)
    if found:
        raise Refused('; '.join(f'{line}:{col}: {msg}' for line, col, msg in found))
    return out


def _real(path: str) -> str:
    return os.path.normcase(os.path.realpath(path))


# -- 3.15's compiler --------------------------------------------------------------

_COMPILE_ALL = r"""
import json, sys
errors = {}
for path, text in json.load(sys.stdin).items():
    try:
        compile(text, path, 'exec', dont_inherit=True)
    except SyntaxError as exc:
        errors[path] = f'{exc.msg} (line {exc.lineno})'
json.dump(errors, sys.stdout)
"""


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
        proc = subprocess.run(
            [python, '-I', '-S', '-c', _COMPILE_ALL], input=json.dumps(texts), capture_output=True, text=True
        )
        if proc.returncode == 0:
            return json.loads(proc.stdout)
        say(f'fix: {python} failed ({proc.stderr.strip()[-200:]})')
    say(
        f'fix: no Python 3.15 found (set LAZY_CODEC_PYTHON315=PATH): results compiled through '
        f"lazy_codec's rewrite on {sys.version_info[0]}.{sys.version_info[1]} instead"
    )
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
            (int(line), entry['bound_as'], bool(entry['used']))
        )
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
            sys.stdout.writelines(
                difflib.unified_diff(_diff_lines(text), _diff_lines(new), fromfile=path, tofile=path)
            )
        else:
            with open(path, 'wb') as out:
                out.write(_encode(new, encoding))
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
