"""Differential cases for a lazy object met in a namespace other than the
module dict its `lazy` statement bound it in (issue 30, families 4 and 5;
case_table.py has the format).  3.15 resolves a lazy object wherever a
global or name load finds it (and stores the module back there): under a
plain key in a module's globals (what a module `__getattr__` returned), in a
hand-built dict given to eval, exec or FunctionType as globals, in builtins,
and in a dict subclass used as globals or locals.  Each prints the type that
the eval'd or loading code gets (a `lazy_import` given to real code is a
crash there), the entry left behind, and which watched modules are imported."""

from case_table import CaseTable

CASES = CaseTable()
case = CASES.add

# a module that hands its lazy objects out from its __getattr__ (by a peek
# at its own dict: the lookup in its dict is dict-level, not a load)
GETATTR_LIB = """{COOKIE}
lazy import heavy as _heavy
lazy import other as _other
lazy import pkg.sub as _sub
lazy import pkg.sub2 as _sub2
lazy import colorsys as _colorsys
def get(name):
    return globals()[name]
def __getattr__(name):
    if name == 'h':
        return globals()['_heavy']
    if name == 'o':
        return globals().get('_other')
    if name == 's':
        return globals()['_sub']
    raise AttributeError(name)
"""

_GETATTR_MAIN = """\
import probe
import lib
h = lib.h
print('stored', probe.kind(globals(), 'h'), probe.loaded())
print('load', type(h).__name__, probe.kind(globals(), 'h'), probe.loaded())
from lib import o
print('stored', probe.kind(globals(), 'o'))
def f():
    global s
    s = lib.s
    return type(o).__name__
print('function', f(), probe.kind(globals(), 'o'), probe.kind(globals(), 's'), probe.loaded())
print('load', type(s).__name__, probe.kind(globals(), 's'), probe.loaded())
c = lib.get('_colorsys')
print('returned', probe.kind(globals(), 'c'), type(c).__name__)
items = list(map(lib.get, ['_sub2']))
print('through map', type(items).__name__, type(items[0]).__name__, probe.loaded())
"""

# 4. a lazy object stored under a plain key: what a module __getattr__ returned
case('namespaces_getattr_returns_lazy', _GETATTR_MAIN, files={'lib.py': GETATTR_LIB})

# the same in mode "all": the library's imports are lazy without `lazy`
case(
    'namespaces_getattr_returns_lazy_mode_all',
    _GETATTR_MAIN,
    files={'lib.py': GETATTR_LIB.replace('lazy import', 'import')},
    env={'PYTHON_LAZY_IMPORTS': 'all'},
)

# 4. hand-built dicts given to eval, exec and FunctionType as globals: the
# lazy object was taken out by a peek (a subscript, dict.get) and stored under
# a plain key by a subscript store, at module level and in a function
case(
    'namespaces_handbuilt_subscript_store',
    """\
import probe, types
lazy import heavy, other, json
ns = globals()
g = {}
g['h'] = ns['heavy']
print('stored', probe.kind(g, 'h'))
print('eval', eval('type(h).__name__', g), probe.kind(g, 'h'), probe.loaded())
def make():
    g = {'__builtins__': __builtins__}
    g['o'] = ns.get('other')
    g['j'] = globals()['json']
    return g
g = make()
exec("print('exec', type(o).__name__)", g)
print(' ', probe.kind(g, 'o'), probe.loaded())
code = compile('def f():\\n    return type(j).__name__', 'f', 'exec').co_consts[0]
f = types.FunctionType(code, g)
print('function', f(), probe.kind(g, 'j'))
""",
)

# 4. names injected into builtins, found by a load in another module: by an
# attribute store, setattr, and by copying a module's entries into builtins' dict
case(
    'namespaces_builtins_injected',
    """\
import builtins, probe
lazy import heavy, other, json
builtins.injected_h = globals()['heavy']
setattr(builtins, 'injected_j', globals().get('json'))
vars(builtins).update({k: v for k, v in globals().items() if k == 'other'})
print('stored', probe.kind(vars(builtins), 'injected_h'), probe.kind(vars(builtins), 'other'))
import user
print('attribute', user.h(), probe.kind(vars(builtins), 'injected_h'), probe.loaded())
print('update', user.o(), probe.kind(vars(builtins), 'other'), probe.loaded())
print('setattr', type(injected_j).__name__, probe.kind(vars(builtins), 'injected_j'))
""",
    files={
        'user.py': (
            'def h():\n    return type(injected_h).__name__\ndef o():\n    return type(other).__name__\n'
        )
    },
)

# 4. the stores where no store of a name can be seen (a dict display,
# `dict(...)`, a subscript store into a call's result, a key made anew): the
# lazy object stays under a plain key, which no load can reach here (3.15's
# loads resolve it): a documented difference (see the README)
case(
    'namespaces_plain_key_unseen_store',
    """\
import builtins, probe, types
lazy import heavy, other, json, colorsys
ns = globals()
g = {'h': ns['heavy']}
print('eval', eval('type(h).__name__', g), probe.kind(g, 'h'), probe.loaded())
g = {'o': ns.get('other')}
exec("print('exec', type(o).__name__)", g)
print(' ', probe.kind(g, 'o'), probe.loaded())
g = dict(j=ns['json'])
code = compile('def f():\\n    return type(j).__name__', 'f', 'exec').co_consts[0]
f = types.FunctionType(code, g)
print('function', f(), probe.kind(g, 'j'))
vars(builtins)['injected_c'] = ns['colorsys']
print('builtins', eval('type(injected_c).__name__'), probe.kind(vars(builtins), 'injected_c'))
""",
)

# 5. a dict subclass used as a namespace: a copy of a module's dict (whose
# keys are still lazy) as eval's, exec's or a function's globals, and as
# exec's locals
SUBCLASS_LIB = """{COOKIE}
lazy import heavy
lazy import other
lazy import json
lazy from pkg.sub import Z
lazy import pkg.sub2
lazy import colorsys
"""

_SUBCLASS_MAIN = """\
import probe, types
import lib
class Namespace(dict):
    pass
def entry(d, name):
    return type(dict.get(d, name)).__name__
d = Namespace(vars(lib))
print('eval', eval('type(heavy).__name__', d), entry(d, 'heavy'), probe.loaded())
code = compile('def f():\\n    return type(other).__name__', 'f', 'exec').co_consts[0]
f = types.FunctionType(code, Namespace(vars(lib)))
print('function', f(), entry(f.__globals__, 'other'), probe.loaded())
d = Namespace(vars(lib))
exec("print('exec', type(Z).__name__, Z)", d)
print(' ', entry(d, 'Z'), probe.loaded())
d = Namespace(vars(lib))
exec("print('exec locals', type(json).__name__)", {}, d)
print(' ', entry(d, 'json'))
d = Namespace(vars(lib))
print('attribute', eval('pkg.sub2.W', d), probe.loaded())
d, e = Namespace(vars(lib)), dict(vars(lib))
lib.colorsys
print('after the module', eval('type(colorsys).__name__', d), eval('type(colorsys).__name__', e))
print(' ', entry(d, 'colorsys'), entry(e, 'colorsys'))
"""

case('namespaces_dict_subclass', _SUBCLASS_MAIN, files={'lib.py': SUBCLASS_LIB})

case(
    'namespaces_dict_subclass_mode_all',
    _SUBCLASS_MAIN,
    files={'lib.py': SUBCLASS_LIB.replace('lazy import', 'import').replace('lazy from', 'from')},
    env={'PYTHON_LAZY_IMPORTS': 'all'},
)

# 5. a dict subclass whose methods are its own: __getitem__ in Python (eval
# and exec call it for every name), an OrderedDict, a __missing__
case(
    'namespaces_dict_subclass_methods',
    """\
import collections, probe
import lib
class Logged(dict):
    def __getitem__(self, name):
        return super().__getitem__(name)
class Missing(dict):
    def __missing__(self, name):
        raise KeyError(name)
d = Logged(vars(lib))
print('getitem', eval('type(heavy).__name__', d), type(dict.get(d, 'heavy')).__name__, probe.loaded())
d = collections.OrderedDict(vars(lib))
print('ordereddict', eval('type(other).__name__', d), type(dict.get(d, 'other')).__name__)
d = Missing(vars(lib))
exec("print('missing', type(json).__name__)", {}, d)
print(' ', type(dict.get(d, 'json')).__name__, probe.loaded())
""",
    files={'lib.py': SUBCLASS_LIB},
)

# a package's submodule that another module's lazy statement named, the
# package imported (a documented difference: KNOWN_DIFFERENCES): 3.15 puts
# nothing in the package's dict and resolves `pkg.sub` through its own module
# attribute lookup; lazy_codec binds a lazy `sub` there (what makes `pkg.sub`
# resolve), which dir() and vars() show until its first use
_ATTACHED_USER = """{COOKIE}
lazy from pkg.sub import Z
lazy import pkg.sub2
"""

case(
    'lazy_submodule_attached_to_package',
    """\
import probe
import pkg
import user
def show(when):
    public = sorted(n for n in dir(pkg) if not n.startswith('_'))
    print(when, 'dir', public, 'vars', sorted(n for n in vars(pkg) if not n.startswith('_')))
    print('  kinds', probe.kind(vars(pkg), 'sub'), probe.kind(vars(pkg), 'sub2'), probe.loaded())
show('before')
print('use', pkg.sub.Z, probe.loaded())
show('after pkg.sub')
print('use', user.Z, user.pkg.sub2.W, probe.loaded())
show('after pkg.sub2')
""",
    files={'user.py': _ATTACHED_USER},
)
