"""Differential cases about faults at run time (case_table.py has the format)."""

from case_table import CaseTable

CASES = CaseTable()
case = CASES.add

# -- reification failures of every kind, each used twice -----------------------
# `twice(module, bound, use, catch)`: calls `use` (which loads the lazy name
# `bound` of main) twice, and after each attempt prints the error, which
# modules of `module`'s top-level name are in sys.modules and in
# sys.lazy_modules, and what main's binding is
_TWICE = """\
import probe, sys
_frames = probe.frames  # importlib's own frames differ by version: left out
probe.frames = lambda exc: [f for f in _frames(exc) if not f.startswith('<frozen')]
def state(module, bound):
    top = module.split('.')[0]
    print('  sys.modules:', sorted(m for m in sys.modules if m.split('.')[0] == top),
          'lazy_modules:', sorted(m for m in sys.lazy_modules if m.split('.')[0] == top),
          'binding:', probe.kind(globals(), bound))
def twice(module, bound, use, catch):
    for attempt in range(2):
        try:
            value = use()
        except catch as e:
            print('attempt', attempt)
            probe.describe(e)
        else:
            print('attempt', attempt, 'got', value)
        state(module, bound)
"""

case(
    'reify_fail_import_error_raised',
    _TWICE
    + """\
lazy import raises_ie
lazy from raises_ie import thing
twice('raises_ie', 'raises_ie', lambda: raises_ie, ImportError)
twice('raises_ie', 'thing', lambda: thing, ImportError)
""",
    files={'raises_ie.py': "print('import raises_ie')\nraise ImportError('custom')\n"},
)

case(
    'reify_fail_nested_module_not_found',
    _TWICE
    + """\
lazy import nests
lazy from nests import N
def use():
    return nests.N
twice('nests', 'nests', use, ImportError)
twice('nests', 'N', lambda: N, ModuleNotFoundError)
print('nosuch_inner_q' in sys.modules)
""",
    files={'nests.py': "print('import nests')\nimport nosuch_inner_q\nN = 1\n"},
)

case(
    'reify_fail_module_raises',
    _TWICE
    + """\
lazy from broken import x
lazy import broken as b
twice('broken', 'x', lambda: x, ZeroDivisionError)
twice('broken', 'b', lambda: b.x, ArithmeticError)
""",
)

case(
    'reify_fail_missing_attribute',
    _TWICE
    + """\
lazy from heavy import nope, X
lazy from pkg import nosub
twice('heavy', 'nope', lambda: nope, ImportError)
print(X)
twice('pkg', 'nosub', lambda: nosub, ImportError)
""",
)

case(
    'reify_fail_module_getattr_raises',
    _TWICE
    + """\
lazy from noattr import missing
lazy from weird_getattr import value, other_value
twice('noattr', 'missing', lambda: missing, ImportError)
twice('weird_getattr', 'value', lambda: value, RuntimeError)
print(other_value)
""",
    files={
        'weird_getattr.py': (
            "print('import weird_getattr')\n"
            'def __getattr__(name):\n'
            "    if name == 'value':\n"
            "        raise RuntimeError(f'__getattr__ for {name}')\n"
            "    return f'computed {name}'\n"
        )
    },
)

case(
    'reify_fail_system_exit',
    _TWICE
    + """\
lazy import exits
lazy from exits import CODE
twice('exits', 'exits', lambda: exits, SystemExit)
twice('exits', 'CODE', lambda: CODE, SystemExit)
print('still running')
""",
    files={'exits.py': "print('import exits')\nimport sys\nsys.exit(3)\nCODE = 3\n"},
)

case(
    'reify_fail_keyboard_interrupt',
    _TWICE
    + """\
lazy import interrupts
def use():
    return interrupts.I
twice('interrupts', 'interrupts', use, KeyboardInterrupt)
print('still running')
""",
    files={
        'interrupts.py': "print('import interrupts')\nraise KeyboardInterrupt('from the module')\nI = 1\n"
    },
)

case(
    'reify_fail_then_fixed',
    _TWICE
    + """\
import builtins
lazy import flaky
builtins.flaky_fail = True
twice('flaky', 'flaky', lambda: flaky.F, ValueError)
builtins.flaky_fail = False
twice('flaky', 'flaky', lambda: flaky.F, ValueError)
""",
    files={
        'flaky.py': "print('import flaky')\nimport builtins\nif builtins.flaky_fail:\n    raise ValueError('flaky failed')\nF = 'fixed'\n"
    },
)

# how often a module's __getattr__ runs when a `lazy from` name is reified
# (3.15 asks a module's __getattr__ for __path__ more often than an eager
# `from m import x` does: a detail of its C code, not compared here)


case(
    'circular_cookie_modules',
    """\
import probe, sys
import ca
print('after import ca:', sorted(m for m in ('ca', 'cb') if m in sys.modules), probe.kind(vars(ca), 'cb'), probe.kind(vars(ca), 'b_func'))
print(ca.a_func(5))
print(sorted(m for m in ('ca', 'cb') if m in sys.modules), probe.kind(vars(ca), 'cb'), probe.kind(vars(ca), 'b_func'))
import cb
print(probe.kind(vars(cb), 'ca'), probe.kind(vars(cb), 'a_func'), cb.b_other(), ca.a_other())
print(probe.kind(vars(cb), 'ca'), probe.kind(vars(cb), 'a_func'), probe.kind(vars(ca), 'cb'))
print(cb.ca is ca, ca.cb is cb, cb.a_func is ca.a_func, ca.b_func is cb.b_func)
import cc
print(cc.TOP, cc.cd.FROM_C, probe.kind(vars(cc), 'cd'))
""",
    files={
        'ca.py': """{COOKIE}
print('import ca')
lazy import cb
lazy from cb import b_func
def a_func(n):
    return 'a' + (b_func(n - 1) if n else '')
def a_other():
    return cb.B_CONST
A_CONST = 'A'
""",
        'cb.py': """{COOKIE}
print('import cb')
lazy import ca
lazy from ca import a_func
def b_func(n):
    return 'b' + (a_func(n - 1) if n else '')
def b_other():
    return ca.A_CONST
B_CONST = 'B'
""",
        # a cycle used at module level: cc, half initialized, is used by cd
        'cc.py': """{COOKIE}
print('import cc')
lazy import cd
C_EARLY = 'early'
TOP = 'top:' + cd.FROM_C
""",
        'cd.py': """{COOKIE}
print('import cd')
lazy from cc import C_EARLY
lazy import cc
import sys
print('  cd sees cc initializing:', 'cc' in sys.modules, type(globals()['cc']).__name__)
FROM_C = C_EARLY + '/' + cc.C_EARLY
""",
    },
)

case(
    'circular_package_init',
    """\
import probe, sys
import cpkg
print('after import:', probe.loaded(), sorted(m for m in sys.modules if m.startswith('cpkg')))
print(probe.kind(vars(cpkg), 'm1'), probe.kind(vars(cpkg), 'helper'), probe.kind(vars(cpkg), 'm3'))
try:
    print(cpkg.run())
except RecursionError as e:
    print('run:', type(e).__name__)
print(sorted(m for m in sys.modules if m.startswith('cpkg')))
print(probe.kind(vars(cpkg), 'm1'), probe.kind(vars(cpkg), 'helper'), probe.kind(vars(cpkg), 'm3'))
from cpkg import m2, m4
print(m2.helper(), m4.D)
print(cpkg.m1 is sys.modules['cpkg.m1'], cpkg.m3 is sys.modules['cpkg.m3'], cpkg.helper is m2.helper)
""",
    files={
        'cpkg/__init__.py': """{COOKIE}
print('import cpkg')
lazy from . import m1
lazy from .m2 import helper
lazy from cpkg import m3
lazy import cpkg.m4
NAME = 'cpkg'
def run():
    return m1.f(), helper(), m3.g(), cpkg.m4.D
print('cpkg initialized')
""",
        'cpkg/m1.py': "import cpkg\nprint('import cpkg.m1, cpkg.NAME =', cpkg.NAME)\ndef f():\n    return 'm1:' + cpkg.NAME\n",
        'cpkg/m2.py': "from cpkg import NAME\nprint('import cpkg.m2')\ndef helper():\n    return 'm2:' + NAME\n",
        'cpkg/m3.py': "import cpkg.m1\nimport cpkg\nprint('import cpkg.m3')\ndef g():\n    return 'm3:' + cpkg.m1.f()\n",
        'cpkg/m4.py': "{COOKIE}\nlazy import cpkg\nprint('import cpkg.m4')\nD = 'm4'\n",
    },
)

# the same with the submodules bound under other names
case(
    'circular_package_init_aliased',
    """\
import probe, sys
import apkg
print('after import:', probe.loaded(), sorted(m for m in sys.modules if m.startswith('apkg')))
print(probe.kind(vars(apkg), '_m1'), probe.kind(vars(apkg), 'helper'), probe.kind(vars(apkg), '_m3'))
print(apkg.run())
print(sorted(m for m in sys.modules if m.startswith('apkg')))
print(probe.kind(vars(apkg), '_m1'), probe.kind(vars(apkg), 'helper'), probe.kind(vars(apkg), '_m3'))
from apkg import m2, m4
print(m2.helper(), m4.D)
print(apkg.m1 is sys.modules['apkg.m1'], apkg.m3 is sys.modules['apkg.m3'], apkg.helper is m2.helper)
""",
    files={
        'apkg/__init__.py': """{COOKIE}
print('import apkg')
lazy from . import m1 as _m1
lazy from .m2 import helper
lazy from apkg import m3 as _m3
lazy import apkg.m4
NAME = 'apkg'
def run():
    return _m1.f(), helper(), _m3.g(), apkg.m4.D
print('apkg initialized')
""",
        'apkg/m1.py': "import apkg\nprint('import apkg.m1, apkg.NAME =', apkg.NAME)\ndef f():\n    return 'm1:' + apkg.NAME\n",
        'apkg/m2.py': "from apkg import NAME\nprint('import apkg.m2')\ndef helper():\n    return 'm2:' + NAME\n",
        'apkg/m3.py': "import apkg.m1\nimport apkg\nprint('import apkg.m3')\ndef g():\n    return 'm3:' + apkg.m1.f()\n",
        'apkg/m4.py': "{COOKIE}\nlazy import apkg\nprint('import apkg.m4')\nD = 'm4'\n",
    },
)

# a package binding its own submodule lazily under the submodule's name
case(
    'package_init_lazy_from_own_submodule',
    """\
import probe, ppkg
print(probe.kind(vars(ppkg), 'sub'), probe.kind(vars(ppkg), 'leaf'))
try:
    print(ppkg.get())
except RecursionError as e:
    print('get:', type(e).__name__)
print(probe.kind(vars(ppkg), 'sub'), probe.kind(vars(ppkg), 'leaf'))
try:
    from ppkg import leaf
    print(leaf.L)
except RecursionError as e:
    print('from ppkg import leaf:', type(e).__name__)
print(probe.kind(vars(ppkg), 'sub'), probe.kind(vars(ppkg), 'leaf'))
""",
    files={
        'ppkg/__init__.py': '{COOKIE}\nlazy from . import sub\nlazy from ppkg import leaf\ndef get():\n    return sub.S\n',
        'ppkg/sub.py': "print('import ppkg.sub')\nS = 'S'\n",
        'ppkg/leaf.py': "print('import ppkg.leaf')\nL = 'L'\n",
    },
)

# -- reload, sys.modules surgery, copy and pickle, gc, fork, tracing -------------
case(
    'reload_cookie_module',
    """\
import importlib, probe, sys
import rmod
def show(label):
    ns = vars(rmod)
    print(label, probe.kind(ns, 'heavy'), probe.kind(ns, 'Y'), probe.kind(ns, 'sub'), probe.kind(ns, 'f'),
          'runs', rmod.RUNS, type(rmod).__name__, probe.loaded())
show('imported')
r = importlib.reload(rmod)
print(r is rmod, r is sys.modules['rmod'])
show('reloaded before use')
print(rmod.get())
show('used')
importlib.reload(rmod)
show('reloaded after use')
print(rmod.get(), rmod.heavy is sys.modules['heavy'])
show('used again')
""",
    files={
        'rmod.py': """{COOKIE}
import builtins
builtins.rmod_runs = getattr(builtins, 'rmod_runs', 0) + 1
RUNS = builtins.rmod_runs
lazy import heavy
lazy from other import Y
lazy from pkg import sub
lazy from heavy import f
def get():
    return heavy.X, Y, sub.Z, f()
"""
    },
)

case(
    'del_sys_modules_then_use',
    """\
import probe, sys
lazy import heavy
lazy from other import Y
lazy from pkg import sub
lazy import pkg.sub2 as s2
first = __import__('heavy')
__import__('pkg.sub')
__import__('other')
print(probe.loaded(), probe.kind(globals(), 'heavy'), probe.kind(globals(), 'Y'), probe.kind(globals(), 'sub'))
for name in ('heavy', 'other', 'pkg.sub', 'pkg'):
    del sys.modules[name]
print(probe.loaded())
print(heavy.X, heavy is first, heavy is sys.modules['heavy'])
print(Y, probe.loaded())
print(sub.Z, sub is sys.modules['pkg.sub'], probe.loaded())
print(s2.W, probe.loaded(), probe.lazy_mods())
del sys.modules['heavy']
print(heavy.X, probe.kind(globals(), 'heavy'), 'heavy' in sys.modules)
""",
)

case(
    'copy_and_pickle_reified',
    """\
import copy, pickle, probe, sys
lazy import shapes
lazy from shapes import Point, make, Registry
lazy from shapes import TAG as tag
p = Point(1, 2)
print(probe.kind(globals(), 'Point'), probe.kind(globals(), 'shapes'), probe.kind(globals(), 'make'))
c = copy.copy(p)
d = copy.deepcopy([p, p])
print(c == p, c is not p, type(c) is Point, d[0] is d[1], d[0] == p)
for proto in range(pickle.HIGHEST_PROTOCOL + 1):
    q = pickle.loads(pickle.dumps(p, proto))
    assert q == p and type(q) is Point, proto
print('pickled Point with every protocol')
print(pickle.loads(pickle.dumps(Point)) is Point, pickle.loads(pickle.dumps(make)) is make)
print(pickle.loads(pickle.dumps(make(3))) == make(3))
print(copy.deepcopy(Registry) is Registry, copy.deepcopy(tag) == tag, copy.copy(make) is make)
r = Registry()
r.items.append(p)
r2 = pickle.loads(pickle.dumps(r))
print(r2.items == [p], type(r2).__module__, probe.kind(globals(), 'Registry'), probe.kind(globals(), 'tag'))
def uses():
    return Point(5, 6)
print(pickle.loads(pickle.dumps(uses)) is uses, uses() == Point(5, 6))
for fn in (pickle.dumps, copy.copy, copy.deepcopy):
    try:
        fn(shapes)
    except TypeError as e:
        print('module:', fn.__name__, e)
""",
    files={
        'shapes.py': """print('import shapes')
TAG = ('t', [1, 2])
class Point:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __eq__(self, other):
        return type(other) is Point and (self.x, self.y) == (other.x, other.y)
def make(n):
    return Point(n, n)
class Registry:
    def __init__(self):
        self.items = []
"""
    },
)

case(
    'pickle_and_copy_unresolved',
    """\
import copy, pickle, probe
lazy import heavy
lazy from other import Y
lazy import pkg.sub
# the lazy objects are reached through globals() only: a load of a global
# that holds one reifies it on 3.15 (see lazy_object_under_other_name)
for name in ('heavy', 'Y', 'pkg'):
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        try:
            pickle.dumps(globals()[name], proto)
        except TypeError as e:
            print(name, proto, e)
        else:
            print(name, proto, 'pickled!')
    for fn in (copy.copy, copy.deepcopy):
        try:
            print(name, fn.__name__, type(fn(globals()[name])).__name__)
        except TypeError as e:
            print(name, fn.__name__, 'TypeError', e)
try:
    copy.deepcopy({'held': globals()['heavy']})
except TypeError as e:
    print('in a dict:', e)
try:
    pickle.dumps([globals()['Y']])
except TypeError as e:
    print('in a list:', e)
print(probe.loaded(), probe.kind(globals(), 'heavy'), probe.kind(globals(), 'Y'), probe.kind(globals(), 'pkg'))
""",
)

# a lazy object bound to a second global name, and what loads of that name do
case(
    'lazy_object_under_other_name',
    """\
import probe
lazy import heavy
lazy from other import Y
alias = globals()['heavy']
print(probe.kind(globals(), 'alias'), probe.loaded())
print('load alias:', type(alias).__name__, probe.loaded())
print(probe.kind(globals(), 'alias'), probe.kind(globals(), 'heavy'))
def g():
    global alias2
    alias2 = globals()['Y']
    return alias2
print(type(g()).__name__, probe.kind(globals(), 'alias2'), probe.kind(globals(), 'Y'), probe.loaded())
""",
)

# sys.lazy_modules when the modules are imported by other means
case(
    'lazy_modules_after_eager_import',
    """\
import probe, sys
lazy import heavy
lazy from other import Y
lazy import pkg.sub
lazy from pkg import sub2
print(probe.lazy_mods())
__import__('heavy')
print('heavy imported', probe.lazy_mods())
import other
print('other imported', probe.lazy_mods())
import pkg.sub2
print('pkg.sub2 imported', probe.lazy_mods())
del sys.modules['heavy']
print('heavy deleted', probe.lazy_mods(), probe.kind(globals(), 'heavy'))
""",
)

case(
    'gc_drops_module_with_lazy_names',
    """\
import gc, probe, sys, weakref
import gcmod
ref = weakref.ref(gcmod)
get = gcmod.get
print(type(gcmod).__name__, probe.kind(vars(gcmod), 'heavy'), probe.kind(vars(gcmod), 'Y'))
del sys.modules['gcmod'], gcmod
gc.collect()
print('module collected:', ref() is None)
print(probe.loaded())
print(get(), probe.loaded())
print(probe.kind(get.__globals__, 'heavy'), probe.kind(get.__globals__, 'Y'), probe.kind(get.__globals__, 'unused'))
import gcmod2
ref2 = weakref.ref(gcmod2)
ns_ref = weakref.ref(gcmod2.Holder)
del sys.modules['gcmod2'], gcmod2
gc.collect()
print('module and its class collected:', ref2() is None, ns_ref() is None)
print(probe.loaded(), probe.lazy_mods())
""",
    files={
        'gcmod.py': '{COOKIE}\nlazy import heavy\nlazy from other import Y\nlazy import pkg.sub as unused\ndef get():\n    return heavy.X, Y\n',
        'gcmod2.py': '{COOKIE}\nlazy import heavy\nlazy from pkg import sub\nclass Holder:\n    pass\n',
    },
)

case(
    'fork_after_partial_reification',
    """\
import os, sys, probe
lazy import heavy
lazy from other import Y
lazy from pkg import sub
print(heavy.X, probe.loaded())
if hasattr(os, 'fork'):
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        print('child:', Y, sub.Z, probe.loaded(), probe.kind(globals(), 'Y'), probe.kind(globals(), 'sub'))
        sys.stdout.flush()
        os._exit(7)
    _, status = os.waitpid(pid, 0)
    print('parent: child exit', os.WEXITSTATUS(status) if os.WIFEXITED(status) else status)
else:
    print('child:', Y, sub.Z, probe.loaded(), probe.kind(globals(), 'Y'), probe.kind(globals(), 'sub'))
    print('parent: child exit', 7)
print('parent:', probe.loaded(), probe.kind(globals(), 'Y'), probe.kind(globals(), 'sub'))
print(Y, sub.Z, probe.loaded())
""",
)

case(
    'trace_and_profile_during_reification',
    """\
import os, sys, threading, probe
lazy import heavy
lazy from other import Y
lazy from pkg import sub
calls = []
lines = []
def tracer(frame, event, arg):
    name = os.path.basename(frame.f_code.co_filename)
    if event == 'call':
        calls.append((frame.f_code.co_name, name))
    if name == 'heavy.py':
        def local(frame, event, arg):
            if event == 'line':
                lines.append(frame.f_lineno)
            return local
        return local
    return None
sys.settrace(tracer)
x = heavy.X
sys.settrace(None)
print('settrace:', x, probe.kind(globals(), 'heavy'), ('<module>', 'heavy.py') in calls)
print('  heavy.py calls:', sorted(set(c for c in calls if c[1] == 'heavy.py')), 'lines:', sorted(set(lines)))
print('  tracer still off:', sys.gettrace() is None)
events = []
def profiler(frame, event, arg):
    events.append((event, frame.f_code.co_name, os.path.basename(frame.f_code.co_filename)))
sys.setprofile(profiler)
y = Y
sys.setprofile(None)
print('setprofile:', y, probe.kind(globals(), 'Y'), ('call', '<module>', 'other.py') in events, ('return', '<module>', 'other.py') in events)
print('  other.py events:', sorted(set(e for e in events if e[2] == 'other.py')))
seen = []
threading.settrace(lambda frame, event, arg: seen.append((frame.f_code.co_name, os.path.basename(frame.f_code.co_filename))))
def worker():
    seen.append(('z', sub.Z))
t = threading.Thread(target=worker)
t.start(); t.join()
threading.settrace(None)
print('thread trace:', ('<module>', 'sub.py') in seen, ('z', 3) in seen, probe.kind(globals(), 'sub'), probe.loaded())
""",
)

# -- names that the runtime might use, defined by the user's module ---------------
# (`__lazy_codec_abi1__` is the one name the backport reserves: the rewritten
# statements bind it; no case defines it)
case(
    'user_globals_shadow_runtime_names',
    """\
import probe
import shadows
print(shadows.use())
print(probe.loaded())
print(shadows.report())
""",
    files={
        'shadows.py': """{COOKIE}
sys = 'my sys'
str = lambda *a: 'my str'
dict = lambda *a: 'my dict'
exec = lambda *a: 'my exec'
compile = lambda *a: 'my compile'
getattr = lambda *a: 'my getattr'
type = lambda *a: 'my type'
isinstance = lambda *a: 'my isinstance'
next = lambda *a: 'my next'
object = 'my object'
def __import__(*args, **kwargs):
    raise RuntimeError('my __import__ called')
lazy import heavy
lazy from other import Y
lazy import pkg.sub
lazy from pkg.deep import leaf as lf
def use():
    return heavy.X, Y, pkg.sub.Z, lf.L
def report():
    return sys, str(), dict(), exec(), compile(), getattr(), type(), isinstance(), next(), object
"""
    },
)

case(
    'user_replaces_builtins_with_dict',
    """\
import probe
import ownbuiltins
print(probe.loaded(), ownbuiltins.kinds)
print(ownbuiltins.use(), probe.loaded())
print(ownbuiltins.kinds_after())
print(ownbuiltins.LATE, type(ownbuiltins.__builtins__).__name__)
""",
    files={
        'ownbuiltins.py': """{COOKIE}
import builtins
__builtins__ = dict(vars(builtins))
lazy import heavy
lazy from other import Y
lazy from pkg import sub
kinds = [type(globals()[n]).__name__ for n in ('heavy', 'Y', 'sub')]
def use():
    return heavy.X, Y, sub.Z
def kinds_after():
    return [type(globals()[n]).__name__ for n in ('heavy', 'Y', 'sub')]
lazy import colorsys
LATE = colorsys.__name__
"""
    },
)

# a builtins.__import__ hook: what it sees at lazy statements and first uses
case(
    'builtins_import_hook_during_lazy',
    """\
import builtins, importlib.util, os, sys
real = builtins.__import__
seen = []
def hook(name, globals=None, locals=None, fromlist=(), level=0):
    seen.append((phase, name, tuple(fromlist or ()), level))
    return real(name, globals, locals, fromlist, level)
phase = 'statements'
builtins.__import__ = hook
lazy from pkg import sub
lazy import heavy
lazy import other as o
lazy import pkg.deep.leaf
phase = 'uses'
values = (sub.Z, heavy.X, o.Y, pkg.deep.leaf.L)
builtins.__import__ = real
print(values)
stdlib = os.path.realpath(os.path.dirname(os.__file__)) + os.sep
def outside_stdlib(name):
    spec = importlib.util.find_spec(name.split('.')[0]) if name else None
    origin = spec and (spec.origin or (list(spec.submodule_search_locations or ()) or [''])[0])
    return bool(origin) and origin not in ('built-in', 'frozen') and not os.path.realpath(origin).startswith(stdlib)
for call in seen:
    if outside_stdlib(call[1]):
        print(call)
""",
)

# -- threads ---------------------------------------------------------------------
case(
    'threads_slow_import_16',
    """\
import sys, threading, probe
lazy import slow16
lazy from slow16 import VALUE, make
import user16
barrier = threading.Barrier(16)
results = [None] * 16
def worker(i):
    barrier.wait()
    if i % 4 == 0:
        results[i] = (slow16, VALUE)
    elif i % 4 == 1:
        results[i] = (sys.modules['__main__'].slow16, make())
    elif i % 4 == 2:
        results[i] = (user16.get(), user16.VALUE)
    else:
        results[i] = (getattr(user16, 'slow16'), VALUE)
threads = [threading.Thread(target=worker, args=(i,)) for i in range(16)]
for t in threads: t.start()
for t in threads: t.join()
print(len([r for r in results if r]), len({id(m) for m, _ in results}), sorted({v for _, v in results}))
print('imports:', slow16.COUNT, results[0][0] is sys.modules['slow16'])
print(probe.kind(globals(), 'slow16'), probe.kind(globals(), 'VALUE'), probe.kind(globals(), 'make'))
print(probe.kind(vars(user16), 'slow16'), probe.kind(vars(user16), 'VALUE'), type(user16).__name__)
""",
    files={
        'slow16.py': "import builtins, time\nprint('import slow16')\nbuiltins.slow16_count = getattr(builtins, 'slow16_count', 0) + 1\nCOUNT = builtins.slow16_count\ntime.sleep(0.2)\nVALUE = 'v'\ndef make():\n    return VALUE\n",
        'user16.py': '{COOKIE}\nlazy import slow16\nlazy from slow16 import VALUE\ndef get():\n    return slow16\n',
    },
)

# Before 3.14 importlib itself hands a thread that waited on a failing import
# the dead module object (eager `import` in threads does the same there), so
# the outcome depends on the interpreter's importlib: 3.14+ only
case(
    'threads_failing_import_16',
    min_version=(3, 14),
    main="""\
import builtins, sys, threading, probe
builtins.fail16_attempts = 0
lazy import fail16
lazy from fail16 import VALUE
barrier = threading.Barrier(16)
errors = [None] * 16
def worker(i):
    barrier.wait()
    try:
        fail16.VALUE if i % 2 else VALUE
    except ValueError as e:
        errors[i] = (type(e).__name__, str(e).split(' #')[0], type(e.__cause__).__name__)
    else:
        errors[i] = 'no error'
threads = [threading.Thread(target=worker, args=(i,)) for i in range(16)]
for t in threads: t.start()
for t in threads: t.join()
print(sorted(set(map(str, errors))))
print('attempts:', builtins.fail16_attempts)
print('fail16' in sys.modules, probe.kind(globals(), 'fail16'), probe.kind(globals(), 'VALUE'))
builtins.fail16_ok = True
print(fail16.VALUE, VALUE, 'attempts:', builtins.fail16_attempts)
print(probe.kind(globals(), 'fail16'), probe.kind(globals(), 'VALUE'))
""",
    files={
        'fail16.py': (
            'import builtins, time\n'
            'builtins.fail16_attempts += 1\n'
            'n = builtins.fail16_attempts\n'
            'time.sleep(0.05)\n'
            "if not getattr(builtins, 'fail16_ok', False):\n"
            "    raise ValueError(f'fail16 failed #{n}')\n"
            "VALUE = 'ok'\n"
        ),
    },
)
