"""Run CPython 3.15's own test.test_lazy_import against lazy_codec on an older CPython.

    python tests/support/cpython_suite.py [--python PY] [--json PATH] [--keep] [-v] [TEST...]

At run time, and without keeping any of CPython's code in this repository, it

1. finds CPython 3.15's test package at REFERENCE below (and exits 0 saying so if
   it is not there);
2. copies it into a temporary directory as ``test/test_lazy_import/``, adding the
   cookie line ``# -*- coding: lazy -*-`` as the first line of every ``.py`` file (the
   second after a shebang) and changing nothing else; ``test/__init__.py`` there makes
   that directory and the interpreter's own ``test/`` one package, so that
   ``test.support`` is PY's and ``test.test_lazy_import`` is 3.15's;
3. runs it under PY (default: .venvs/3.11's python, where lazy_codec is installed)
   through tests/support/cpython_suite_adapter.py, whose docstring says what it changes: ``-c
   CODE`` subprocesses run CODE as bytes with the cookie, modules that a test
   writes to its subprocess's directory get the cookie too, and the test.support
   and unittest helpers that PY lacks are supplied;
4. prints the totals and, for every test that does not pass, a one-line reason;
   ``--json PATH`` writes the same as JSON.

The cookie line moves every line of CPython's files down by one; no test depends on
that. As a check of the adapter itself, ``--python .venvs/3.15/bin/python`` (native
lazy imports; the cookie is plain UTF-8 there) passes all 166 tests.

The reasons come from CATEGORIES (test names, from reading each failure against 3.15),
then PATTERNS (regexes on a test's source, for tests not named there).
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
REFERENCE = os.path.expanduser('~/.cache/reference-pythons/root/usr/lib/python3.15/test/test_lazy_import')
DEFAULT_PYTHON = os.path.join(REPO, '.venvs', '3.11', 'bin', 'python')
ADAPTER = os.path.join(HERE, 'cpython_suite_adapter.py')
COOKIE = '# -*- coding: lazy -*-\n'
TIMEOUT = 900

TEST_PACKAGE_INIT = '''\
"""test: ROOT/test (3.15's test_lazy_import) and the interpreter's own test/ as one."""
import os, sysconfig
__path__.append(os.path.join(sysconfig.get_paths()["stdlib"], "test"))
import cpython_suite_adapter    # ROOT is on sys.path: that is how this file was found
cpython_suite_adapter.add_missing_helpers()
'''


def add_cookie(text):
    """The cookie as the first line, or the second after a shebang."""
    if text.startswith('#!'):
        first, newline, rest = text.partition('\n')
        return first + '\n' + COOKIE + rest
    return COOKIE + text


def copy_suite(source, root):
    """Copy SOURCE to ROOT/test/test_lazy_import, the cookie added to each .py file."""
    package = os.path.join(root, 'test')
    os.makedirs(package)
    with open(os.path.join(package, '__init__.py'), 'w', encoding='utf-8') as f:
        f.write(TEST_PACKAGE_INIT)
    target = os.path.join(package, 'test_lazy_import')
    shutil.copytree(source, target, ignore=shutil.ignore_patterns('__pycache__'))
    for directory, _, names in os.walk(target):
        for name in names:
            if name.endswith('.py'):
                path = os.path.join(directory, name)
                with open(path, 'rb') as f:
                    data = f.read()
                text = add_cookie(data.decode('utf-8'))
                with open(path, 'wb') as f:
                    f.write(text.encode('utf-8'))
    shutil.copy(ADAPTER, root)


# -- why a test does not pass --------------------------------------------------------
#
# CATEGORIES: (reason, the tests it was found to explain), from reading each failure
# against 3.15 (python tests/support/cpython_suite.py -v prints every message). A test not
# named here is matched by PATTERNS against its own source; failing that, it is
# reported as "not categorized" with its message, to be looked at.

DOCUMENTED = 'README limit: '
REAL = 'a real difference: '

CATEGORIES = [
    (
        'uses exec(str)/compile(str): a codec cannot see str source',
        {
            'test_lazy_import_exec_at_module_level',
            'test_lazy_import_exec_in_class',
            'test_lazy_import_exec_in_function',
            'test_deeply_dotted_name',
            'test_cached_lazy_attribute_tracks_its_target',
            'test_add_lazy_to_exec_builtins_after_specialization',
            'test_add_lazy_to_exec_globals_after_specialization',
            'test_cached_import_releases_builtins',
            'test_namespace_import_hooks',
            'test_declare',
            'test_concurrent_lazy_modules_dict_updates',
        },
    ),
    ("checks 3.15's bytecode (dis of compile('lazy import foo'))", {'test_lazy_import_dis'}),
    (
        'needs a 3.15-only C API (_testcapi.PyImport_*LazyImports*, _testcapi.lazy_import_without_frame)',
        {
            'test_set_matches_sys',
            'test_filter_matches_sys',
            'test_set_bad_filter',
            'test_dunder_lazy_import_without_frame',
        },
    ),
    ('needs a 3.15-only API (_imp._set_lazy_attributes)', {'test_set_lazy_attributes'}),
    (
        DOCUMENTED + 'a lazy object first used at interpreter exit, after the modules '
        "were torn down (a contextvar's __del__), is not resolved: the runtime is "
        'Python code, gone by then',
        {'test_resolve'},
    ),
    (
        REAL + "'lazy import a.b.c' with a.b a module (not a package) that has an "
        'attribute c: a.b.c is the attribute, 3.15 raises ModuleNotFoundError '
        "('a.b' is not a package)",
        {'test_invalid_descendant_retries'},
    ),
]

# For tests not named above (a later copy of CPython's suite): the test's own source.
PATTERNS = [
    ('uses exec(str)/compile(str): a codec cannot see str source', r'\b(exec|compile)\('),
    ('needs a 3.15-only C API (_testcapi)', r'_testcapi\.'),
]


def test_sources(path):
    """{test name: its source text} for each ``def test_...`` in PATH (read as text:
    3.11's ast cannot parse 3.15's syntax, should a file use it)."""
    with open(path, encoding='utf-8') as f:
        lines = f.read().splitlines()
    sources = {}
    for i, line in enumerate(lines):
        m = re.match(r'(\s*)def (test_\w+)\(', line)
        if not m:
            continue
        indent = len(m.group(1))
        end = i + 1
        while end < len(lines):
            other = lines[end]
            if other.strip() and len(other) - len(other.lstrip()) <= indent:
                break
            end += 1
        sources[m.group(2)] = '\n'.join(lines[i:end])
    return sources


def categorize(record, sources):
    name = record['id'].rsplit('.', 1)[-1]
    for category, names in CATEGORIES:
        if name in names:
            return category
    for category, pattern in PATTERNS:
        if re.search(pattern, sources.get(name, '')):
            return category + ' (by pattern)'
    return 'not categorized: ' + last_line(record['message'])[:150]


def last_line(message):
    lines = [line for line in message.splitlines() if line.strip() and line.strip() != '---']
    return lines[-1].strip() if lines else ''


# -- running ---------------------------------------------------------------------------


def run_suite(python, source, tests=(), keep=False):
    root = tempfile.mkdtemp(prefix='cpython_lazy_suite_')
    try:
        copy_suite(source, root)
        results = os.path.join(root, 'results.json')
        env = dict(os.environ)
        env.pop('PYTHONPATH', None)
        env.pop('PYTHON_LAZY_IMPORTS', None)
        proc = subprocess.run(
            [python, os.path.join(root, 'cpython_suite_adapter.py'), results]
            + ['test.test_lazy_import.' + test for test in tests],
            cwd=root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            timeout=TIMEOUT,
        )
        log = proc.stdout.decode('utf-8', 'replace')
        if not os.path.exists(results):
            raise RuntimeError('the suite wrote no results; its output:\n' + log)
        with open(results, encoding='utf-8') as f:
            return json.load(f), log, root
    finally:
        if not keep:
            shutil.rmtree(root, ignore_errors=True)


def summarize(python, records, sources):
    counts = {'pass': 0, 'fail': 0, 'error': 0, 'skip': 0}
    for record in records:
        counts[record['outcome']] += 1
        if record['outcome'] != 'pass':
            record['category'] = categorize(record, sources)
    by_category = {}
    for record in records:
        if 'category' in record:
            by_category.setdefault(record['category'], []).append(record)
    return {
        'python': python,
        'total': len(records),
        'passed': counts['pass'],
        'failed': counts['fail'],
        'errors': counts['error'],
        'skipped': counts['skip'],
        'categories': {c: len(rs) for c, rs in sorted(by_category.items(), key=lambda i: -len(i[1]))},
        'tests': [{k: r.get(k, '') for k in ('id', 'outcome', 'category', 'message')} for r in records],
    }


def print_summary(summary, verbose):
    print(
        f'{summary["python"]}: {summary["total"]} tests, {summary["passed"]} passed, '
        f'{summary["failed"]} failed, {summary["errors"]} errors, {summary["skipped"]} skipped'
    )
    for category, count in summary['categories'].items():
        print(f'  {count:3d}  {category}')
    print()
    for test in summary['tests']:
        if test['outcome'] != 'pass':
            name = test['id'].replace('test.test_lazy_import.', '')
            print(f'{test["outcome"]:<5} {name}: {test["category"]}')
            if verbose:
                print('        ' + last_line(test['message'])[:200])


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        '--python',
        default=DEFAULT_PYTHON,
        help='interpreter with lazy_codec installed (default: %(default)s)',
    )
    parser.add_argument('--json', help='write the results as JSON to this file')
    parser.add_argument('--keep', action='store_true', help='keep the temporary directory and print its path')
    parser.add_argument(
        'tests', nargs='*', metavar='TEST', help='only these, e.g. LazyImportTests.test_basic_unused'
    )
    parser.add_argument(
        '-v', '--verbose', action='store_true', help="print each failing test's message and the suite's log"
    )
    args = parser.parse_args(argv)

    if not os.path.isdir(REFERENCE):
        print(f"CPython 3.15's test_lazy_import is not at {REFERENCE}: nothing to run")
        return 0
    python = args.python
    if os.sep not in python:
        python = shutil.which(python) or python
    python = os.path.abspath(python)  # the suite runs in its temp dir
    records, log, root = run_suite(python, REFERENCE, args.tests, args.keep)
    if args.verbose:
        print(log)
    if args.keep:
        print('kept', root)
    summary = summarize(python, records, test_sources(os.path.join(REFERENCE, '__init__.py')))
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as f:
            json.dump(summary, f, indent=1)
    print_summary(summary, args.verbose)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
