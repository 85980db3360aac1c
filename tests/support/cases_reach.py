"""Differential cases for the ways real code reaches a module's names (issue
22; case_table.py has the format): getattr with computed arguments or from C,
entry points and resolvers, pickle, unittest.mock, typing and dataclasses,
and a sweep of the standard library's APIs that read attributes by name.
On 3.15 a load resolves a lazy object however it is reached, and only
dict-level access (a subscript of the dict, `in`, `dict.get`) sees it
unresolved.  Each case says what it prints for each name: the type of what
came back, and which watched modules are imported by then."""

from case_table import CaseTable

CASES = CaseTable()
case = CASES.add

# a module whose names are all lazy: `lib.NAME` must give the real object
LIB = """{COOKIE}
lazy import heavy
lazy import json
lazy from json import dumps
lazy from fractions import Fraction
lazy from heavy import f as on_click, f as on_key
lazy from other import Y
"""

# a tool whose entry point is a lazy re-export, and a package that re-exports
# a class whose __module__ is the package (numpy, pandas and many more do)
TOOL = {
    'tool/__init__.py': '',
    'tool/cli.py': '{COOKIE}\nlazy from tool._main import main\nlazy import tool._main as impl\n',
    'tool/_main.py': "print('import tool._main')\ndef main():\n    return 'main ran'\n",
    'shapes/__init__.py': '{COOKIE}\nlazy from shapes._impl import Point\n',
    'shapes/_impl.py': (
        "print('import shapes._impl')\n"
        'class Point:\n    def __init__(self, x):\n        self.x = x\n'
        '    def __eq__(self, other):\n        return type(other) is Point and other.x == self.x\n'
        "Point.__module__ = 'shapes'\n"
    ),
}


def _with_lib(files=None):
    return {'lib.py': LIB, **TOOL, **(files or {})}


# -- 1. getattr whose arguments are not simple loads ------------------------------
case(
    'getattr_computed_arguments',
    """\
import importlib, probe
import lib
kind, names, table = 'click', ['dumps', 'Y'], {'n': 'json'}
def t(v):
    return type(v).__name__
print(t(getattr(importlib.import_module('lib'), 'json')), probe.loaded())
print(t(getattr(lib, 'on_' + kind)), t(getattr(lib, f"on_{'key'}")))
print(t(getattr(lib, names[0])), t(getattr(lib, table['n'])), getattr(lib, names[1]))
print(t(getattr(lib, 'Fraction' if kind else 'x')), t(getattr(lib, 'nothing', None)))
print(hasattr(lib, str('heavy')), probe.loaded())
""",
    files=_with_lib(),
)

# -- 2. getattr called from C ----------------------------------------------------
case(
    'getattr_from_c_callers',
    """\
import functools, operator, pickle, sys, probe
import lib
def t(v):
    return type(v).__name__
print(t(functools.reduce(getattr, ['Fraction'], sys.modules['lib'])))
print([t(v) for v in map(getattr, [lib, lib], ['dumps', 'on_click'])])
print(t(functools.partial(getattr, lib)('heavy')), probe.loaded())
print(t(operator.attrgetter('json.decoder')(lib)))
print(pickle.loads(b'\\x80\\x04\\x95\\x0f\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x8c\\x03lib\\x94\\x8c\\x05dumps\\x94\\x93\\x94.')([1]))
print(sorted(k for k, v in lib.__dict__.items() if type(v).__name__ == 'lazy_import'))
""",
    files=_with_lib(),
)

# -- 3. entry points and resolvers -----------------------------------------------
case(
    'entry_points_and_resolvers',
    """\
import pkgutil, probe
import importlib.metadata as md
print(pkgutil.resolve_name('tool.cli:main')())
print(md.EntryPoint(name='x', group='g', value='tool.cli:impl').load().main())
import tool.cli
print(tool.cli.main())
""",
    files=_with_lib(),
)

# -- 4. pickle by reference through a lazy re-export -----------------------------
case(
    'pickle_through_lazy_reexport',
    """\
import pickle, copy
from shapes._impl import Point
import shapes
data = pickle.dumps(Point(3))
p = pickle.loads(data)
print(type(p).__module__, p.x, p == copy.deepcopy(p), copy.copy(p).x)
print(type(vars(shapes)['Point']).__name__)
""",
    files=_with_lib(),
)

case(
    'pickle_through_lazy_reexport_unused',
    """\
import pickle, sys
import shapes
lazy from shapes._impl import Point as P
print('shapes._impl' in sys.modules)
data = pickle.dumps(P(4))
print(type(vars(shapes)['Point']).__name__, pickle.loads(data).x)
""",
    files=_with_lib(),
)

# -- 5. unittest.mock ---------------------------------------------------------------
case(
    'mock_patch_lazy_name',
    """\
from unittest import mock
import lib, probe
with mock.patch('lib.dumps', lambda o: 'patched'):
    print(lib.dumps(1), probe.loaded())
print(lib.dumps([1]))
with mock.patch.object(lib, 'Fraction', lambda o: 'patched'):
    print(lib.Fraction(1))
print(lib.Fraction(1))
with mock.patch('lib.on_click') as m:
    lib.on_click()
    print(m.called)
print(lib.on_click(), probe.loaded())
with mock.patch.multiple('lib', Y=5, json=None):
    print(lib.Y, lib.json)
print(lib.Y, type(lib.json).__name__)
""",
    files=_with_lib(),
)

case(
    'mock_patch_used_during_patch',
    """\
from unittest import mock
import lib
with mock.patch('lib.dumps', lambda o: 'patched'):
    print(lib.dumps(1), lib.dumps(2))
print(type(vars(lib)['dumps']).__name__)
print(lib.dumps([1]), type(vars(lib)['dumps']).__name__)
""",
    files=_with_lib(),
)

case(
    'mock_autospec_and_dict',
    """\
from unittest import mock
import lib, probe
with mock.patch('lib.on_click', autospec=True) as m:
    lib.on_click()
    print(type(m).__name__, m.call_count, probe.loaded())
print(lib.on_click())
with mock.patch.dict(vars(lib), {'Y': 7}):
    print(lib.Y)
print(lib.Y, type(vars(lib)['Y']).__name__)
with mock.patch('lib.Fraction', spec=True) as m:
    print(type(m).__name__, 'fractions' in __import__('sys').modules)
""",
    files=_with_lib(),
)

case(
    'alias_of_peeked_lazy_object',
    """\
import lib, probe
alias = vars(lib)['json']
print(type(globals()['alias']).__name__)
print(alias.dumps([1]), type(globals()['alias']).__name__)
def f():
    global g
    g = lib.__dict__['Fraction']
f()
print(g(1, 2), type(globals()['g']).__name__)
""",
    files=_with_lib(),
)

# -- 7. typing and dataclasses ----------------------------------------------------------
case(
    'type_hints_of_lazy_names',
    """\
import typing, dataclasses, sys
lazy from fractions import Fraction
lazy import heavy
@dataclasses.dataclass
class A:
    amount: "Fraction"
    h: "heavy.Base" = None
def f(x: "Fraction") -> "heavy.Base":
    pass
print(typing.get_type_hints(A))
print(typing.get_type_hints(f))
print([fl.name for fl in dataclasses.fields(A)])
""",
)

case(
    'dataclass_classvar_through_lazy_typing',
    """\
import dataclasses, sys
lazy import typing
lazy from typing import ClassVar
lazy from nosuch import Thing
@dataclasses.dataclass
class A:
    a: "typing.ClassVar[int]" = 1
    b: "ClassVar[int]" = 2
    c: "Thing" = None
    d: int = 0
print([f.name for f in dataclasses.fields(A)], 'typing' in sys.modules)
""",
    min_version=(3, 10),
    before_min='3.9: dataclasses looks for typing.ClassVar only once typing '
    'is imported (documented in the README)',
)

# -- the sweep: stdlib APIs that reach attributes by name ------------------------
case(
    'sweep_inspect_pydoc',
    """\
import inspect, probe
import lib
print(sorted(n for n, v in inspect.getmembers(lib) if not n.startswith('__')))
print(probe.loaded())
print(inspect.getmodule(lib.on_click).__name__, str(inspect.signature(lib.dumps))[:12])
import pydoc
print(type(pydoc.locate('lib.Fraction')).__name__, type(pydoc.locate('lib.json.decoder')).__name__)
""",
    files=_with_lib(),
)

case(
    'sweep_singledispatch_enum_copy',
    """\
import functools, enum, copy, copyreg, probe
import lib
@functools.singledispatch
def show(x):
    return 'default'
@show.register
def _(x: int):
    return 'int'
print(show(lib.Y), show(lib.Fraction(1, 3)))
class Color(enum.Enum):
    RED = 1
print(Color(lib.Y - 1), copy.deepcopy(lib.Fraction)(1), copyreg.__name__)
""",
    files=_with_lib(),
)

case(
    'sweep_logging_ext',
    """\
import logging.config, sys, probe
import lib
logging.config.dictConfig({
    'version': 1,
    'handlers': {'h': {'class': 'logging.StreamHandler', 'stream': 'ext://lib.sink'}},
    'root': {'handlers': ['h'], 'level': 'INFO'},
})
logging.info('hello')
print(probe.loaded())
""",
    files=_with_lib({'lib.py': LIB + 'lazy from io import StringIO\nimport sys\nsink = sys.stdout\n'}),
)

case(
    'sweep_doctest',
    '''\
import doctest, lib
def fn():
    """
    >>> import lib
    >>> lib.dumps([1])
    '[1]'
    """
print(doctest.run_docstring_examples(fn, {}, name='fn'))
''',
    files=_with_lib(),
)

case(
    'sweep_concurrent_futures_pickle',
    """\
import concurrent.futures, pickle
import lib
if __name__ == '__main__':
    blob = pickle.dumps(lib.on_click)
    print(pickle.loads(blob)())
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        print(list(pool.map(getattr, [lib, lib], ['Y', 'dumps']))[0])
""",
    files=_with_lib(),
)


# -- 8. which code mode "all" reaches --------------------------------------------
_MODE_ALL = ['-X', 'lazy_imports=all']
# the main script is reached on request only (its cost: see the README)
_MAIN_SCRIPT = {'LAZY_CODEC_MAIN_SCRIPT': '1'}

# the import system as 3.15 leaves it in mode "all": a module's loader is
# importlib's, sys.meta_path holds no finder of the mode's once runpy is
# imported (before, on 3.9 and 3.10, where runpy is not frozen, one that
# waits for it); a name used in a comprehension of a module body (a loop
# that may iterate the module's dict) is looked up on every turn
case(
    'mode_all_import_system_as_is',
    """\
import sys, probe
def ours():
    return [f for f in sys.meta_path if 'lazy' in (getattr(f, '__module__', '') or '')]
import plainall
print(type(plainall.__loader__).__name__, type(plainall.__spec__.loader).__name__)
print(plainall.firsts, probe.kind(vars(plainall), 'colorsys'), probe.kind(vars(plainall), 'keyword'))
import runpy
ran = runpy.run_path('script.py')
print('run_path', probe.kind(ran, 'colorsys'), ours())
""",
    files={
        'plainall.py': (
            'import colorsys\nimport keyword\nfirsts = [colorsys.__name__ + k for k in keyword.kwlist[:3]]\n'
        ),
        'script.py': 'import colorsys\n',
    },
    argv=[*_MODE_ALL, 'main.py'],
)

case(
    'mode_all_main_script_and_loaders',
    """\
import sys, probe
import heavy
from other import Y
import pickle
print('main', probe.loaded(), probe.kind(globals(), 'heavy'), probe.kind(globals(), 'Y'))
print(__name__, __file__.endswith('main.py'), __spec__, type(__loader__).__name__)
import importlib.util
spec = importlib.util.spec_from_file_location('plug', 'plug.py')
plug = importlib.util.module_from_spec(spec)
spec.loader.exec_module(plug)
print('plug', probe.kind(vars(plug), 'fractions'), 'fractions' in sys.modules)
import runpy
ran = runpy.run_path('script.py')
print('run_path', probe.kind(ran, 'colorsys'), 'colorsys' in sys.modules)
print(type(pickle.loads(b'\\x80\\x04\\x95\\x0e\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x8c\\x05reexp\\x94\\x8c\\x01f\\x94\\x93\\x94.')).__name__)
print(heavy.X, Y, probe.loaded())
sys.exit(3)
""",
    files={
        'plug.py': 'import fractions\n',
        'script.py': "import colorsys\nprint('script', type(globals()['colorsys']).__name__)\n",
        'reexp.py': 'from heavy import f\n',
    },
    argv=[*_MODE_ALL, 'main.py'],
    env=_MAIN_SCRIPT,
)

case(
    'mode_all_main_script_error',
    """\
import json
def fail():
    raise ValueError('boom')
print('start', type(globals()['json']).__name__)
fail()
""",
    argv=[*_MODE_ALL, 'main.py'],
    mode='tail',
    env=_MAIN_SCRIPT,
)

# (recorded by a 3.15 that has pytest: python tests/support/harness.py VENV3.15/bin/python mode_all_pytest_test_modules)
case(
    'mode_all_pytest_test_modules',
    files={
        'run_tests.py': (
            'import sys\n'
            "OWN = ('_pytest', 'pytest', 'pluggy', 'iniconfig', 'packaging', 'lazy_codec', 'py', 'exceptiongroup',\n"
            "       'tomli', 'colorama', 'pygments')\n"
            '# pytest itself runs eager (pytest 9.2 fails on 3.15 in mode all: an import cycle)\n'
            'sys.set_lazy_imports_filter(lambda importer, name, fromlist: not importer.startswith(OWN) and\n'
            '                            not name.startswith(OWN))\n'
            'import pytest\n'
            "class Outcomes:  # (pytest's own report has timings)\n"
            '    def pytest_runtest_logreport(self, report):\n'
            "        if report.when == 'call':\n"
            '            print(report.nodeid, report.outcome)\n'
            "code = pytest.main(['-s', '-p', 'no:cacheprovider', '-p', 'no:terminal', 'test_x.py'],\n"
            '                   plugins=[Outcomes()])\n'
            "print('exit', int(code))\n"
        ),
        'conftest.py': "import sys\nimport colorsys\nprint('conftest', 'colorsys' in sys.modules)\n",
        'test_x.py': (
            'import sys\nimport json\nimport fractions\nimport probe\n'
            "print('test_x', 'fractions' in sys.modules, probe.kind(globals(), 'json'))\n"
            "def test_lazy():\n    assert json.dumps(1) == '1'\n"
            'def test_fail():\n    x = 1\n    assert x == 2\n'
        ),
    },
    argv=[*_MODE_ALL, 'run_tests.py'],
)


# -- what 3.15's standard library leaves unresolved on purpose ----------------------
# (3.9-3.14's traceback and rlcompleter resolve: documented in the README)
case(
    'sweep_completion_and_suggestions',
    """\
import rlcompleter, traceback, sys, probe
import lib
c = rlcompleter.Completer({'lib': lib})
print(sorted(x for x in (c.complete('lib.o', i) for i in range(5)) if x))
print(probe.loaded())
try:
    lib.dump
except AttributeError as exc:
    print(traceback.format_exception_only(type(exc), exc)[-1].strip())
print(probe.loaded())
""",
    files=_with_lib(),
)

case(
    'sweep_multiprocessing_spawn',
    """\
import multiprocessing, sys
import lib
def work(x):
    return lib.dumps([x])  # (nothing printed in the workers: their output's order is theirs)
if __name__ == '__main__':
    ctx = multiprocessing.get_context('spawn')
    with ctx.Pool(1) as pool:
        print(pool.map(work, [1]))
        print(pool.apply(lib.Fraction, (1, 3)))
""",
    files=_with_lib(),
)


# the same families in mode "all": a module whose plain imports are lazy
case(
    'reach_in_mode_all',
    """\
import functools, pickle, pkgutil, sys, probe
from unittest import mock
import plainlib
print(probe.kind(vars(plainlib), 'heavy'), probe.loaded())
print(type(functools.reduce(getattr, ['Fraction'], plainlib)).__name__)
print(type(getattr(plainlib, 'on_' + 'click')).__name__, pkgutil.resolve_name('plainlib:Y'))
print(pickle.loads(pickle.dumps(plainlib.on_key))())
with mock.patch('plainlib.dumps', lambda o: 'patched'):
    print(plainlib.dumps(1))
print(plainlib.dumps([1]), probe.loaded())
""",
    files={
        'plainlib.py': (
            'import heavy\nimport json\nfrom json import dumps\nfrom fractions import Fraction\n'
            'from heavy import f as on_click, f as on_key\nfrom other import Y\n'
        )
    },
    argv=[*_MODE_ALL, 'main.py'],
)

# the module's only lazy name, used inside the patch: its dict would be
# rebuilt plain once no lazy name is left, which must not lose the escaped key
case(
    'mock_patch_only_lazy_name_used_during_patch',
    """\
import time
from unittest import mock
import onelazy
with mock.patch('onelazy.dumps', lambda o: 'patched'):
    print(onelazy.dumps(1))
    time.sleep(0.1)  # (the runtime's rebuilder runs within milliseconds)
time.sleep(0.1)
print(type(vars(onelazy)['dumps']).__name__, onelazy.dumps([1]))
""",
    files={'onelazy.py': '{COOKIE}\nlazy from json import dumps\n'},
)

# what stays out by default: the plain imports of a main script without the
# cookie are eager (LAZY_CODEC_MAIN_SCRIPT=1 reaches them, at a cost the
# README gives; a main script with the cookie is decoded, and rewritten then)
case(
    'mode_all_main_script_by_default',
    files={
        'main.py': "import heavy\nprint(type(globals()['heavy']).__name__)\n",
    },
    argv=[*_MODE_ALL, 'main.py'],
)

# an error a module raises while mode "all" imports it: the traceback shows
# the importer and the module, without importlib's frames (pip's truststore
# in mode all: `del _api` of a submodule a lazy import never bound)
case(
    'mode_all_error_in_imported_module',
    """\
import os, traceback
try:
    import failing
except NameError as exc:
    print(exc, [os.path.basename(f.filename) for f in traceback.extract_tb(exc.__traceback__)])
""",
    files={'failing.py': 'from json import decoder\ndel decoder, undefined_name\n'},
    argv=[*_MODE_ALL, 'main.py'],
)

# -- getattr whose result an unpacking or a container op consumes -------------------
# (the call site is a C iterator's: map over getattr.  3.15 resolves, as
# getattr on a module always does; a lookup of the dict itself, `in` or
# dict.get, stays a peek; `x in map(getattr, ...)`: getattr_results_tested_with_in)
case(
    'getattr_results_unpacked',
    """\
import functools, probe
import lib1, lib2, lib3, lib4, lib5
names = ['json', 'dumps']
def t(values):
    return [type(v).__name__ for v in values]
a, b = map(getattr, [lib1] * 2, names)
print(t((a, b)), probe.kind(vars(lib1), 'json'))
first, *rest = map(getattr, [lib2] * 2, names)
print(t([first, *rest]), probe.kind(vars(lib2), 'dumps'))
print(t([*map(functools.partial(getattr, lib3), names)]), probe.kind(vars(lib3), 'json'))
print(sorted(t({*map(functools.partial(getattr, lib4), names)})), probe.kind(vars(lib4), 'json'))
print('json' in vars(lib5), 'dumps' in vars(lib1), probe.kind(vars(lib5), 'dumps'))
""",
    files={f'lib{i}.py': '{COOKIE}\nlazy import json\nlazy from json import dumps\n' for i in range(1, 6)},
)

# -- getattr whose results `in` tests -------------------------------------------------
# (`x in it` looks up no key of a module itself: a lookup under it is the
# iterator's, map or filter calling getattr, which 3.15 resolves; `in` over
# the dict, its keys or a copy of them stays a peek)
case(
    'getattr_results_tested_with_in',
    """\
import functools, itertools, probe
import lib1, lib2, lib3, lib4, lib5
class Seen:  # what `in` compares: the values the iterator hands out
    types = []
    def __eq__(self, other):
        self.types.append(type(other).__name__)
        return False
    __hash__ = None
def seen(found):
    found, Seen.types = (found, Seen.types), []
    return found
names = ['json', 'dumps']
print(seen(Seen() in map(getattr, [lib1] * 2, names)), probe.kind(vars(lib1), 'json'))
it = map(functools.partial(getattr, lib2), names)
print(seen(Seen() in it), probe.kind(vars(lib2), 'dumps'))
def tested(it):
    return Seen() in it
print(seen(tested(itertools.starmap(getattr, [(lib3, 'json')]))), probe.kind(vars(lib3), 'json'))
print(seen(Seen() in filter(None, map(getattr, [lib4], ['json']))), probe.kind(vars(lib4), 'json'))
print(True in map(hasattr, [lib4], ['dumps']), probe.kind(vars(lib4), 'dumps'))
ns = vars(lib5)
print('json' in ns, 'json' in dir(lib5), 'dumps' in list(vars(lib5)), 'x' in set(ns), 'json' in ns.keys())
def peeks(names=names):
    return [n in vars(lib5) for n in names], 'json' in dir(lib5), 'dumps' in globals()
print(peeks(), probe.kind(vars(lib5), 'json'), probe.kind(vars(lib5), 'dumps'), probe.loaded())
""",
    files={f'lib{i}.py': '{COOKIE}\nlazy import json\nlazy from json import dumps\n' for i in range(1, 6)},
)

# -- issue 30, family 7: C readers of a module's dict ------------------------------
# (3.15 leaves these lazy: each is dict-level access from C.  Here the
# innermost Python frame is the C function's caller, a call that cannot be
# told from getattr's, so they are loads: imported early, a documented
# difference that hands real code no lazy object)
case(
    'c_dict_readers_resolve_early',
    """\
import operator, string, probe
import lib
ns = vars(lib)
def seen(value, name):
    print(type(value).__name__, probe.kind(ns, name))
seen(operator.itemgetter('dumps')(ns), 'dumps')
seen(list(map(ns.get, ['fractions']))[0], 'fractions')
print('{colorsys}'.format_map(ns)[:8], probe.kind(ns, 'colorsys'))
print('%(heavy)s' % ns, probe.kind(ns, 'heavy'))
print(string.Template('$other').substitute(ns)[:8], probe.kind(ns, 'other'))
seen(object.__getattribute__(lib, 'decoder'), 'decoder')
""",
    files={
        'lib.py': '{COOKIE}\nlazy from json import dumps\nlazy import fractions\nlazy import colorsys\n'
        'lazy import heavy\nlazy import other\nlazy from json import decoder\n'
    },
)

# -- issue 30, family 8: string annotations read by typing ----------------------------
# (3.15's ForwardRef.evaluate resolves the lazy object it reads and leaves
# the binding lazy; here the name's load in the code typing evaluates
# replaces the binding with the value: the same import, a different binding)
case(
    'type_hints_leave_binding_lazy',
    """\
import typing, probe
import lib
print(typing.get_type_hints(lib.M))
print(probe.kind(vars(lib), 'Decimal'), probe.kind(vars(lib), 'fractions'))
""",
    files={
        'lib.py': '{COOKIE}\nfrom __future__ import annotations\nlazy from decimal import Decimal\n'
        'lazy import fractions\nclass M:\n    x: Decimal\n    y: fractions.Fraction\n'
    },
)

# -- issue 30, family 3: the keys of a module's lazy names ----------------------------
# (3.15's keys are plain str.  Here a name's key is a str subclass until its
# first use (that key is how a load is caught): type checks, sys.intern and
# marshal see the subclass; a used name's key is a plain str again)
case(
    'lazy_keys_are_str_subclass',
    """\
import marshal, sys
import lib
def keys():
    return [k for k in vars(lib) if k in ('json', 'dumps')]
def check():
    print([type(k) is str for k in keys()])
    for k in keys():
        try:
            print(k, sys.intern(k) == k)
        except TypeError:
            print(k, 'TypeError')
    try:
        print(len(marshal.dumps(keys())) > 0)
    except ValueError:
        print('ValueError')
check()
lib.json.dumps(1)
check()
""",
    files={'lib.py': '{COOKIE}\nlazy import json\nlazy from json import dumps\n'},
)
