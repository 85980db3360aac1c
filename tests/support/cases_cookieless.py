"""Differential cases: 3.15 source without the cookie, `__lazy_modules__` in
any module, and what a reader of a cookie file sees (its exact text when it
decodes it, the rewrite only when it compiles it).  Files written here
without `{COOKIE}` are the same bytes for 3.15 and for the backport."""

from case_table import CaseTable

CASES = CaseTable()
case = CASES.add

_LIB = """\
lazy import heavy
lazy from other import Y
lazy import pkg.sub as sub
import probe
VALUE = 1
def use():
    return heavy.X, Y, sub.Z
"""

# -- modules without the cookie, through every loader ---------------------------
case(
    'cookieless_module',
    """\
import probe
import lib
print(probe.loaded(), probe.lazy_mods())
print(probe.kind(vars(lib), 'heavy'), probe.kind(vars(lib), 'Y'))
print(lib.use())
print(probe.loaded())
import importlib
print(importlib.import_module('lib') is lib, lib.VALUE)
""",
    files={'lib.py': _LIB},
)

case(
    'cookieless_package_run_with_dash_m',
    files={
        'app/__init__.py': '',
        'app/__main__.py': 'lazy import heavy\nimport probe, sys\nprint(__name__, probe.loaded())\n'
        'print(heavy.X, probe.loaded())\n',
    },
    argv=['-m', 'app'],
)

case(
    'cookieless_through_runpy_and_spec_from_file_location',
    """\
import importlib.util, runpy, probe
spec = importlib.util.spec_from_file_location('by_path', 'lib.py')
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
print(probe.loaded(), mod.use(), probe.loaded())
ns = runpy.run_module('runme')
print(sorted(k for k in ns if not k.startswith('__')))
print(ns['f'](), probe.loaded())
""",
    files={
        'lib.py': _LIB,
        'runme.py': 'lazy from pkg.deep import leaf\nimport probe\nprint(probe.loaded())\n'
        'def f():\n    return leaf.L\n',
    },
)

case(
    'cookieless_lazy_statement_in_function',
    """\
import probe
try:
    import bad
except SyntaxError as exc:
    print(type(exc).__name__, exc.msg, exc.lineno, exc.filename.endswith('bad.py'))
print(probe.loaded())
""",
    files={'bad.py': 'import probe\n\ndef f():\n    lazy import heavy\n    return heavy\n'},
)

case(
    'cookieless_other_syntax_error_stands',
    """\
try:
    import bad
except SyntaxError as exc:
    print(type(exc).__name__, exc.lineno, exc.filename.endswith('bad.py'))
""",
    files={'bad.py': 'lazy = 1\nx = (\n'},
)

case(
    'cookieless_bytecode_cached_then_loaded',
    """\
import importlib, probe, sys
import lib
print(probe.kind(vars(lib), 'heavy'))
del sys.modules['lib']
importlib.invalidate_caches()
import lib
print(probe.kind(vars(lib), 'heavy'), lib.use(), probe.loaded())
""",
    files={'lib.py': _LIB},
)

# -- __lazy_modules__ without the cookie ---------------------------------------------
case(
    'lazy_modules_by_default',
    """\
import probe
import lib
print(probe.loaded(), probe.lazy_mods())
print(probe.kind(vars(lib), 'heavy'), probe.kind(vars(lib), 'X'), probe.kind(vars(lib), 'other'))
print(lib.use(), probe.loaded())
""",
    files={
        'lib.py': """\
__lazy_modules__ = ['heavy', 'pkg.sub']
import heavy
from heavy import X
import other
from pkg import sub
import probe
def use():
    return heavy.f(), X, sub.Z
"""
    },
)

case(
    'lazy_modules_set_as_tuple_after_imports',
    """\
import probe
import lib
print(probe.loaded(), lib.late())
""",
    files={
        'lib.py': """\
import heavy
__lazy_modules__ = ('other',)
import other
def late():
    return other.Y
"""
    },
)

# -- a cookie file read as text, and compiled -----------------------------------------
case(
    'cookie_file_read_as_text_is_as_written',
    """\
import codecs, io, tokenize
lazy import heavy
with open(__file__, 'rb') as f:
    data = f.read()
text = data.decode('utf-8')
encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
readers = {
    'bytes.decode': data.decode(encoding),
    'str': str(data, encoding),
    'codecs.decode': codecs.decode(data, encoding),
    'incremental': codecs.getincrementaldecoder(encoding)().decode(data, final=True),
    'TextIOWrapper': io.TextIOWrapper(io.BytesIO(data), encoding=encoding, newline='').read(),
    'open': open(__file__, encoding=encoding, newline='').read(),
    'tokenize.open': tokenize.open(__file__).read(),
}
print({name: value == text for name, value in readers.items()})
import probe
print(probe.loaded())
""",
)

case(
    'cookie_file_compiled_from_bytes',
    """\
import ast, probe
with open('lib.py', 'rb') as f:
    data = f.read()
names = sorted((node.lineno, alias.asname or alias.name) for node in ast.walk(ast.parse(data))
               if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names)
print(names)
ns = {'__name__': 'compiled'}
exec(compile(data, 'lib.py', 'exec'), ns)
print(probe.loaded(), probe.kind(ns, 'heavy'))
print(ns['use'](), probe.loaded())
""",
    files={'lib.py': '{COOKIE}\n' + _LIB},
)
