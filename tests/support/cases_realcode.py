"""Differential cases that real packages found (case_table.py has the format):
each is the smallest program that showed lazy_codec differing from 3.15."""

from case_table import CaseTable

CASES = CaseTable()
case = CASES.add

# A parsing library under mode "all": `from m import *` copied m's lazy key,
# so that the importer's own `lazy import sys` later was never resolved
case(
    'star_import_then_own_lazy_import',
    """\
import probe
from starsrc import *
print(probe.kind(globals(), 'sys'), probe.kind(globals(), 'heavy'), probe.kind(globals(), 'Y'))
lazy import sys
print(probe.kind(globals(), 'sys'))
print(sys.stdout is not None, heavy.X, Y)
import starsrc
print(probe.kind(vars(starsrc), 'sys'), probe.kind(vars(starsrc), 'heavy'), probe.kind(vars(starsrc), 'Y'))
print(probe.loaded())
""",
    files={
        'starsrc.py': '{COOKIE}\nlazy import sys\nlazy import heavy\nlazy from other import Y\n',
    },
)

case(
    'star_import_with_all',
    """\
import probe
from staralls import *
print(probe.kind(globals(), 'heavy'), 'other' in globals(), probe.loaded())
import staralls
print(probe.kind(vars(staralls), 'heavy'), probe.kind(vars(staralls), 'other'))
""",
    files={
        'staralls.py': "{COOKIE}\n__all__ = ['heavy']\nlazy import heavy\nlazy import other\n",
    },
)

# A JSON-schema library under mode "all": `lazy from pkg import name` with
# pkg imported called pkg's module __getattr__ at the statement
case(
    'lazy_from_package_with_module_getattr',
    """\
import probe, sys
import gpkg
lazy from gpkg import A, B, sub, C
g = globals()
print({k: probe.kind(g, k) for k in ('A', 'B', 'sub', 'C')})
print(repr(g['B']), repr(g['sub']), repr(g['C']))
print(sorted(n for n in sys.lazy_modules if n.startswith('gpkg')))
print(B)
print(sub.Z)
try:
    C
except ImportError as e:
    print(type(e).__name__, e, '|', e.__cause__)
print(gpkg.late())
""",
    files={
        'gpkg/__init__.py': """{COOKIE}
print('import gpkg')
A = 1
lazy from gpkg.impl import VALUE
def __getattr__(name):
    print('gpkg.__getattr__', name)
    if name == 'B':
        return VALUE + 1
    raise AttributeError(name)
def late():
    return VALUE
""",
        'gpkg/impl.py': "print('import gpkg.impl')\nVALUE = 41\n",
        'gpkg/sub.py': "print('import gpkg.sub')\nZ = 3\n",
    },
)

# A graph library under mode "all": `collections.abc` through `collections`,
# where only another module named `collections.abc`, lazily
case(
    'submodule_through_imported_parent',
    """\
import probe, sys
import pkg
import namer
print(probe.loaded())
print(pkg.sub.Z, pkg.deep.leaf.L, probe.loaded())
print(type(pkg.sub).__name__, pkg.sub is sys.modules['pkg.sub'])
""",
    files={
        'namer.py': '{COOKIE}\nlazy from pkg.sub import Z\nlazy import pkg.deep.leaf\n',
    },
)

case(
    'submodule_through_parent_mode_all',
    """\
import probe, sys
import pkg
print(pkg.__name__, probe.loaded())
import namer_plain
print(namer_plain.__name__, probe.loaded())
print(pkg.sub.Z, probe.loaded())
print(pkg.deep.leaf.L, probe.loaded())
""",
    files={
        'namer_plain.py': 'from pkg.sub import Z\nimport pkg.deep.leaf\n',
    },
    env={'PYTHON_LAZY_IMPORTS': 'all'},
)

# attrs' suite, with cloudpickle: a module with lazy names left is exactly a
# module (tools dispatch on the exact type); getattr and hasattr reify, the
# dict's own methods do not
case(
    'module_type_with_lazy_names',
    """\
import importlib, io, pickle, probe, types
import holder
print(type(holder) is types.ModuleType, type(holder).__name__, probe.kind(vars(holder), 'heavy'))

class ByReference(pickle.Pickler):
    dispatch_table = {types.ModuleType: lambda m: (importlib.import_module, (m.__name__,))}

buf = io.BytesIO()
ByReference(buf).dump([holder, holder.use])
print(pickle.loads(buf.getvalue())[0] is holder, probe.loaded())
try:
    pickle.dumps(holder)
except TypeError as e:
    print('pickle:', e)
d = vars(holder)
print(probe.kind(d, 'heavy'), type(d.get('heavy')).__name__, probe.kind(d, 'heavy'), probe.loaded())
print(hasattr(holder, 'heavy'), probe.kind(d, 'heavy'), probe.loaded())
print(getattr(holder, 'Y'), probe.kind(d, 'Y'))
name = 'pkg'
g = getattr
print(type(g(holder, name)).__name__, probe.kind(d, 'pkg'), type(holder).__name__)
""",
    files={
        'holder.py': '{COOKIE}\nlazy import heavy\nlazy from other import Y\nlazy import pkg\ndef use():\n    return heavy\n',
    },
)

# pytest under mode "all" (on 3.15 too): a lazy name loaded while its own
# reification runs, in the same thread, is 3.15's ImportCycleError
case(
    'import_cycle_error',
    """\
import cyc1
print(cyc1.use_from())
print(cyc1.use_module().__name__)
print(ImportCycleError.__mro__[1].__name__, ImportCycleError.__module__, ImportCycleError.__doc__)
""",
    files={
        'cyc1.py': '{COOKIE}\nlazy from cyc2 import g\nlazy import cyc3\ndef use_from():\n    return g()\ndef use_module():\n    return cyc3\n',
        'cyc2.py': """import cyc1
try:
    cyc1.use_from()
except ImportError as e:
    print('in cyc2:', type(e).__name__, e, e.name, e.path, getattr(e, '__notes__', None), repr(e.__cause__))
def g():
    return 'g'
""",
        'cyc3.py': """import cyc1
try:
    raise KeyError('k')
except KeyError:
    try:
        cyc1.use_module()
    except ImportError as e:
        print('in cyc3:', type(e).__name__, e, e.name, getattr(e, '__notes__', None), repr(e.__context__))
""",
    },
)

# jinja2's suite under mode "all" on 3.12: a lazy name first used in an
# atexit callback (the rebuild thread cannot start then) hung at exit
case(
    'first_use_at_exit',
    """\
import atexit
lazy import heavy
atexit.register(lambda: print('at exit:', heavy.X))
print('main done')
""",
)

# cachetools' suite under mode "all" on 3.14: warnings, whose attributes the
# C warnings module reads
case(
    'warnings_in_mode_all',
    """\
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    warnings.warn('hello', DeprecationWarning)
print('recorded', len(w), w[0].category.__name__)
""",
    env={'PYTHON_LAZY_IMPORTS': 'all'},
)

# jsonschema under mode "all": `lazy from pkg import sub` (a submodule) must
# not call pkg's module __getattr__, which may use names still resolving
case(
    'lazy_from_package_submodule_no_getattr',
    """\
import jpkg
print(jpkg.Y)
""",
    files={
        'jpkg/__init__.py': """{COOKIE}
lazy from jpkg.sub import X
lazy from jpkg.user import Y
def __getattr__(name):
    print(f'jpkg.__getattr__({name!r}) called')
    raise AttributeError(name)
""",
        'jpkg/sub.py': 'X = 1\n',
        'jpkg/user.py': '{COOKIE}\nlazy from jpkg import sub\nY = sub.X\n',
    },
)

# pip's vendored truststore and toolz under mode "all": a package running
# `lazy from ._sub import x` has no name `_sub` bound (3.15 binds nothing in
# a package still running)
case(
    'package_running_binds_no_submodule_name',
    """\
import dpkg
print(dpkg.f())
""",
    files={
        'dpkg/__init__.py': "{COOKIE}\nlazy from ._api import f\nprint('_api' in globals())\ntry:\n    del _api\nexcept NameError as e:\n    print('NameError', e)\n",
        'dpkg/_api.py': 'def f():\n    return 1\n',
    },
)

# dill under mode "all" on 3.9 and 3.10: in a module with over 256 names,
# a load's name index needs an EXTENDED_ARG prefix, where those versions
# leave f_lasti; `hasattr(dataclasses, 'MISSING')` got the lazy object
case(
    'load_in_module_of_many_names',
    ''.join(f'v{i} = {i}\n' for i in range(300))
    + """\
lazy import heavy
lazy from other import Y
print(hasattr(heavy, 'X'), type(heavy).__name__, Y, v299)
""",
)

# tkinter under mode "all" on 3.13: a module-level comprehension over
# globals().items() whose body first uses a lazy name of that module; the
# name's entry must stay where it is (3.15 replaces the value in place)
case(
    'reify_while_iterating_own_globals',
    """\
import probe
lazy import types
lazy from other import Y
A = 1
__all__ = [name for name, obj in globals().items()
           if not name.startswith('_') and not isinstance(obj, types.ModuleType)]
print(__all__)
print([(k, type(v).__name__) for k, v in globals().items() if not k.startswith('_')])
for name, obj in list(globals().items()):
    pass
seen = [name for name in globals() if name == 'Y' or (name == 'A' and Y)]
print(seen, probe.kind(globals(), 'Y'), probe.loaded())
""",
)

# the name reified in place inside that loop keeps its place in the dict
# once no loop runs (3.15 only replaces the value; the backport's rebuilder
# made the key plain by delete and insert, which moved it to the end: seen as
# a flaky reify_while_iterating_own_globals on a loaded machine)
case(
    'reified_in_loop_keeps_its_place',
    """\
import time
lazy import types
A = 1
names = [name for name, value in globals().items() if not isinstance(value, types.ModuleType)]
time.sleep(0.3)  # (the backport's rebuilder thread: its rounds are 1-20 ms)
print([name for name in globals() if not name.startswith('__')])
print(type(types).__name__, type(globals()['types']).__name__)
""",
)

# pycparser under mode "all": `from .c_parser import CParser` in a package's
# __init__; once the package is imported, `pycparser.c_parser` imports the
# submodule (3.15 attaches it when the package is done, not while it runs)
case(
    'package_done_attaches_submodule',
    """\
import probe, sys
import rpkg
print(rpkg.c_mod.__name__)
print(rpkg.C, sorted(n for n in dir(rpkg) if not n.startswith('_')))
import importlib
rpkg2 = importlib.import_module('rpkg2')   # an eager import, even in mode "all"
print(rpkg2.sub.V, rpkg2.D)
rpkg3 = importlib.import_module('rpkg3')
print(rpkg3.c_mod3.__name__, rpkg3.C)
""",
    files={
        'rpkg3/__init__.py': '{COOKIE}\nlazy from .c_mod3 import C\n',
        'rpkg3/c_mod3.py': 'C = 4\n',
        'rpkg/__init__.py': "{COOKIE}\nlazy from .c_mod import C\nprint('c_mod' in globals(), 'C' in globals())\n",
        'rpkg/c_mod.py': "print('import c_mod')\nC = 1\n",
        'rpkg2/__init__.py': 'from .sub import D\n',
        'rpkg2/sub.py': 'V = 2\nD = 3\n',
    },
    env={'PYTHON_LAZY_IMPORTS': 'all'},
)

# trio under mode "all" (pytest, 3.12): fixup_module_metadata iterates
# another module's dict over several thread switches; the keys that module's
# first uses settled must not move under it
case(
    'slow_iteration_over_module_dict',
    """\
import time
import itermod
seen = []
for name, obj in vars(itermod).items():
    time.sleep(0.002)   # thread switches: the rebuilder runs
    seen.append(name)
# (sorted: the pure runtime moves a used name to the end: see first_use_keeps_dict_order)
print(sorted(n for n in seen if not n.startswith('__')))
print(itermod.heavy.X, itermod.Y)
""",
    files={
        'itermod.py': '{COOKIE}\nlazy import heavy\nlazy from other import Y\nlazy import json\n'
        "A = heavy.X\nB = Y\nfor k in ('a', 'b'):\n    C = json.dumps(k)\n",
    },
)

# click's own test_light_imports, lazified or in mode "all": a replaced
# builtins.__import__ that reads its third argument (locals) when truthy
case(
    'replaced_import_sees_reification_locals',
    """\
import builtins
real_import = builtins.__import__
seen = []
def tracking_import(name, globals=None, locals=None, fromlist=(), level=0):
    if name in ('heavy', 'other'):
        seen.append((name, type(locals).__name__, bool(locals), locals and locals['__name__'],
                     locals and 'seen' in locals, (globals or {}).get('__name__'), fromlist, level))
    return real_import(name, globals, locals, fromlist, level)
lazy import heavy
lazy from other import Y
builtins.__import__ = tracking_import
print(heavy.X, Y)
builtins.__import__ = real_import
for entry in seen:
    print(entry)
""",
)

# the same from the other side: a loop in another module iterates a module's
# dict while that module's names are first used inside a dict loop of its own
case(
    'first_use_in_dict_loops_of_two_modules',
    """\
import time
import loopmod
seen = []
for name, obj in vars(loopmod).items():
    if name == 'run':
        obj()           # loopmod's own loop over its globals first-uses its names
    time.sleep(0.002)   # thread switches: the rebuilder runs
    seen.append(name)
print(sorted(n for n in seen if not n.startswith('__')))
print(loopmod.heavy.X, loopmod.Y, loopmod.found)
""",
    files={
        'loopmod.py': '{COOKIE}\nlazy import heavy\nlazy from other import Y\nfound = []\n'
        'def run():\n    for k, v in list(globals().items()):\n'
        "        if k in ('heavy', 'Y'):\n            found.append((k, heavy.X, Y))\n",
    },
)


# issue 30, family 2: a function iterates a module's dict while a call it
# makes first uses that module's lazy names (the entry was deleted and
# inserted again: "dictionary keys changed during iteration", or an item
# seen twice and another never); the names keep their places, and the
# module's last first use (its dict re-made) must not disturb the loop
# either, with a deleted name in the dict (walked) or without (compact)
_WALKED = (
    '{COOKIE}\nlazy import json\nlazy from other import Y\nA = 1\n_gone = 0\ndel _gone\n'
    'def use():\n    return json.dumps(Y)\nB = 2\n'
)
_WALK = """\
import time
import {lib} as lib
def walk(items):
    out = []
    for name, value in items:
        if name == 'use':
            out.append(value())
        time.sleep(0.002)   # thread switches: the rebuilder runs
        out.append(name)
    return out
print([n for n in walk(vars(lib).items()) if not n.startswith('__')])
print([n for n in vars(lib) if not n.startswith('__')])
print([type(k).__name__ for k in vars(lib) if k in ('json', 'Y')])
print(sum(1 for name in vars(lib) if lib.use() and not name.startswith('__')))
"""
case(
    'first_use_under_iteration_in_caller',
    _WALK.format(lib='walked'),
    files={'walked.py': _WALKED},
)
case(
    'first_use_under_iteration_in_caller_compact',
    _WALK.format(lib='compact'),
    files={'compact.py': _WALKED.replace('_gone = 0\ndel _gone\n', '')},
)
case(
    'first_use_under_iteration_in_caller_mode_all',
    _WALK.format(lib='walked'),
    files={'walked.py': _WALKED.replace('{COOKIE}\n', '').replace('lazy ', '')},
    env={'PYTHON_LAZY_IMPORTS': 'all'},
)

# a name's first use leaves it where it was in its module's dict (3.15
# replaces the value only), whether it is used from the module's own code,
# from another module, or as an attribute
case(
    'first_use_keeps_dict_order',
    """\
import ordered
print([n for n in vars(ordered) if not n.startswith('__')])
ordered.use()
print(ordered.json.dumps(1), ordered.Y)
print([n for n in vars(ordered) if not n.startswith('__')])
""",
    files={
        'ordered.py': '{COOKIE}\nlazy import json\nlazy from other import Y\nlazy import heavy\nA = 1\n'
        'def use():\n    return heavy.X\nB = 2\n'
    },
)

# mode "all" (the framework scenarios): 3.15 makes the binding of a future
# statement lazy too (the feature takes effect; `__future__` is not
# imported); here the statement stays as written, for the compiler, and
# binds the feature eagerly: a documented difference
case(
    'mode_all_future_statement_binding',
    """\
from __future__ import annotations
import sys
def f(x: Undefined):
    pass
print(f.__annotations__)
print(type(globals()['annotations']).__name__)
print(annotations.compiler_flag > 0, type(globals()['annotations']).__name__)
""",
    env={'PYTHON_LAZY_IMPORTS': 'all'},
)
# SQLAlchemy under mode "all": sqlalchemy.sql's first import failed after its
# submodule `annotation` was imported; the package imported again, a
# submodule's `from . import annotation` (lazy) found the module in
# sys.modules, and 3.15's lookup of the named submodule set it on the new
# package (importlib sets it only on the package it imports it for)
_REIMPORTED = {
    'rp/__init__.py': (
        'import rp_count\n'
        'from rp.elements import E\n'
        'from rp import functions\n'
        'E\n'
        'rp_count.n += 1\n'
        'if rp_count.n == 1:\n'
        "    raise RuntimeError('first import fails')\n"
        'F = functions.F\n'
    ),
    'rp_count.py': 'n = 0\n',
    'rp/annotation.py': 'A = 1\n',
    'rp/elements.py': 'from rp.annotation import A\nE = A\n',
    'rp/functions.py': 'from . import annotation\nF = annotation.A + 1\n',
}
case(
    'submodule_set_on_reimported_package_mode_all',
    """\
import sys
try:
    import rp
except RuntimeError as e:
    print(e)
try:
    import rp
except RuntimeError as e:
    print('again', e)
print(rp.F, sorted(k for k in vars(rp) if not k.startswith('_')))
""",
    files=_REIMPORTED,
    env={'PYTHON_LAZY_IMPORTS': 'all'},
)
case(
    'submodule_set_on_reimported_package',
    """\
import sys
try:
    import rp
except RuntimeError as e:
    print(e)
try:
    import rp
except RuntimeError as e:
    print('again', e)
print(rp.F, sorted(k for k in vars(rp) if not k.startswith('_')))
""",
    files={
        'rp/__init__.py': '{COOKIE}\n' + _REIMPORTED['rp/__init__.py'].replace('\nfrom rp', '\nlazy from rp'),
        'rp_count.py': _REIMPORTED['rp_count.py'],
        'rp/annotation.py': _REIMPORTED['rp/annotation.py'],
        'rp/elements.py': '{COOKIE}\nlazy ' + _REIMPORTED['rp/elements.py'],
        'rp/functions.py': '{COOKIE}\nlazy ' + _REIMPORTED['rp/functions.py'],
    },
)

# found by the property test on 3.10: a lazy statement that binds a name a
# plain binding holds (`x = 0`, then `lazy from m import y as x`) must leave a
# key whose loads resolve (3.9-3.10: a table of str keys only is looked up
# without calling a key's __eq__; the key was put in place there)
case(
    'lazy_binding_over_plain_name',
    """\
x = 0
y = 1
lazy from decimal import Decimal as x
lazy import json as y
def f():
    return type(x).__name__
print(type(globals()['x']).__name__, type(globals()['y']).__name__)
x
print(f(), type(globals()['x']).__name__, [type(v).__name__ for v in (y,)])
""",
)
