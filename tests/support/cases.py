"""The differential cases: each is run by native 3.15 (recorded once into
tests/expected/, `python tests/support/harness.py PYTHON3.15`) and by the backport on
every version, and the outputs must be equal.  Helper modules (heavy, other,
pkg, broken, probe, ...) are in harness.COMMON; the format is case_table's.
More cases live beside this file, one topic each: cases_faults.py
(reliability: failures, threads, reload, ...) and cases_realcode.py (reduced
from real packages)."""

from case_table import CaseTable

CASES = CaseTable()
case = CASES.add


# -- nothing happens at the statement; forms of the statement -------------------
case(
    'statement_imports_nothing',
    """\
import probe
lazy import heavy
lazy import pkg.sub
lazy import pkg.deep.leaf as leaf
lazy from other import Y
lazy from pkg import sub2
print(probe.loaded(), probe.lazy_mods())
print(probe.kind(globals(), 'heavy'), repr(globals()['heavy']), repr(globals()['pkg']))
print(repr(globals()['leaf']), repr(globals()['Y']), repr(globals()['sub2']))
""",
)

case(
    'forms',
    """\
import probe
lazy import heavy, other as o
lazy import pkg.sub as s, pkg.sub2
lazy from pkg.deep import (
    leaf,   # a comment
    leaf as leaf2,
)
lazy from heavy import f as hf, X ; lazy from other import Y
lazy \\
  import json
if True: lazy import colorsys
print(probe.loaded())
print(o.Y, s.Z, pkg.sub2.W, leaf.L, leaf2 is leaf, hf(), X, Y, heavy.X)
print(probe.loaded())
print(json.dumps([1]), colorsys.__name__)
""",
)

case(
    'forms_trailing_paren',
    """\
lazy from heavy import (X,)
lazy from heavy import (
    f,
    Err
)
print(X, f(), Err.__name__)
""",
)

case(
    'blocks',
    """\
import probe, sys
if len(sys.argv) > 5:
    lazy import heavy
elif False:
    pass
else:
    lazy import other
for i in range(2):
    lazy import pkg.sub
while True:
    lazy from pkg import sub2
    break
with open(__file__) as fh:
    lazy import colorsys
print(probe.loaded(), sorted(n for n in ('heavy', 'other', 'pkg', 'sub2', 'colorsys') if n in globals()))
print(other.Y, pkg.sub.Z, sub2.W)
print(probe.loaded())
""",
)

case(
    'blocks_match',
    """\
import probe, sys
match sys.argv:
    case [_, *rest]:
        lazy import other
    case _:
        lazy import heavy
match 1:
    case 1: lazy from pkg import sub
print(probe.loaded(), sorted(n for n in ('heavy', 'other', 'sub') if n in globals()))
print(other.Y, sub.Z, probe.loaded())
""",
    min_version=(3, 10),
)

case(
    'relative',
    files={
        'app/__init__.py': '',
        'app/a.py': '{COOKIE}\nlazy from . import b\nlazy from .b import B\nimport sys\nprint(repr(globals()["b"]), repr(globals()["B"]))\nprint(b.B, B, "app.b" in sys.modules)\n',
        'app/b.py': "print('import app.b')\nB = 'b'\n",
        'main.py': '{COOKIE}\nimport app.a\n',
    },
)

case(
    'relative_parent',
    files={
        'app/__init__.py': '',
        'app/inner/__init__.py': '',
        'app/inner/m.py': '{COOKIE}\nlazy from ..c import C\nprint(repr(globals()["C"]))\nprint(C)\n',
        'app/c.py': "print('import app.c')\nC = 'c'\n",
        'main.py': '{COOKIE}\nimport app.inner.m\n',
    },
)

case(
    'relative_errors_at_statement',
    files={
        'app/__init__.py': '',
        'app/m.py': '{COOKIE}\nlazy from ... import nothing\n',
        'noparent.py': '{COOKIE}\nlazy from . import x\n',
        'main.py': '{COOKIE}\nimport probe\nfor name in ("app.m", "noparent"):\n    try:\n        __import__(name)\n    except ImportError as e:\n        probe.describe(e)\n',
    },
)

# -- every kind of first use reifies, and rebinds the global -------------------
case(
    'uses',
    """\
import probe
lazy import heavy
lazy from heavy import Err, Base, deco, X
lazy import other
lazy from pkg import sub
lazy import pkg.sub2 as s2
class K(Base):
    attr = other.Y
print('class', probe.kind(globals(), 'Base'), probe.kind(globals(), 'other'), K.attr)
@deco
def g(a=X):
    return a
print('def', probe.kind(globals(), 'deco'), probe.kind(globals(), 'X'), g(), g.decorated)
try:
    raise ValueError
except Err:
    pass
except ValueError:
    print('except', probe.kind(globals(), 'Err'))
print('comp', [sub.Z for _ in range(2)], probe.kind(globals(), 'sub'))
f = lambda: s2.W
print('lambda before', probe.kind(globals(), 's2'))
print('lambda', f(), probe.kind(globals(), 's2'))
print(probe.kind(globals(), 'heavy'))
def reads():
    global heavy
    return heavy.X
print('global', reads(), probe.kind(globals(), 'heavy'))
""",
)

case(
    'use_in_nested_function',
    """\
import probe
lazy import heavy
def outer():
    def inner():
        return heavy.f()
    return inner
fn = outer()
print(probe.loaded())
print(fn(), probe.loaded(), probe.kind(globals(), 'heavy'))
""",
)

case(
    'annotations_at_runtime',
    """\
import probe
lazy from heavy import Base
lazy from other import Y
def f(x: Base) -> int:
    return 1
ann = f.__annotations__['x'].__name__
print(probe.loaded(), ann)
class C:
    y: Y
print(C.__annotations__)
""",
)

case(
    'store_del_peek_do_not_import',
    """\
import probe, sys
lazy import heavy
lazy import other
lazy from pkg import sub
lazy import json
heavy = 5
del other
print(heavy, 'other' in globals(), probe.loaded())
def setter():
    global sub
    sub = 'replaced'
setter()
print(sub, probe.loaded())
print('json' in globals(), probe.kind(globals(), 'json'), 'json' in dir(), probe.kind(vars(), 'json'))
print(type(globals().get('json')).__name__, len([k for k in globals() if k == 'json']))
d = dict(globals()); print(type(d['json']).__name__)
print(type(sys.modules[__name__].__dict__['json']).__name__, probe.loaded())
globals()['json'] = 'set by subscript'
print(json, probe.loaded())
""",
)

case(
    'identity_and_rebinding',
    """\
import probe, sys
lazy import heavy
lazy from heavy import Base, f
x = heavy
import heavy as eager
print(x is eager, type(x).__name__, probe.kind(globals(), 'heavy'), globals()['heavy'] is eager)
print(Base is eager.Base, isinstance(eager.Base(), Base), f is eager.f)
import pickle
print(pickle.loads(pickle.dumps(Base)) is Base, pickle.loads(pickle.dumps(f)) is f)
print(type(globals()['Base']).__name__, type(globals()['f']).__name__)
""",
)

case(
    'from_imported_module_binds_at_once',
    """\
import probe
import other
lazy from other import Y
lazy from os import path
lazy from os import no_such_name
lazy import other as o2
print(probe.kind(globals(), 'Y'), probe.kind(globals(), 'path'), probe.kind(globals(), 'no_such_name'), probe.kind(globals(), 'o2'))
print(probe.lazy_mods())
""",
)

case(
    'dotted_submodules',
    """\
import probe, sys
lazy import pkg.sub
lazy import pkg.sub2
lazy import pkg.deep.leaf
print(repr(globals()['pkg']), probe.lazy_mods())
p = pkg
print(probe.loaded(), probe.lazy_mods())
print(p.sub2.W, probe.loaded())
print(p.deep.leaf.L, p.sub.Z, probe.loaded(), probe.lazy_mods())
""",
)

case(
    'from_pkg_import_submodule',
    """\
import probe
lazy from pkg import sub, sub2 as s2
print(probe.loaded())
print(sub.Z, probe.loaded())
print(s2.W, probe.loaded(), probe.lazy_mods())
""",
)

case(
    'unused_never_imported',
    """\
import probe
lazy import heavy
lazy import other
def never():
    return heavy.X
print(other.Y)
print(probe.loaded(), probe.lazy_mods())
""",
)

case(
    'dir_and_namespace',
    """\
import probe
lazy import heavy
lazy from other import Y
print(sorted(n for n in dir() if not n.startswith('__') or 'lazy' in n))
import main_helper
""",
    files={
        'main_helper.py': "{COOKIE}\nlazy import heavy\nx = 1\nimport sys\nprint(sorted(n for n in dir(sys.modules[__name__]) if not n.startswith('__') or 'lazy' in n))\n"
    },
)

case(
    'other_module_access',
    files={
        'lib.py': '{COOKIE}\nlazy import heavy\nlazy from other import Y\nlazy from pkg import sub\nlazy import json\n',
        'main.py': """{COOKIE}
import probe, lib
print(probe.loaded())
print(lib.heavy.X, probe.loaded())
print(getattr(lib, 'Y'), hasattr(lib, 'sub'), probe.loaded())
from lib import sub as s
print(s.Z, probe.kind(vars(lib), 'sub'))
print(type(vars(lib)['json']).__name__, type(lib.__dict__['json']).__name__, probe.loaded())
""",
    },
)

case(
    'star_import_from_lazy_module',
    files={
        'lib.py': "{COOKIE}\nlazy import heavy\nlazy from other import Y\n__all__ = ['heavy', 'Y']\n",
        'main.py': '{COOKIE}\nimport probe\nfrom lib import *\nprint(probe.loaded(), type(heavy).__name__, Y)\n',
    },
)

case(
    'lazy_object_api',
    """\
import probe
lazy import heavy
lazy from other import Y
t = type(globals()['heavy'])
print(t.__name__, t.__qualname__, t.__module__, repr(globals()['Y']))
try:
    t()
except TypeError as e:
    print('new:', e)
import pickle, copy
try:
    pickle.dumps(globals()['heavy'])
except TypeError as e:
    print('pickle:', e)
r = globals()['Y'].resolve()
print('resolve:', r, probe.kind(globals(), 'Y'), probe.loaded())
print(globals()['heavy'].resolve() is globals()['heavy'].resolve(), probe.kind(globals(), 'heavy'))
""",
)

case(
    'reexport_and_reimport',
    files={
        'lib.py': '{COOKIE}\nlazy from heavy import f\n',
        'main.py': '{COOKIE}\nlazy from lib import f\nimport probe\nprint(probe.loaded(), probe.kind(globals(), "f"))\nprint(f())\n',
    },
)

case(
    'rebind_over_eager',
    """\
import probe
import other
lazy import other
print(probe.kind(globals(), 'other'))
print(other.Y, probe.kind(globals(), 'other'))
""",
)

# -- errors at first use -------------------------------------------------------
case(
    'missing_module',
    """\
import probe, sys
lazy import nosuch_module_x
lazy from heavy import not_there
lazy from nosuch_pkg_y import thing
for name in ('nosuch_module_x', 'not_there', 'thing'):
    try:
        eval(name)
    except ImportError as e:
        print(name)
        probe.describe(e)
print(probe.kind(globals(), 'nosuch_module_x'), probe.lazy_mods())
""",
)

case(
    'failing_module_retried',
    """\
import probe, sys
lazy import broken
def use():
    return broken
for attempt in range(2):
    try:
        use()
    except ZeroDivisionError as e:
        print('attempt', attempt)
        probe.describe(e)
        print('  in sys.modules:', 'broken' in sys.modules, probe.kind(globals(), 'broken'))
""",
)

case(
    'getattr_hook_raises',
    """\
import probe
lazy from noattr import missing
try:
    missing
except ImportError as e:
    probe.describe(e)
""",
)

case(
    'error_in_except_handler',
    """\
import probe
lazy import nosuch_mod_z
try:
    raise KeyError('first')
except KeyError:
    try:
        nosuch_mod_z
    except ImportError as e:
        probe.describe(e)
""",
)

case(
    'uncaught_error_script',
    """\
lazy import broken
print('before')
broken
""",
    mode='tail',
)

# -- SyntaxErrors, imported and run directly ------------------------------------
_BAD = {
    'in_function': 'x = 1\ndef f():\n    lazy import os\n',
    'in_function_one_line': 'def f(): lazy import os\n',
    'in_class': 'class C:\n    lazy import os\n',
    'function_in_class': 'class C:\n    def f(self):\n        lazy import os\n',
    'class_in_function': 'def f():\n    class C:\n        lazy from os import path\n',
    'in_try': 'try:\n    lazy import os\nexcept ImportError:\n    pass\n',
    'in_except': 'try:\n    pass\nexcept ImportError:\n    lazy import os\n',
    'in_try_else': 'try:\n    pass\nexcept ImportError:\n    pass\nelse:\n    lazy import os\n',
    'in_finally': 'try:\n    pass\nfinally:\n    lazy import os\n',
    'if_in_try': 'if True:\n    try:\n        lazy import os\n    finally:\n        pass\n',
    'star': 'lazy from os import *\n',
    'future': 'lazy from __future__ import annotations\n',
    'multi_line': 'def f():\n    lazy from os import (\n        path,\n        sep)\n',
    'continuation': 'def f():\n    lazy \\\n      import os\n',
    'after_semicolon': 'def f(): x = 1; lazy import os\n',
    'trailing_comma': 'lazy import os,\n',
    'nothing_imported': 'lazy import\n',
    'trailing_comma_from': 'lazy from os import a,\n',
    'first_of_two': 'def f():\n    lazy import a\ndef g():\n    lazy import b\n',
}
# the interpreter's own errors in files that also hold lazy statements: the
# oracle is this interpreter compiling the eager program (messages differ by
# version), as for a plain UTF-8 file
_BAD_OWN = {
    'other_error_after': 'def f():\n    lazy import os\nx = = 1\n',
    'other_error_before': 'x = = 1\ndef f():\n    lazy import os\n',
    'unclosed_after': 'def f():\n    lazy import os\nx = (\n',
    'unterminated_string_after_valid': 'lazy import os\nx = "abc\n',
    'plain_error_with_valid_lazy': 'lazy import os\nprint(1\n',
    'indentation_after_valid': 'lazy import os\nif True:\nx = 1\n',
}


def _import_each(bad):
    lines = [
        f'try:\n    import bad_{i}\nexcept SyntaxError as e:\n    print({name!r})\n    probe.syntax(e)\n'
        for i, name in enumerate(bad)
    ]
    files = {f'bad_{i}.py': '{COOKIE}\nprint("ran!")\n' + src for i, src in enumerate(bad.values())}
    return 'import probe\n' + ''.join(lines), files


case('syntax_errors_imported', *_import_each(_BAD))
case('syntax_errors_own_imported', *_import_each(_BAD_OWN))
CASES['syntax_errors_own_imported']['oracle'] = 'eager'
for _name in ('in_function', 'in_try', 'star', 'future', 'trailing_comma'):
    case(f'syntax_error_script_{_name}', 'print("ran!")\n' + _BAD[_name], mode='tail')
case('syntax_error_script_own', 'print("ran!")\n' + _BAD_OWN['other_error_after'], mode='tail')
CASES['syntax_error_script_own']['oracle'] = 'eager'
case(
    'syntax_error_script_after_shebang',
    files={
        'main.py': '#!/usr/bin/env python\n{COOKIE}\nprint("ran!")\ndef f():\n    lazy import os\n',
    },
    mode='tail',
)

case(
    'not_utf8_imported',
    oracle='eager',
    main="""\
import probe
for m in ('bad_utf8_a', 'bad_utf8_b'):
    try:
        __import__(m)
    except SyntaxError as e:
        probe.syntax(e)
""",
    files={
        'bad_utf8_a.py': b'{COOKIE}\nx = 1\ny = "\xff"\n',
        'bad_utf8_b.py': b'{COOKIE}\nlazy import os\nz = 2\nw = b"\xc3\x28"\n',
    },
)

# -- lazy is an identifier elsewhere; text is never touched ------------------------
case(
    'identifier_and_text',
    '''\
lazy = 1
print(lazy)
class Box:
    lazy = 2
def lazy_fn(lazy=3):
    return lazy
print(Box.lazy, lazy_fn(), lazy_fn(lazy=4))
obj = Box()
obj.lazy = 5; print(obj.lazy)
def lazy():
    return 'called'
print(lazy())
s = """
lazy import heavy
"""
t = 'lazy import heavy'  # lazy import heavy
name = 'x'
u = f"{name} lazy import heavy {'lazy from x import y'}"
print(s.strip(), t, u)
import probe; print(probe.loaded())
''',
)

# -- every way source reaches the interpreter -------------------------------------
case(
    'run_module_package',
    argv=['-m', 'app'],
    files={
        'app/__init__.py': '{COOKIE}\nlazy import heavy\nprint("app init", type(globals()["heavy"]).__name__)\n',
        'app/__main__.py': '{COOKIE}\nlazy import other\nimport probe\nprint("app main", probe.loaded())\nprint(other.Y, probe.loaded())\n',
    },
)
case(
    'run_module_submodule',
    argv=['-m', 'app.tool', 'arg'],
    files={
        'app/__init__.py': '',
        'app/tool.py': '{COOKIE}\nlazy import other\nimport probe, sys\nprint(__name__, sys.argv[1:], probe.loaded())\nprint(other.Y)\n',
    },
)
case(
    'runpy_and_importlib',
    """\
import runpy, importlib, probe
ns = runpy.run_path('script2.py')
print('run_path', ns['result'])
m = importlib.import_module('mod2')
print('import_module', m.value(), probe.loaded())
""",
    files={
        'script2.py': '{COOKIE}\nlazy import other\nresult = other.Y\n',
        'mod2.py': '{COOKIE}\nlazy from heavy import X\ndef value():\n    return X\n',
    },
)
case(
    'compile_exec_bytes',
    """\
import probe
src = open('snippet.py', 'rb').read()
code = compile(src, 'snippet.py', 'exec')
ns = {'__name__': 'snippet'}
exec(code, ns)
print(probe.loaded(), type(ns['heavy']).__name__)
exec(b'# -*- coding: lazy -*-\\nlazy import other\\nprint(other.Y)\\n' if LAZY else b'# -*- coding: utf-8 -*-\\nlazy import other\\nprint(other.Y)\\n', {'__name__': 'x'})
""",
    files={'snippet.py': '{COOKIE}\nlazy import heavy\n'},
)
# the case needs to know its own cookie for the bytes literal
CASES['compile_exec_bytes']['files']['main.py'] = CASES['compile_exec_bytes']['files']['main.py'].replace(
    '{COOKIE}\n', '{COOKIE}\nLAZY = "lazy" in open(__file__, encoding="latin-1").readline()\n', 1
)
case(
    'py_compile_and_reuse',
    """\
import compileall, importlib.util, os, sys, probe
ok = compileall.compile_dir('lib', quiet=1)
pyc = importlib.util.cache_from_source(os.path.join('lib', 'cmod.py'))
print('compiled', bool(ok), os.path.exists(pyc))
sys.path.insert(0, 'lib')
import cmod
print(probe.loaded(), cmod.get())
""",
    files={'lib/cmod.py': '{COOKIE}\nlazy import heavy\ndef get():\n    return heavy.X\n'},
)
case(
    'zipimport',
    """\
import sys, zipfile, probe
with zipfile.ZipFile('bundle.zip', 'w') as z:
    z.write('zmod_src.py', 'zmod.py')
sys.path.insert(0, 'bundle.zip')
import zmod
print(probe.loaded(), zmod.get(), probe.loaded())
""",
    files={'zmod_src.py': '{COOKIE}\nlazy import heavy\ndef get():\n    return heavy.X\n'},
)
case(
    'cookie_variants',
    """\
import probe
import cv_shebang, cv_plain, cv_upper
print(probe.loaded(), cv_shebang.get(), cv_plain.get(), cv_upper.get())
""",
    files={
        'cv_shebang.py': '#!/usr/bin/env python3\n{COOKIE}\nlazy import heavy\ndef get():\n    return heavy.X\n',
        'cv_plain.py': '{COOKIE}\nlazy import other\ndef get():\n    return other.Y\n',
        'cv_upper.py': '{COOKIE}\nlazy from pkg import sub\ndef get():\n    return sub.Z\n',
    },
)
# the cookie spelled without -*- and in upper case (the lazy run; 3.15 records utf-8)
CASES['cookie_variants']['files']['cv_plain.py'] = (
    '{PLAINCOOKIE}\nlazy import other\ndef get():\n    return other.Y\n'
)
CASES['cookie_variants']['files']['cv_upper.py'] = (
    '{UPPERCOOKIE}\nlazy from pkg import sub\ndef get():\n    return sub.Z\n'
)
case(
    'script_with_shebang',
    files={
        'main.py': '#!/usr/bin/env python3\n{COOKIE}\nlazy import heavy\nimport probe\nprint(probe.loaded())\nprint(heavy.X, probe.loaded())\n',
    },
)
case(
    'crlf_and_no_final_newline',
    files={
        'main.py': '{COOKIE}\r\nimport probe\r\nlazy from heavy import (\r\n    X,\r\n)\r\nprint(probe.loaded())\r\nprint(X, probe.loaded())',
    },
)

# -- the user's own source: tracebacks, inspect, linecache, warnings, pdb ----------
case(
    'source_everywhere',
    """\
import inspect, linecache, probe, warnings, sys, traceback
lazy import heavy
lazy from other import (
    Y,
)
def func():
    return heavy.X
print(inspect.getsource(func), end='')
print(linecache.getline(__file__, 3), end='')
print(''.join(linecache.getlines(__file__)[3:6]), end='')
def warn():
    warnings.warn('careful', UserWarning)
warnings.simplefilter('always')
with warnings.catch_warnings(record=True) as w:
    warn()
print(w[0].lineno, linecache.getline(__file__, w[0].lineno).strip())
try:
    heavy.nope
except AttributeError:
    print(traceback.format_exc().splitlines()[-2].strip())
""",
)
case(
    'pdb_list',
    """\
lazy import heavy
def target():
    x = heavy.X
    return x
import pdb
pdb.Pdb(nosigint=True, readrc=False).runcall(target)
""",
)
CASES['pdb_list']['stdin'] = 'list 2, 5\ncontinue\n'

# -- threads -------------------------------------------------------------------------
case(
    'threads_first_use',
    """\
import threading, sys
lazy import slowmod
lazy from slowmod import VALUE
results = []
barrier = threading.Barrier(32)
def worker():
    barrier.wait()
    results.append((slowmod, VALUE))
threads = [threading.Thread(target=worker) for _ in range(32)]
for t in threads: t.start()
for t in threads: t.join()
mods = {id(m) for m, _ in results}
print(len(results), len(mods), {v for _, v in results}, slowmod.COUNT, type(globals()['slowmod']).__name__)
""",
    files={
        'slowmod.py': "import time\nimport builtins\nbuiltins.__dict__.setdefault('_slow_count', 0)\nbuiltins._slow_count += 1\nCOUNT = builtins._slow_count\ntime.sleep(0.2)\nVALUE = 'v'\n"
    },
)

# -- 3.15's controls: the API, the filter, __lazy_modules__ ------------------------
# 3.15's sys API asked for before any lazy statement has run (lazy_codec
# loads its runtime at the first call of one of the functions)
case(
    'api_before_any_lazy_statement',
    """\
import sys, probe
print(type(sys.lazy_modules).__name__, probe.lazy_mods(), '__getattr__' in vars(sys))
get = sys.get_lazy_imports
print(get.__name__, get(), sys.get_lazy_imports_filter())
try:
    sys.set_lazy_imports()
except TypeError as e:
    print(type(e).__name__, e)
sys.set_lazy_imports('all'); print(get())
sys.set_lazy_imports('normal')
lazy import heavy
print(probe.lazy_mods(), get())
""",
)

case(
    'api_functions',
    """\
lazy import heavy
import sys, types, builtins
print(sys.get_lazy_imports(), sys.get_lazy_imports_filter())
for bad in ('none', 'ALL', 1, None):
    try:
        sys.set_lazy_imports(bad)
    except (TypeError, ValueError) as e:
        print('set', repr(bad), type(e).__name__, e)
for bad in (1, 'x'):
    try:
        sys.set_lazy_imports_filter(bad)
    except (TypeError, ValueError) as e:
        print('filter', repr(bad), type(e).__name__, e)
for call in (sys.set_lazy_imports, sys.set_lazy_imports_filter):
    try:
        call()
    except TypeError as e:
        print(type(e).__name__, e)
sys.set_lazy_imports('all'); print(sys.get_lazy_imports())
sys.set_lazy_imports('normal'); print(sys.get_lazy_imports())
f = lambda *a: True
sys.set_lazy_imports_filter(f); print(sys.get_lazy_imports_filter() is f)
sys.set_lazy_imports_filter(None); print(sys.get_lazy_imports_filter())
print(types.LazyImportType is type(globals()['heavy']), type(sys.lazy_modules).__name__)
print(callable(builtins.__lazy_import__))
""",
)

# __lazy_import__'s own argument checks (3.15's messages)
case(
    'dunder_lazy_import_arguments',
    """\
lazy import heavy
heavy  # the runtime is loaded by now
for args, kwargs in (((b'',), {}), ((123,), {}), ((None,), {}), (('sys',), {'level': -1}),
                     (('sys',), {'globals': 1}), (('sys',), {'fromlist': (1, 2)}),
                     (('sys',), {'fromlist': 1})):
    try:
        __lazy_import__(*args, **kwargs)
    except (TypeError, ValueError) as e:
        print(type(e).__name__, e)
print(type(__lazy_import__('colorsys')).__name__)
""",
)

case(
    'filter_calls',
    files={
        'fpkg/__init__.py': '',
        'fpkg/sib.py': "print('import fpkg.sib')\nS = 1\n",
        'fpkg/m.py': """{COOKIE}
import sys
lazy import heavy as _first
calls = []
def filt(importer, name, fromlist):
    calls.append((importer, name, fromlist))
    return name not in ('other', 'colorsys')
sys.set_lazy_imports_filter(filt)
lazy import json
lazy import pkg.deep.leaf as leaf
lazy from . import sib
lazy from .sib import S
lazy from os import path
lazy import other
lazy from pkg import sub, sub2 as s2
lazy import colorsys, pkg.sub2
for c in calls:
    print(c)
import probe
print(probe.loaded(), probe.kind(globals(), 'other'), probe.kind(globals(), 'colorsys'), probe.kind(globals(), 'json'))
for result in (0, '', [], 1, 'yes', [0]):
    sys.set_lazy_imports_filter(lambda *a, r=result: r)
    lazy import fractions
    print(repr(result), probe.kind(globals(), 'fractions'))
    del fractions
def boom(*a):
    raise KeyError('from the filter')
sys.set_lazy_imports_filter(boom)
""",
        'main.py': '{COOKIE}\nimport fpkg.m\nimport sys\ntry:\n    import filter_raises\nexcept KeyError as e:\n    print("raised", e)\nsys.set_lazy_imports_filter(None)\n',
        'filter_raises.py': '{COOKIE}\nlazy import heavy\nprint("not reached")\n',
    },
)

case(
    'lazy_modules_container',
    files={
        'as_list.py': "{COOKIE}\n__lazy_modules__ = ['heavy', 'pkg.sub']\nimport heavy\nimport pkg.sub\nimport other\nfrom pkg import sub2\nimport probe\nprint('list', probe.kind(globals(), 'heavy'), probe.kind(globals(), 'pkg'), probe.kind(globals(), 'other'), probe.kind(globals(), 'sub2'))\n",
        'as_set.py': "{COOKIE}\n__lazy_modules__ = {'colorsys', 'pkg'}\nimport colorsys\nfrom pkg import deep\nimport probe\nprint('set', probe.kind(globals(), 'colorsys'), probe.kind(globals(), 'deep'))\nprint(deep.leaf if False else 'deep', probe.loaded())\n",
        'as_custom.py': """{COOKIE}
class Asked:
    def __contains__(self, name):
        print('  asked', name)
        return name == 'json'
__lazy_modules__ = Asked()
import json
import fractions as fr
from os import path
try:
    import colorsys
except ImportError:
    pass
def f():
    import decimal
if True:
    import probe
print('custom', type(globals()['json']).__name__, type(globals()['fr']).__name__)
""",
        'main.py': '{COOKIE}\nimport as_list, as_set, as_custom\n',
    },
)

# -- mode "all", -X lazy_imports, PYTHON_LAZY_IMPORTS -------------------------------
_ALL_FILES = {
    'plainmod.py': 'import colorsys\nimport other\nfrom pkg import sub\ntry:\n    import heavy\nexcept ImportError:\n    pass\ndef use():\n    return colorsys.__name__, other.Y, sub.Z\n',
    'pkgall/__init__.py': "print('import pkgall')\nfrom . import a\nfrom .b import B\n",
    'pkgall/a.py': "print('import pkgall.a')\nA = 'a'\n",
    'pkgall/b.py': "print('import pkgall.b')\nB = 'b'\n",
    'main.py': """{COOKIE}
import sys, probe
import json as plain_json
print(sys.get_lazy_imports(), probe.kind(globals(), 'plain_json'))
import plainmod, pkgall
print(probe.loaded(), [probe.kind(vars(plainmod), n) for n in ('colorsys', 'other', 'sub', 'heavy')])
print(plainmod.use(), probe.loaded())
print(probe.kind(vars(pkgall), 'a'), probe.kind(vars(pkgall), 'B'))
print(pkgall.a.A, pkgall.B)
""",
}
case('mode_all_xoption', files=_ALL_FILES, argv=['-X', 'lazy_imports=all', 'main.py'])
case('mode_all_environ', files=_ALL_FILES, env={'PYTHON_LAZY_IMPORTS': 'all'})
case(
    'mode_xoption_wins',
    files=_ALL_FILES,
    argv=['-X', 'lazy_imports=normal', 'main.py'],
    env={'PYTHON_LAZY_IMPORTS': 'all'},
)
case('mode_bad_xoption', files=_ALL_FILES, argv=['-X', 'lazy_imports=lazy', 'main.py'])
case('mode_bad_environ', files=_ALL_FILES, env={'PYTHON_LAZY_IMPORTS': 'none'})
# -E (and -I) ignore the environment: PYTHON_LAZY_IMPORTS too, a bad value included
case(
    'mode_environ_ignored_by_E', files=_ALL_FILES, argv=['-E', 'main.py'], env={'PYTHON_LAZY_IMPORTS': 'all'}
)
case(
    'mode_bad_environ_ignored_by_E',
    files=_ALL_FILES,
    argv=['-E', 'main.py'],
    env={'PYTHON_LAZY_IMPORTS': 'none'},
)
case(
    'mode_set_at_run_time',
    files=dict(
        _ALL_FILES,
        **{
            'main.py': """{COOKIE}
import sys, probe
lazy import heavy
import plainmod
print(probe.kind(vars(plainmod), 'other'))
sys.set_lazy_imports('all')
import pkgall
print(probe.loaded(), probe.kind(vars(pkgall), 'a'))
sys.set_lazy_imports('normal')
import colorsys
print(probe.kind(globals(), 'colorsys'))
"""
        },
    ),
)
case(
    'mode_all_cache_apart',
    files=dict(
        _ALL_FILES,
        **{
            'main.py': """{COOKIE}
import subprocess, sys
lazy import heavy
code = "import plainmod, sys; print(sys.get_lazy_imports(), type(vars(plainmod)['other']).__name__)"
for args in (['-X', 'lazy_imports=all'], [], ['-X', 'lazy_imports=all'], []):
    out = subprocess.run([sys.executable, *args, '-c', code], capture_output=True, text=True)
    print(out.stdout.strip(), out.returncode)
"""
        },
    ),
)

case(
    'lazy_modules_without_cookie',
    files={
        'plain_listing.py': "__lazy_modules__ = ['colorsys', 'pkg.sub']\nimport colorsys\nimport pkg.sub\nimport other\n",
        'main.py': "import plain_listing as m, probe\nprint([probe.kind(vars(m), n) for n in ('colorsys', 'pkg', 'other')], probe.loaded())\nprint(m.pkg.sub.Z, probe.loaded())\n",
    },
)

# -- 3.15's edges: sys.lazy_modules -----------------------------------------------
case(
    'lazy_modules_blocked_and_initializing',
    """\
import sys, types
from importlib.machinery import ModuleSpec
sys.modules['heavy'] = None
lazy import heavy
print('blocked', 'heavy' in sys.lazy_modules)
for flag in (True, False, 1, 0, None, 'x'):
    sys.lazy_modules.discard('custom_spec')
    module = types.ModuleType('custom_spec')
    module.__spec__ = ModuleSpec('custom_spec', None)
    module.__spec__._initializing = flag
    sys.modules['custom_spec'] = module
    lazy import custom_spec
    print(repr(flag), 'custom_spec' in sys.lazy_modules)
class Flag:
    def __bool__(self):
        raise RuntimeError('_initializing truth conversion was run')
module.__spec__._initializing = Flag()
lazy import custom_spec
print('flag', 'custom_spec' in sys.lazy_modules)
for name, value in (('nospec', types.ModuleType('nospec')), ('notmod', 5)):
    sys.modules[name] = value
lazy import nospec, notmod
print('nospec', 'nospec' in sys.lazy_modules, 'notmod', 'notmod' in sys.lazy_modules)
lazy import other
sys.modules['other'] = None
print('other after None', 'other' in sys.lazy_modules)
try:
    import initfails
except ValueError as exc:
    print('initfails', exc, 'initfails' in sys.modules, 'initfails' in sys.lazy_modules)
import colorsys
lazy import colorsys as c2
print('colorsys', 'colorsys' in sys.lazy_modules)
""",
    files={
        'initfails.py': "import backref\nraise ValueError('initialization failed')\n",
        'backref.py': '{COOKIE}\nlazy import initfails\n',
    },
)

# -- 3.15's edges: builtins.__lazy_import__ ---------------------------------------
case(
    'dunder_lazy_import_from_start',
    """\
import builtins, sys
def show(*args, **kwargs):
    try:
        got.clear()
        exec('got.append(__lazy_import__(*args, **kwargs))', dict(globals(), args=args, kwargs=kwargs))
        print(' ', args, kwargs, repr(got[0]))
    except BaseException as exc:
        print(' ', args, kwargs, type(exc).__name__, exc)
got = []
show('heavy')
for args, kwargs in [((123,), {}), ((None,), {}), ((b'',), {}), (('heavy',), {'level': -1}),
                     (('heavy',), {'globals': 5}), (('heavy',), {'fromlist': 5}),
                     (('heavy',), {'fromlist': [1]}), (('heavy',), {'fromlist': (1,)}),
                     (('',), {}), (('.x',), {}), (('x',), {'level': 1}), (('heavy',), {'level': 'a'}),
                     ((), {}), (('heavy', None, None, None, 0, 9), {}), (('heavy',), {'bogus': 1}),
                     (('pkg.sub',), {}), (('pkg',), {'fromlist': ()}), (('pkg',), {'fromlist': 'sub'}),
                     (('pkg',), {'fromlist': ('sub', 'sub2')})]:
    show(*args, **kwargs)
def in_function():
    __lazy_import__('heavy')
class InClass:
    try:
        __lazy_import__('heavy')
    except SyntaxError as exc:
        print('class', repr(exc))
try:
    in_function()
except SyntaxError as exc:
    print('function', repr(exc), exc.filename, exc.lineno)
print(sorted(m for m in sys.lazy_modules if m.split('.')[0] in ('heavy', 'pkg')))
lazies = [__lazy_import__('pkg.deep.leaf'), __lazy_import__('pkg', fromlist='sub2')]
calls = []
real_import = builtins.__import__
def hook(name, globals, locals, fromlist, level):
    if name.startswith('pkg'):
        calls.append((name, type(globals).__name__, fromlist, level))
    return real_import(name, globals, locals, fromlist, level)
builtins.__import__ = hook
resolved = [lazy.resolve() for lazy in lazies]
builtins.__import__ = real_import
print(calls)
print([module.__name__ for module in resolved], resolved[1].sub2.W)
""",
)

case(
    'lazy_statement_through_replaced_dunder',
    """\
import builtins, sys, types
seen = []
default = builtins.__lazy_import__
made = {name: __lazy_import__(name, fromlist=fromlist) for name, fromlist in (
    ('heavy', None), ('pkg.sub', None), ('pkg.deep.leaf', None), ('other', ('Y',)), ('pkg', ('sub2',)))}
def spy(name, globals=None, locals=None, fromlist=None, level=0):
    seen.append((name, globals is vars(sys.modules[__name__]), locals is globals, fromlist, level))
    return made[name]
builtins.__lazy_import__ = spy
lazy import heavy
lazy import pkg.sub
lazy import pkg.deep.leaf as leaf
lazy from other import Y
lazy from pkg import sub2 as s2
builtins.__lazy_import__ = default
for entry in seen:
    print(entry)
print([repr(globals()[name]) for name in ('heavy', 'pkg', 'leaf', 'Y', 's2')])
print(leaf.L, Y, s2.W, heavy.X)
placeholder = [__lazy_import__('pkg', fromlist=())]
builtins.__lazy_import__ = lambda *args: placeholder[0]
lazy import fake.sub as sub
lazy from fake import sub2
builtins.__lazy_import__ = lambda *args: 42
lazy import answer
builtins.__lazy_import__ = default
print(repr(globals()['sub']), repr(globals()['sub2']), answer)
print(sub.Z, sub2.W)
value = object()
module = types.SimpleNamespace(dom=value)
builtins.__lazy_import__ = lambda *args: module
lazy import fake.dom as dom
builtins.__lazy_import__ = default
print(dom is value)
""",
)

case(
    'lazy_object_bound_by_assignment',
    """\
import probe, sys, types
basic = __lazy_import__('pkg', fromlist=('sub',))
print(probe.kind(globals(), 'basic'), probe.loaded())
basic
print(probe.kind(globals(), 'basic'), probe.loaded(), basic.sub.Z)
ns = types.ModuleType('ns')
ns.h = __lazy_import__('heavy')
print(type(vars(ns)['h']).__name__, probe.loaded())
print(type(ns.h).__name__, type(vars(ns)['h']).__name__)
lazy from other import Y
lazy import colorsys
class C: pass
sneaky = C()
sneaky.__name__ = 'plain'
def f():
    return sneaky.__name__
print(f())
globals()['sneaky'] = globals()['colorsys']
print(f(), probe.kind(globals(), 'sneaky'))
held = [globals()['Y']]
try:
    held[0].real
except AttributeError as exc:
    print('AttributeError:', exc)
lazy import pkg.deep.leaf as leaf
try:
    globals()['leaf'].L
except AttributeError as exc:
    print('AttributeError:', exc)
""",
)

# -- 3.15's edges: dotted names, error shapes --------------------------------------
case(
    'dotted_non_package_blocked_deleted',
    """\
import probe, sys
lazy import colorsys.rgb_to_hsv
for _ in range(2):
    try:
        colorsys
    except ModuleNotFoundError as exc:
        probe.describe(exc)
import heavy
lazy import heavy.X
try:
    heavy.X
except ModuleNotFoundError as exc:
    probe.describe(exc)
lazy import os.path
print(os.path.__name__ in ('posixpath', 'ntpath'))
sys.modules['pkg.sub'] = None
lazy import pkg.sub
try:
    pkg.sub
except ModuleNotFoundError as exc:
    probe.describe(exc)
print('pkg.sub' in sys.lazy_modules)
lazy from pkg import sub2
print(sub2.__name__)
del pkg.sub2
print(hasattr(pkg, 'sub2'))
lazy from pkg import sub2
print(hasattr(pkg, 'sub2'), pkg.sub2.W)
""",
)

case(
    'chained_errors_cause_or_notes',
    """\
import probe
lazy import chained_cause
lazy import chained_context
lazy import chained_suppressed
lazy import broken
for name in ('chained_cause', 'chained_context', 'chained_suppressed', 'broken'):
    for _ in range(2):
        try:
            globals()[name].resolve()
        except ValueError as exc:
            probe.describe(exc)
        except ZeroDivisionError as exc:
            probe.describe(exc)
try:
    broken
except ZeroDivisionError as exc:
    probe.describe(exc)
try:
    raise KeyError('handling')
except KeyError:
    try:
        broken
    except ZeroDivisionError as exc:
        probe.describe(exc)
""",
    files={
        'chained_cause.py': "cause = ValueError('Cause of failure')\nraise ValueError('always fails') from cause\n",
        'chained_context.py': "try:\n    raise ValueError('Cause of failure')\nexcept:\n    raise ValueError('always fails')\n",
        'chained_suppressed.py': "raise ValueError('always fails') from None\n",
    },
)

# -- 3.15's edges: types.LazyImportType's surface ----------------------------------
case(
    'lazy_import_type_surface',
    """\
import types, sys
lazy import heavy
L = types.LazyImportType
held = [globals()['heavy']]
print(repr(L), L.__name__, L.__qualname__, L.__module__)
try:
    class X(L): pass
except TypeError as exc:
    print('subclass:', exc)
print('dir:', [n for n in dir(held[0]) if n not in dir(object)])
bound = held[0].resolve
print(repr(bound).split(' at ')[0], type(bound).__name__, bound.__name__, bound.__qualname__)
print(repr(bound).endswith(f' at {id(held[0]):#x}>'), bound.__self__ is held[0])
print(repr(L.resolve), type(L.resolve).__name__)
print(repr(L.__doc__))
for attr in ('x', '__name__', '__dict__', '__wrapped__'):
    try:
        getattr(held[0], attr)
    except AttributeError as exc:
        print('get', attr, exc)
for args in ((), ({}, 'heavy')):
    try:
        L(*args)
    except TypeError as exc:
        print('call', exc)
print(held[0] == held[0], bool(held[0]), 'heavy' in sys.modules)
print(L.resolve(held[0]).X, bound().X)
""",
)

case(
    'traceback_frames_of_a_failed_first_use',
    """\
import os, traceback
lazy import broken
lazy from heavy import nothing
lazy import pkg.missing
def frames(exc):
    return [(f.name, os.path.basename(f.filename), f.lineno) for f in traceback.extract_tb(exc.__traceback__)]
def use(name):
    return globals()[name] if False else eval(name)
for name in ('broken', 'nothing', 'pkg.missing'):
    for _ in range(2):
        try:
            use(name)
        except Exception as exc:
            print(name, type(exc).__name__, frames(exc), frames(exc.__cause__) if exc.__cause__ else None)
def in_function():
    return broken
try:
    in_function()
except ZeroDivisionError as exc:
    print(frames(exc))
""",
)

case(
    'submodule_used_inside_its_own_failing_import',
    """\
import sys, pkg
from importlib.machinery import ModuleSpec
class Loader:
    calls = 0
    def find_spec(self, name, path=None, target=None):
        if name == 'pkg.broken':
            return ModuleSpec(name, self)
    def create_module(self, spec):
        return None
    def exec_module(self, module):
        self.calls += 1
        inner = pkg.broken
        print('inner', type(inner).__name__, inner is module, inner.__name__)
        raise RuntimeError('failed initialization')
loader = Loader()
sys.meta_path.insert(0, loader)
lazy import pkg.broken
for _ in range(2):
    try:
        pkg.broken
    except RuntimeError as exc:
        print('outer', type(exc).__name__, exc, exc.__cause__)
print(loader.calls, 'pkg.broken' in sys.modules)
""",
)

case(
    'star_import_of_package_with_lazy_submodules',
    """\
import sys
lazy import pkg.nonexistent
lazy import pkg.sub
lazy import pkg
print(pkg.__name__)
from pkg import *
print('pkg.sub' in sys.modules, 'pkg.nonexistent' in sys.modules)
print(pkg.sub.Z)
""",
)

# GlobalLazyImportModeTests.test_global_on: the module that switches the mode
# has its own plain imports after the switch lazy (and the filter asked)
case(
    'mode_set_at_run_time_own_imports',
    """\
import sys, probe
seen = []
sys.set_lazy_imports_filter(lambda importer, name, fromlist: seen.append((importer, name, fromlist)) or True)
import heavy
print(probe.kind(globals(), 'heavy'), probe.loaded())
sys.set_lazy_imports('all')
import other
from pkg import sub
print(probe.kind(globals(), 'other'), probe.kind(globals(), 'sub'), probe.loaded(), seen)
print(other.Y, sub.Z, probe.loaded())
sys.set_lazy_imports('normal')
import colorsys
print(probe.kind(globals(), 'colorsys'))
""",
)
