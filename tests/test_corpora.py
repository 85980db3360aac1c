"""The rewrite over whole standard libraries.

1. This interpreter's stdlib has no lazy statement: the rewrite and the codec
   give every file back unchanged, and a file that does not compile keeps its
   error (type and line) under the `lazy` cookie.
2. CPython 3.15's stdlib, but for its files with lazy statements or
   `__lazy_modules__`: unchanged.
3. Those 3.15 files: lines kept, each lazy statement a runtime call on its
   own lines (and plain imports, where `__lazy_modules__` is named, either
   kept or maybe_lazy_* calls), the same compile outcome and module-level
   names as the file with `lazy` taken out, and, for the files 3.15 rejects,
   the same SyntaxError as 3.15 (asked of ~/.cache/reference-pythons' 3.15).
4. A sample of this interpreter's stdlib with `lazy ` put before every import
   3.15 allows it on: checked as in 3.
Last, the bugs these found, as xfail tests: lazy statements that 3.15
rejects and the rewrite accepts, or rejects with another SyntaxError.

`pytest -s` shows the counts.
"""

from __future__ import annotations

import ast
import codecs
import json
import os
import re
import sys
import sysconfig
import time
import warnings

import pytest
from conftest import COOKIE, NATIVE, run_process

import lazy_codec
from lazy_codec.rewrite import ENTRY_NAME, ENTRY_POINTS
from lazy_codec.rewrite.emitter import ERROR_CALL, LAZY_MODULES_NAME, SET_MODE_NAME, rewrite
from lazy_codec.rewrite.lexer import split_lines

REFERENCE = os.path.expanduser('~/.cache/reference-pythons/root/usr')
STDLIB_315 = os.path.join(REFERENCE, 'lib', 'python3.15')
PYTHON_315 = os.path.join(REFERENCE, 'bin', 'python3.15')

LAZY_COOKIE = COOKIE.encode()
BOM = codecs.BOM_UTF8
# a file holding a lazy statement (or text that looks like one)
HAS_LAZY = re.compile(r'^\s*lazy\s+(import|from)\s', re.MULTILINE)
# a file naming these may have its plain module-level imports made lazy (PEP
# 810's compatibility mode, or a switch to mode "all" at run time): the
# rewrite turns them into maybe_lazy_* calls
RUN_TIME_NAMES = (LAZY_MODULES_NAME, SET_MODE_NAME)


def decides_at_run_time(text: str) -> bool:
    return any(name in text for name in RUN_TIME_NAMES)


# the `lazy ` that makes a statement lazy: at a line's start, after `;`, or
# after a compound statement's `:` (also in strings, where it does no harm);
# blanks and backslash continuations may follow it
LAZY_WORD = re.compile(
    r'(?m)((?:^|(?<=\r))[ \t\f]*|[;:][ \t\f]*)lazy'
    r'((?:[ \t\f]+|[ \t\f]*\\(?:\r\n|\r|\n)[ \t\f]*)+)(?=import\b|from\b)'
)
CONTINUATION = re.compile(r'\\(?:\r\n|\r|\n)')
# what error_source writes: the whole module is this raise
ERROR_FORM = ERROR_CALL
SKIP_DIRS = frozenset(('site-packages', 'dist-packages', '__pycache__'))
SAMPLE_AST = 60  # files compiled through the codec and compared by AST


# -- reading a corpus ------------------------------------------------------


def py_files(root: str) -> list[str]:
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        found += [os.path.join(folder, f) for f in sorted(files) if f.endswith('.py')]
    return found


def read_corpus(root: str) -> tuple[dict[str, bytes], dict[str, str], list[str], list[str]]:
    """(bytes, text) by path, and the paths unreadable (dangling links)
    and undecodable (not UTF-8)"""
    datas, texts, unreadable, undecodable = {}, {}, [], []
    for path in py_files(root):
        try:
            with open(path, 'rb') as f:
                data = f.read()
        except OSError:
            unreadable.append(path)
            continue
        try:
            texts[path] = data.decode('utf-8')
        except UnicodeDecodeError:
            undecodable.append(path)
            continue
        datas[path] = data
    return datas, texts, unreadable, undecodable


def sample(items: list, size: int) -> list:
    step = max(1, len(items) // size)
    return items[::step]


def report(title: str, **counts) -> None:
    print(f'\n[{title}] python {sys.version.split()[0]}: ' + ', '.join(f'{k}={v}' for k, v in counts.items()))


# -- compiling -------------------------------------------------------------


def compile_error(source, path: str = '<corpus>'):
    """None if `source` compiles, else the exception"""
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        try:
            compile(source, path, 'exec', dont_inherit=True)
        except (SyntaxError, ValueError) as exc:
            return exc
    return None


def with_lazy_cookie(data: bytes) -> bytes:
    """the file under the `lazy` cookie, one line down (a BOM goes: with a
    cookie other than utf-8 it is an error of its own)"""
    if data.startswith(BOM):
        data = data[len(BOM) :]
    return LAZY_COOKIE + data


def dump(tree: ast.AST) -> str:
    return ast.dump(tree, include_attributes=False)


# -- test 1: this interpreter's stdlib -------------------------------------


def changed_by_rewrite(texts: dict[str, str]) -> list[str]:
    return [path for path, text in texts.items() if rewrite(text) != text]


def changed_by_codec(datas: dict[str, bytes], texts: dict[str, str]) -> list[str]:
    changed = []
    for path, data in datas.items():
        if (LAZY_COOKIE + data).decode('lazy') != LAZY_COOKIE.decode() + texts[path]:
            changed.append(path)
    return changed


def declaration_error(error: BaseException) -> bool:
    """an error in the file's own encoding declaration (BOM, cookie), which
    the lazy cookie takes the place of: nothing to compare"""
    msg = str(getattr(error, 'msg', error))
    return not getattr(error, 'lineno', None) or msg.startswith(('encoding problem', 'unknown encoding'))


def error_kept(path: str, data: bytes, error: BaseException) -> str | None:
    """None if the file under the lazy cookie fails as it did, else why not"""
    theirs = compile_error(with_lazy_cookie(data), path)
    want = (type(error).__name__, getattr(error, 'lineno', None))
    if want[1] is not None:
        want = (want[0], want[1] + 1)
    got = None if theirs is None else (type(theirs).__name__, getattr(theirs, 'lineno', None))
    return None if got == want else f'{path}: expected {want}, got {got} ({theirs!r})'


@pytest.mark.skipif(NATIVE, reason='3.15+ parses lazy itself: the codec is plain UTF-8')
def test_own_stdlib_round_trip():
    start = time.perf_counter()
    root = sysconfig.get_paths()['stdlib']
    datas, texts, unreadable, undecodable = read_corpus(root)
    by_rewrite = changed_by_rewrite(texts)  # no lazy statement in 3.9-3.14
    by_codec = changed_by_codec(datas, texts)

    failing, cookie_errors, lost = [], [], []
    compiling = []
    for path, data in datas.items():
        error = compile_error(data, path)
        if error is None:
            compiling.append(path)
        elif declaration_error(error):
            cookie_errors.append(path)
        else:
            failing.append(path)
            lost.append(error_kept(path, data, error))

    differing = []
    for path in sample(compiling, SAMPLE_AST):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            plain = ast.parse(datas[path], path)
            lazy = ast.parse(with_lazy_cookie(datas[path]), path)
        if dump(plain) != dump(lazy):
            differing.append(path)

    report(
        'own stdlib',
        root=root,
        lazy_codec=os.path.dirname(lazy_codec.__file__),
        checked=len(texts),
        undecodable=len(undecodable),
        unreadable=len(unreadable),
        non_compiling=len(failing),
        encoding_errors=len(cookie_errors),
        ast_compared=len(sample(compiling, SAMPLE_AST)),
        seconds=round(time.perf_counter() - start, 2),
    )
    for path in failing + cookie_errors:
        print('   does not compile:', os.path.relpath(path, root))
    assert by_rewrite == []
    assert by_codec == []
    assert [why for why in lost if why] == []
    assert differing == []
    assert len(texts) > 500


# -- test 2: 3.15's stdlib, without its lazy files --------------------------


def needs_315():
    if not os.path.isdir(STDLIB_315):
        pytest.skip(f'no 3.15 stdlib at {STDLIB_315}')


def split_by_lazy(texts: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """(files with neither, files with lazy statements or names that make
    their plain imports run-time decisions)"""
    lazy = {p: t for p, t in texts.items() if HAS_LAZY.search(t) or decides_at_run_time(t)}
    plain = {p: t for p, t in texts.items() if p not in lazy}
    return plain, lazy


def test_315_stdlib_round_trip():
    needs_315()
    start = time.perf_counter()
    datas, texts, unreadable, undecodable = read_corpus(STDLIB_315)
    plain, lazy = split_by_lazy(texts)

    changed = changed_by_rewrite(plain)  # 3.15 syntax or not: no lazy statement
    by_codec = [] if NATIVE else changed_by_codec({p: datas[p] for p in plain}, plain)

    report(
        '3.15 stdlib',
        checked=len(plain),
        left_to_lazy_test=len(lazy),
        undecodable=len(undecodable),
        unreadable=len(unreadable),
        seconds=round(time.perf_counter() - start, 2),
    )
    for path in changed:
        lines = (len(split_lines(plain[path])), len(split_lines(rewrite(plain[path]))))
        print(f'   changed: {os.path.relpath(path, STDLIB_315)} (lines {lines[0]} -> {lines[1]})')
    assert changed == []
    assert by_codec == []
    assert len(plain) > 500


# -- test 3: 3.15's lazy code ----------------------------------------------


def make_eager(text: str) -> tuple[str, dict[tuple[int, int], int]]:
    """the text with `lazy` taken out (its continuations kept: lines stay
    where they are), and where each statement it made eager starts there,
    (line, UTF-8 column) as the AST has them, to the line of its `lazy`"""
    starts = {}
    pieces = []
    end = 0
    for match in LAZY_WORD.finditer(text):
        pieces.append(text[end : match.start()] + match.group(1))
        pieces += CONTINUATION.findall(match.group(2))
        end = match.end()
        so_far = ''.join(pieces)
        line_start = max(so_far.rfind('\n'), so_far.rfind('\r')) + 1
        at = (len(split_lines(so_far + 'x')), len(so_far[line_start:].encode('utf-8')))
        starts[at] = len(split_lines(text[: match.end(1)] + 'x'))
    pieces.append(text[end:])
    return ''.join(pieces), starts


def bound_by_import(node: ast.Import | ast.ImportFrom) -> set[str]:
    names = set()
    for alias in node.names:
        if alias.name == '*':
            continue
        names.add(alias.asname or alias.name.split('.')[0])
    return names


def bound_by_target(target: ast.AST) -> set[str]:
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, (ast.Tuple, ast.List)):
        return set().union(*(bound_by_target(t) for t in target.elts))
    if isinstance(target, ast.Starred):
        return bound_by_target(target.value)
    return set()


def nested_bodies(stmt: ast.stmt) -> list[list[ast.stmt]]:
    bodies = [getattr(stmt, field, None) for field in ('body', 'orelse', 'finalbody')]
    bodies += [handler.body for handler in getattr(stmt, 'handlers', ())]
    bodies += [case.body for case in getattr(stmt, 'cases', ())]
    return [body for body in bodies if isinstance(body, list)]


def module_names(body: list[ast.stmt], skip: frozenset = frozenset()) -> set[str]:
    """the names module-level code binds; statements at (line, col) in
    `skip` are left out"""
    names = set()
    for stmt in body:
        if (stmt.lineno, stmt.col_offset) in skip:
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names |= bound_by_import(stmt)
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(stmt.name)
            continue  # their bodies are other scopes
        elif isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                names |= bound_by_target(target)
        elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
            names |= bound_by_target(stmt.target)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            names |= bound_by_target(stmt.target)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                if item.optional_vars is not None:
                    names |= bound_by_target(item.optional_vars)
        for handler in getattr(stmt, 'handlers', ()):
            if handler.name:
                names.add(handler.name)
        for nested in nested_bodies(stmt):
            names |= module_names(nested, skip)
    return names


def module_statements(body: list[ast.stmt]):
    """module-level statements, into compound statements but not scopes"""
    for stmt in body:
        yield stmt
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for nested in nested_bodies(stmt):
                yield from module_statements(nested)


def import_nodes(tree: ast.Module) -> list[ast.stmt]:
    """the module-level imports, in order"""
    nodes = [node for node in module_statements(tree.body) if isinstance(node, (ast.Import, ast.ImportFrom))]
    return sorted(nodes, key=lambda n: (n.lineno, n.col_offset))


def lazy_nodes(tree: ast.Module, starts: dict[tuple[int, int], int]) -> list[ast.stmt]:
    return [node for node in import_nodes(tree) if (node.lineno, node.col_offset) in starts]


def is_entry_call(node) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == ENTRY_NAME
    )


class CallsOfIfForms(ast.NodeTransformer):
    """`if CALL: import ...` (a statement alone on its line: the import, never
    run, is there for tools that read the tree) -> the call's statement;
    `mismatches` lists those whose import is not the call's"""

    def __init__(self):
        self.mismatches = []

    def visit_If(self, node):
        self.generic_visit(node)
        if not (
            is_entry_call(node.test)
            and not node.orelse
            and len(node.body) == 1
            and isinstance(node.body[0], (ast.Import, ast.ImportFrom))
        ):
            return node
        body = node.body[0]
        if actual_call(node.test.func.attr, node.test)[1] != expected_call(body, True)[1]:
            self.mismatches.append(f"line {node.lineno}: `if` body {ast.dump(body)} is not its call's")
        node.test.end_lineno = node.end_lineno  # (the `if` spans the statement's lines)
        return ast.copy_location(ast.Expr(node.test), node)


def runtime_calls(tree: ast.Module) -> dict[int, list[tuple[str, ast.Call]]]:
    """per line: the runtime calls, each with the entry point it calls"""
    calls: dict[int, list] = {}
    for stmt in module_statements(tree.body):
        if (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute)
            and isinstance(stmt.value.func.value, ast.Name)
            and stmt.value.func.value.id == ENTRY_NAME
        ):
            calls.setdefault(stmt.lineno, []).append((stmt.value.func.attr, stmt.value))
    return calls


def expected_call(node: ast.Import | ast.ImportFrom, lazy: bool) -> tuple:
    """a lazy statement calls lazy_*; a plain import that __lazy_modules__
    can make lazy, maybe_lazy_*"""
    prefix = '' if lazy else 'maybe_'
    aliases = [(a.name, a.asname) for a in node.names]
    if isinstance(node, ast.Import):
        return (prefix + 'lazy_import', aliases)
    return (prefix + 'lazy_from', [node.module or '', node.level] + aliases)


def actual_call(func: str, call: ast.Call) -> tuple:
    return (func, [ast.literal_eval(arg) for arg in call.args])


def check_calls(
    eager_tree: ast.Module, rewritten_tree: ast.Module, starts: dict[tuple[int, int], int]
) -> tuple[list[str], list[tuple[int, ast.stmt]]]:
    """(problems, the imports that became calls, each with its first line):
    each lazy statement is the runtime call that does its import, from the
    line of its `lazy` to its last; a plain import may be a maybe_lazy_*
    call (__lazy_modules__)"""
    problems, converted = [], []
    calls = runtime_calls(rewritten_tree)
    for node in import_nodes(eager_tree):
        lazy = (node.lineno, node.col_offset) in starts
        first = starts.get((node.lineno, node.col_offset), node.lineno)
        want = expected_call(node, lazy)
        on_line = calls.get(first) or []
        found = [c for c in on_line if actual_call(*c) == want]
        if not found:
            if lazy:
                problems.append(
                    f'line {first}: no call {want}, calls there: {[actual_call(*c) for c in on_line]}'
                )
            continue
        on_line.remove(found[0])
        converted.append((first, node))
        lines = [kw.value for kw in found[0][1].keywords if kw.arg == 'line']
        if [ast.literal_eval(line) for line in lines] != [first]:
            problems.append(f'line {first}: the call passes line={lines and ast.literal_eval(lines[0])}')
        if found[0][1].end_lineno != node.end_lineno:
            problems.append(
                f'line {first}: call ends on line {found[0][1].end_lineno}, statement on {node.end_lineno}'
            )
    left = {line: [actual_call(*c) for c in cs] for line, cs in calls.items() if cs}
    if left:
        problems.append(f'calls for no import: {left}')
    return problems, converted


def missing_entry_points(tree: ast.Module) -> list[str]:
    """the entry points rewritten code calls that the runtime lacks"""
    from lazy_codec.runtime import api

    wanted = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == ENTRY_NAME
    }
    return sorted(
        name for name in wanted if name not in ENTRY_POINTS or not callable(getattr(api, name, None))
    )


def changed_lines(text: str, rewritten: str) -> set[int]:
    return {i for i, (a, b) in enumerate(zip(split_lines(text), split_lines(rewritten)), 1) if a != b}


def statement_lines(converted: list[tuple[int, ast.stmt]]) -> set[int]:
    return {line for first, node in converted for line in range(first, node.end_lineno + 1)}


def native_results(paths: list[str]) -> dict[str, list | None] | None:
    """what 3.15 says compiling each file: None without a 3.15"""
    if not os.access(PYTHON_315, os.X_OK):
        return None
    script = (
        'import json, sys, warnings\n'
        'warnings.simplefilter("ignore")\n'
        'out = {}\n'
        'for p in json.load(sys.stdin):\n'
        '    try:\n'
        '        compile(open(p, "rb").read(), p, "exec", dont_inherit=True)\n'
        '        out[p] = None\n'
        '    except SyntaxError as e:\n'
        '        out[p] = [e.msg, e.lineno, e.offset, e.end_lineno, e.end_offset]\n'
        'json.dump(out, sys.stdout)\n'
    )
    done = run_process([PYTHON_315, '-I', '-c', script], input=json.dumps(paths), check=True)
    return json.loads(done.stdout)


def raised_error(tree: ast.Module) -> tuple[int, list] | None:
    """where the error form raises, and the SyntaxError it raises: [msg,
    lineno, offset, end_lineno, end_offset]"""
    for stmt in tree.body:
        if isinstance(stmt, ast.Raise) and isinstance(stmt.exc, ast.Call):
            return stmt.lineno, [ast.literal_eval(arg) for arg in stmt.exc.args[:5]]
    return None


def check_rejected(rewritten: str, native: list) -> list[str]:
    """3.15 rejects the file: the rewrite raises its error, or this
    interpreter fails to compile it (an error not about lazy)"""
    if ERROR_FORM not in rewritten:
        error = compile_error(rewritten)
        if error is None:
            return [f'3.15 rejects it ({native}), the rewrite compiles and does not raise']
        if getattr(error, 'lineno', None) != native[1]:
            return [
                f'3.15 rejects it on line {native[1]} ({native[0]}), '
                f'compiling the rewrite fails on line {error.lineno} ({error.msg})'
            ]
        return []
    error = compile_error(rewritten)
    if error is not None:
        return [f'error form does not compile: {error!r}']
    line, raised = raised_error(ast.parse(rewritten))
    problems = [] if raised == native else [f'raises {raised}, 3.15 raises {native}']
    if line != native[1]:
        problems.append(f'raises on line {line}, 3.15 reports line {native[1]}')
    return problems


def check_lazy_file(text: str, native: list | None | str) -> tuple[str, list[str]]:
    """(outcome, problems) for one 3.15 file with lazy statements; `native`
    is 3.15's error, None if it compiles, 'unknown' without a 3.15"""
    rewritten = rewrite(text)
    problems = []
    if len(split_lines(rewritten)) != len(split_lines(text)):
        problems.append(f'{len(split_lines(text))} lines became {len(split_lines(rewritten))}')
    if (
        not NATIVE
        and rewrite(LAZY_COOKIE.decode() + text) != LAZY_COOKIE.decode() + rewrite(text, 2)
        and ERROR_FORM not in rewritten
    ):
        problems.append('rewrite under a cookie line differs')
    if native not in (None, 'unknown'):
        return 'rejected by 3.15', problems + check_rejected(rewritten, native)
    if ERROR_FORM in rewritten:
        return 'error form', problems + (['3.15 compiles it'] if native is None else [])

    eager, starts = make_eager(text)
    eager_error, rewritten_error = compile_error(eager), compile_error(rewritten)
    if (eager_error is None) != (rewritten_error is None):
        return 'mismatch', problems + [f'eager error {eager_error!r}, rewritten error {rewritten_error!r}']
    if eager_error is not None:
        theirs = (type(rewritten_error).__name__, getattr(rewritten_error, 'lineno', None))
        ours = (type(eager_error).__name__, getattr(eager_error, 'lineno', None))
        if theirs != ours:
            problems.append(f'eager fails with {ours}, rewritten with {theirs}')
        return f'neither compiles here ({type(eager_error).__name__} line {ours[1]})', problems

    eager_tree, rewritten_tree = ast.parse(eager), ast.parse(rewritten)
    if_forms = CallsOfIfForms()
    rewritten_tree = if_forms.visit(rewritten_tree)
    problems += if_forms.mismatches
    call_problems, converted = check_calls(eager_tree, rewritten_tree, starts)
    problems += call_problems + missing_entry_points(rewritten_tree)
    skip = frozenset((n.lineno, n.col_offset) for _, n in converted)
    ours = module_names(eager_tree.body, skip)
    theirs = module_names(rewritten_tree.body) - {ENTRY_NAME}
    if ours != theirs:
        problems.append(f'names: only eager {sorted(ours - theirs)}, only rewritten {sorted(theirs - ours)}')
    outside = changed_lines(text, rewritten) - statement_lines(converted)
    if outside:
        problems.append(f'lines changed outside the imports made calls: {sorted(outside)}')
    lazy = len(lazy_nodes(eager_tree, starts))
    return f'ok, {lazy} lazy statements, {len(converted) - lazy} maybe-lazy imports', problems


def test_315_lazy_files():
    needs_315()
    start = time.perf_counter()
    _, texts, _, _ = read_corpus(STDLIB_315)
    _, lazy = split_by_lazy(texts)
    natives = native_results(sorted(lazy))
    failures = {}
    print(
        f'\n[3.15 lazy files] python {sys.version.split()[0]}, oracle: '
        f'{PYTHON_315 if natives is not None else "none"}'
    )
    for path in sorted(lazy):
        native = 'unknown' if natives is None else natives[path]
        outcome, problems = check_lazy_file(lazy[path], native)
        print(
            f'   {os.path.relpath(path, STDLIB_315)}: {outcome}'
            + ''.join(f'\n      PROBLEM {p}' for p in problems)
        )
        if problems:
            failures[path] = problems
    with_statements = [p for p in lazy if HAS_LAZY.search(lazy[p])]
    report(
        '3.15 lazy files',
        checked=len(lazy),
        with_lazy_statements=len(with_statements),
        lazy_modules_only=len(lazy) - len(with_statements),
        failing=len(failures),
        seconds=round(time.perf_counter() - start, 2),
    )
    assert failures == {}
    assert len(with_statements) >= 10


# -- test 4: this interpreter's stdlib, its imports made lazy ---------------

LAZIFY_SAMPLE = 60  # files: the check costs ~40 ms a file
SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
TRIES = tuple(getattr(ast, name) for name in ('Try', 'TryStar') if hasattr(ast, name))


def lazifiable(body: list[ast.stmt], found: list) -> list:
    """the imports that 3.15 lets be lazy: module level, not in a try
    statement, not `*`, not `__future__`"""
    for stmt in body:
        if isinstance(stmt, SCOPES + TRIES):
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            if all(a.name != '*' for a in stmt.names) and getattr(stmt, 'module', None) != '__future__':
                found.append(stmt)
        for nested in nested_bodies(stmt):
            lazifiable(nested, found)
    return found


def lazify(text: str, tree: ast.Module) -> tuple[str, int]:
    """the text with `lazy ` before each import 3.15 lets be lazy"""
    lines = split_lines(text)
    nodes = lazifiable(tree.body, [])
    for node in sorted(nodes, key=lambda n: (n.lineno, n.col_offset), reverse=True):
        line = lines[node.lineno - 1]
        col = len(line.encode('utf-8')[: node.col_offset].decode('utf-8'))
        lines[node.lineno - 1] = f'{line[:col]}lazy {line[col:]}'
    return ''.join(lines), len(nodes)


@pytest.mark.skipif(NATIVE, reason='3.15+ parses lazy itself')
def test_own_stdlib_made_lazy():
    start = time.perf_counter()
    root = sysconfig.get_paths()['stdlib']
    datas, texts, _, _ = read_corpus(root)
    failures, files, statements = {}, 0, 0
    for path in sample(sorted(texts), LAZIFY_SAMPLE):
        text = texts[path]
        if text.startswith('\ufeff') or HAS_LAZY.search(text) or decides_at_run_time(text):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try:
                tree = ast.parse(datas[path], path)
            except (SyntaxError, ValueError):
                continue
        lazy_text, count = lazify(text, tree)
        if not count:
            continue
        files, statements = files + 1, statements + count
        outcome, problems = check_lazy_file(lazy_text, None)  # valid on 3.15
        if problems:  # 'neither compiles here' is fine: the file's own error, kept
            failures[path] = [outcome] + problems
    report(
        'own stdlib made lazy',
        files=files,
        lazy_statements=statements,
        failing=len(failures),
        seconds=round(time.perf_counter() - start, 2),
    )
    assert failures == {}
    assert statements > 100


# -- bugs found: lazy statements 3.15 rejects ---------------------------------
# what 3.15.2 says compiling each source (compile(src, ..., dont_inherit=True))


def error_of(src: str) -> list | None:
    """the SyntaxError that `src` gets through the rewrite: the one its
    rewrite raises, or the one compiling its rewrite raises; None if none"""
    rewritten = rewrite(src)
    if ERROR_FORM in rewritten:
        return raised_error(ast.parse(rewritten))[1]
    error = compile_error(rewritten)
    if error is None:
        return None
    return [
        error.msg,
        error.lineno,
        error.offset,
        getattr(error, 'end_lineno', None),
        getattr(error, 'end_offset', None),
    ]


TOKENIZER_MESSAGES = ("'(' was never closed", "unmatched ')'", "unmatched ']'")


def _recorded_errors():
    """3.15's SyntaxError per malformed lazy statement (None: it compiles),
    recorded by tests/support/record_errors.py"""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'expected_errors', 'lazy_statements.json')
    with open(path, encoding='utf-8') as f:
        return [pytest.param(src, native, id=src) for src, native in json.load(f)]


@pytest.mark.skipif(NATIVE, reason='3.15+ parses lazy itself')
@pytest.mark.parametrize(('src', 'native'), _recorded_errors())
def test_rejected_as_315_does(src, native):
    if native and native[0] in TOKENIZER_MESSAGES and sys.version_info < (3, 10):
        # what only the tokenizer rejects gets the interpreter's own error,
        # worded otherwise on 3.9 ('unexpected EOF while parsing')
        eager = compile_error(src.replace('lazy from', 'from     ').replace('lazy import', 'import     '))
        native = [eager.msg, eager.lineno, eager.offset, None, None]
    got = error_of(src)
    if native is None:
        assert got is None, 'the rewrite rejects what 3.15 accepts'
        return
    assert got is not None, 'the rewrite accepts what 3.15 rejects'
    if got[3] is None:  # 3.9's own SyntaxError has no end position
        got, native = got[:3], native[:3]
    assert got == native
