"""Runs CPython 3.15's test.test_lazy_import on an older CPython with lazy_codec.

tests/support/cpython_suite.py copies this file into a temporary directory ROOT next to

    ROOT/test/__init__.py             makes ROOT/test and the stdlib's test/ one package
    ROOT/test/test_lazy_import/...    CPython's files, each with the cookie line added

and runs it as ``python ROOT/cpython_suite_adapter.py RESULTS.json [TEST...]``. It
changes nothing in the tests; before loading them it puts in place:

* **`-c CODE` as bytes with the cookie.** Every subprocess started as
  ``[sys.executable, ..., "-c", CODE, ...]`` (directly with ``subprocess.run``, or
  through ``test.support.script_helper.assert_python_ok``/``assert_python_failure``/
  ``run_python_until_end``, which all go through ``subprocess.Popen``) runs
  ``[sys.executable, ..., "-c", LAUNCHER, ...]`` instead, where LAUNCHER puts ROOT
  first on ``sys.path`` and runs ``exec(compile(SOURCE, '<string>', 'exec'))``, SOURCE
  being ``# -*- coding: lazy -*-`` and then CODE, as bytes: a codec only sees bytes,
  so the `lazy` syntax in a ``-c`` string would never reach it. The code still runs
  as ``-c`` code does (in ``__main__``, file name ``<string>``, ``sys.argv[0]``
  ``-c``). The cookie takes the place of CODE's first line when that line is blank
  (``textwrap.dedent('''\\n...''')``), so that line numbers stay CODE's; otherwise
  it is one more line before CODE. ``-I`` in such a command becomes ``-E -s``:
  ``-I`` would leave ROOT, where ``test.test_lazy_import`` is found (on 3.15 it is in
  the stdlib), out of ``sys.path``. Other commands run unchanged.
* **Modules a test writes at run time, with the cookie.** Some tests write a
  package into a temporary directory and start a subprocess with that directory as
  its ``cwd``: before such a subprocess starts, every ``.py`` file under the ``cwd``
  (when it is not ROOT) that has a line starting with ``lazy import`` or ``lazy
  from`` and no cookie gets the cookie line, as CPython's own files do (replacing a
  blank first line, as for ``-c`` code, else one more line first).
* **test.support helpers that 3.11 (or 3.9) does not have**, added only when missing:
  ``requires_subprocess`` (a no-op decorator: subprocesses work here),
  ``subTests`` (3.15's, reduced: one subTest per set of arguments) and
  ``run_with_limited_c_stack`` (runs the test in a thread with a C stack of *size*
  bytes, like 3.15's; it does not skip when that fails); and unittest 3.14's
  ``TestCase.assertHasAttr``/``assertNotHasAttr``. ROOT/test/__init__.py adds them
  (``add_missing_helpers``), so they are there in subprocesses too: importing any
  ``test.test_lazy_import.data`` module loads 3.15's test_lazy_import/__init__.py,
  whose decorators need them.

It writes one record per test to RESULTS.json: id, outcome (pass, fail, error, skip),
and the message and traceback text of what went wrong.
"""

import functools
import os
import re
import subprocess
import sys
import threading
import unittest

# Only what test.test_lazy_import imports anyway: test/__init__.py imports this module
# in every subprocess that imports test.*, and some tests check what is in sys.modules.

ROOT = os.path.dirname(os.path.abspath(__file__))
COOKIE = '# -*- coding: lazy -*-\n'


# -- -c CODE as a file with the cookie ---------------------------------------------

_OPTIONS_WITH_VALUE = {'-X', '-W', '-Q'}


def with_cookie(code):
    """CODE after the cookie line, which replaces a blank first line."""
    first, newline, rest = code.partition('\n')
    if newline and not first.strip():
        return COOKIE + rest
    return COOKIE + code


def launcher(code):
    """-c code that runs CODE as -c would, its bytes decoded by the codec."""
    source = with_cookie(code).encode('utf-8')
    return f"__import__('sys').path.insert(0, {ROOT!r}); exec(compile({source!r}, '<string>', 'exec'))"


def adapt_command(args):
    """[python, opts..., "-c", CODE, argv...] -> [python, opts..., "-c", LAUNCHER, argv...]."""
    if not isinstance(args, (list, tuple)) or not args:
        return args
    if os.fspath(args[0]) != sys.executable:
        return args
    options = []
    i = 1
    while i < len(args):
        arg = args[i]
        if arg == '-c' and i + 1 < len(args):
            options = [new for option in options for new in (['-E', '-s'] if option == '-I' else [option])]
            return [args[0]] + options + ['-c', launcher(args[i + 1])] + list(args[i + 2 :])
        if not isinstance(arg, str) or not arg.startswith('-') or arg == '-':
            return args  # a script, -m, or something else: leave it
        if arg == '-m':
            return args
        options.append(arg)
        if arg in _OPTIONS_WITH_VALUE and i + 1 < len(args):
            options.append(args[i + 1])
            i += 1
        i += 1
    return args


_LAZY_LINE = re.compile(r'^[ \t]*lazy[ \t]+(import|from)[ \t]', re.MULTILINE)


def add_cookie_to_written_modules(directory):
    """The cookie line in each .py file under DIRECTORY that holds a lazy statement."""
    for parent, _, names in os.walk(directory):
        for name in names:
            if not name.endswith('.py'):
                continue
            path = os.path.join(parent, name)
            with open(path, encoding='utf-8') as f:
                text = f.read()
            if text.startswith(COOKIE) or not _LAZY_LINE.search(text):
                continue
            first, newline, rest = text.partition('\n')
            with open(path, 'w', encoding='utf-8') as f:
                f.write(COOKIE + rest if newline and not first.strip() else COOKIE + text)


class AdaptedPopen(subprocess.Popen):
    def __init__(self, args, *rest, **kwargs):
        cwd = kwargs.get('cwd')
        if cwd is not None and os.path.abspath(os.fspath(cwd)) != ROOT:
            add_cookie_to_written_modules(os.fspath(cwd))
        super().__init__(adapt_command(args), *rest, **kwargs)


# -- test.support helpers missing before 3.15 --------------------------------------


def requires_subprocess():
    return lambda test: test


def subTests(arg_names, arg_values, *, _do_cleanups=False):
    if isinstance(arg_names, str):
        arg_names = arg_names.replace(',', ' ').split()
    single = len(arg_names) == 1
    arg_values = tuple(arg_values)

    def decorator(func):
        @functools.wraps(func)
        def wrapper(self, *args, **kwargs):
            for values in arg_values:
                params = dict(zip(arg_names, (values,) if single else values))
                with self.subTest(**params):
                    func(self, *args, **kwargs, **params)
                if _do_cleanups:
                    self.doCleanups()

        return wrapper

    return decorator


def run_with_limited_c_stack(depth=150_000, size=8 * 1024 * 1024):
    def decorator(test):
        @functools.wraps(test)
        def wrapper(*args, **kwargs):
            try:
                old_size = threading.stack_size(size)
            except (ValueError, RuntimeError):
                return test(*args, **kwargs)
            errors = []

            def run():
                try:
                    test(*args, **kwargs)
                except BaseException as exc:
                    errors.append(exc)

            try:
                thread = threading.Thread(target=run)
                thread.start()
                thread.join()
            finally:
                threading.stack_size(old_size)
            if errors:
                raise errors[0]

        return wrapper

    return decorator


def assertHasAttr(self, obj, name, msg=None):
    if not hasattr(obj, name):
        self.fail(self._formatMessage(msg, f'{obj!r} has no attribute {name!r}'))


def assertNotHasAttr(self, obj, name, msg=None):
    if hasattr(obj, name):
        self.fail(self._formatMessage(msg, f'{obj!r} has unexpected attribute {name!r}'))


def add_missing_helpers():
    """Called by ROOT/test/__init__.py, in this process and in every subprocess
    that imports test.*, as 3.15's test_lazy_import/__init__.py needs them to load."""
    from test import support

    for helper in (requires_subprocess, subTests, run_with_limited_c_stack):
        if not hasattr(support, helper.__name__):
            setattr(support, helper.__name__, helper)
    for method in (assertHasAttr, assertNotHasAttr):  # unittest 3.14
        if not hasattr(unittest.TestCase, method.__name__):
            setattr(unittest.TestCase, method.__name__, method)


# -- running the tests and recording each one's outcome ----------------------------


class RecordingResult(unittest.TextTestResult):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.records = {}

    def _record(self, test, outcome, err=None, message=''):
        import traceback

        test_id = test.id()
        if err is not None:
            message = ''.join(traceback.format_exception_only(err[0], err[1])).strip()
            text = ''.join(traceback.format_exception(*err))
        else:
            text = ''
        old = self.records.get(test_id)
        if old and old['outcome'] in ('fail', 'error'):
            return  # keep the first thing that went wrong
        self.records[test_id] = {'id': test_id, 'outcome': outcome, 'message': message, 'traceback': text}

    def addSuccess(self, test):
        super().addSuccess(test)
        if test.id() not in self.records:
            self._record(test, 'pass')

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, 'fail', err)

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, 'error', err)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._record(test, 'skip', message=reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._record(test, 'pass')

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._record(test, 'fail', message='unexpected success')

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self._record(test, 'fail' if failed else 'error', err)


def main(argv):
    import json

    results_path = argv[1]
    subprocess.Popen = AdaptedPopen
    import test  # noqa: F401  (ROOT/test: its import adds the helpers; ROOT is sys.path[0])

    names = argv[2:] or ['test.test_lazy_import']
    suite = unittest.defaultTestLoader.loadTestsFromNames(names)
    runner = unittest.TextTestRunner(resultclass=RecordingResult, verbosity=2, stream=sys.stderr)
    result = runner.run(suite)
    with open(results_path, 'w', encoding='utf-8') as f:
        json.dump(sorted(result.records.values(), key=lambda r: r['id']), f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
