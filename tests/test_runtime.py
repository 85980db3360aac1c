"""The runtime's structural promises, checked in subprocesses with the
package installed (no timings: facts that imply speed and safety)."""

import os
import sys
import textwrap

import pytest
from conftest import ACCELERATED, COOKIE, NATIVE, run_file, run_process, write_files

# the modules of the runtime that rewritten code calls, and their files
RUNTIME_MODULES = {
    'lazy_codec.runtime',
    'lazy_codec.runtime.api',
    'lazy_codec.runtime.binding',
    'lazy_codec.runtime.opcodes',
    'lazy_codec.runtime.access',
    'lazy_codec.runtime.rebuilder',
    'lazy_codec.runtime.state',
    'lazy_codec.runtime.lazy',
    'lazy_codec.runtime.resolution',
    'lazy_codec.runtime.lookup',
    # the entry ABI (lazy_codec._entry, whose names are lazy_codec.rewrite's)
    'lazy_codec._entry',
    'lazy_codec.rewrite',
    # the C accelerator, where it is built (state.accel)
} | ({'lazy_codec.runtime._accel'} if ACCELERATED else set())
# with the accelerator, these wait for their first need
# (lazy_codec.runtime.LOADED_ON_DEMAND): the runtime's start loads the rest
ON_DEMAND_MODULES = {f'lazy_codec.runtime.{name}' for name in ('rebuilder', 'resolution', 'lookup')}
STARTED_MODULES = RUNTIME_MODULES - ON_DEMAND_MODULES if ACCELERATED else RUNTIME_MODULES
# what a process imports to decode a cookie file (tests/test_lexer.py pins them exactly)
# what compiling a cookie module imports: on 3.9-3.14 the source loader's
# rewrite (the codec is not asked); on 3.15 the codec, which decodes as UTF-8
DECODE_MODULES = {
    'lazy_codec.rewrite',
    'lazy_codec.rewrite.cookie',
    'lazy_codec.rewrite.emitter',
    'lazy_codec.rewrite.lexer',
    'lazy_codec.rewrite.statements',
    'lazy_codec.rewrite.verdicts',
} | (
    {'lazy_codec._codec', 'lazy_codec._entry'}
    if NATIVE
    else {'lazy_codec._loader', 'lazy_codec.rewrite.sources'}
)
# (the two packages' files are their __init__.py)
RUNTIME_FILES = tuple(
    os.path.join(*name.split('.'), '__init__.py')
    if name in ('lazy_codec.runtime', 'lazy_codec.rewrite')
    else os.path.join(*name.split('.')) + '.py'
    for name in sorted(RUNTIME_MODULES)
    if not name.endswith('._accel')
)
# a program's tracer of the Python runtime's lines: `counts[-1]` gets each
# (function, line) run in RUNTIME_FILES (for the programs below, indented 12)
RUNTIME_TRACER = textwrap.indent(
    textwrap.dedent(f"""\
    counts = []
    def tracer(frame, event, arg):
        if frame.f_code.co_filename.endswith({RUNTIME_FILES!r}):
            if event == 'line':
                counts[-1].append((frame.f_code.co_name, frame.f_lineno))
            return tracer
        return None
"""),
    ' ' * 12,
)


def run(tmp_path, files, main='main.py'):
    """write `files` into tmp_path, run `main` there; its stdout (it must exit 0)"""
    write_files(tmp_path, files)
    proc = run_file(tmp_path, main[: -len('.py')])
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_fast_form_after_last_use(tmp_path):
    # once every lazy name is used the module is exactly an eagerly importing
    # one: exact str keys only (the dict form the specializer needs), no
    # helper names; its class is plain ModuleType throughout, as on 3.15
    out = run(
        tmp_path,
        {
            'main.py': COOKIE
            + textwrap.dedent("""\
        import sys, time, types
        lazy import json
        lazy from fractions import Fraction
        mod = sys.modules[__name__]
        print(sorted({type(k).__name__ for k in globals()}), type(mod) is types.ModuleType)
        json, Fraction
        # the dict is rebuilt by the runtime's own thread, soon after
        deadline = time.monotonic() + 30
        while any(type(k) is not str for k in list(globals())) and time.monotonic() < deadline:
            time.sleep(0.01)
        print(sorted({type(k).__name__ for k in globals()}), type(mod) is types.ModuleType)
        print([k for k in globals() if 'lazy_codec' in k])
    """)
        },
    )
    assert out.splitlines() == [
        "['LazyName', 'str'] True",
        "['str'] True",
        '[]',
    ]


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_store_then_load_leaves_fast_form(tmp_path):
    out = run(
        tmp_path,
        {
            'main.py': COOKIE
            + textwrap.dedent("""\
        import sys, time, types
        lazy import json
        json = 5
        print(json, 'json' in sys.modules)
        deadline = time.monotonic() + 30
        while any(type(k) is not str for k in list(globals())) and time.monotonic() < deadline:
            time.sleep(0.01)
        print(sorted({type(k).__name__ for k in globals()}), type(sys.modules[__name__]) is types.ModuleType)
    """)
        },
    )
    assert out.splitlines() == ['5 False', "['str'] True"]


def test_bytecode_of_abi1_keeps_working(tmp_path):
    # text exactly as release 0.1.0's rewrite emitted it: cached bytecode of
    # it must run with every later release
    emitted = (
        'from lazy_codec._abi1 import lazy_import as __lazy_codec_abi1__;'
        "__lazy_codec_abi1__(('json', None), ('xml.dom', 'dom'))\n"
        'from lazy_codec._abi1 import lazy_from as __lazy_codec_abi1__;'
        "__lazy_codec_abi1__('fractions', 0, ('Fraction', None), ('gcd', 'g'))\n"
        'import sys\n'
        "print('json' in sys.modules, json.dumps(1), Fraction(1, 2), dom.__name__)\n"
        "print([k for k in globals() if 'lazy_codec' in k])\n"
    )
    (tmp_path / 'old.py').write_text(emitted)
    import py_compile

    pyc = py_compile.compile(str(tmp_path / 'old.py'), cfile=str(tmp_path / 'old.pyc'), doraise=True)
    (tmp_path / 'old.py').unlink()
    proc = run_process([sys.executable, pyc], timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ['False 1 1/2 xml.dom', '[]']


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_threads_race_on_first_use(tmp_path):
    # 32 threads first-use the same lazy names at once, 30 times over fresh
    # modules, while other threads import unrelated modules: one import per
    # round, one object, no deadlock
    files = {
        'slow.py': 'import time\nimport counter\ncounter.n += 1\ntime.sleep(0.01)\nVALUE = object()\n',
        'counter.py': 'n = 0\n',
        'racer.py': COOKIE + 'lazy import slow\nlazy from slow import VALUE\n',
        'main.py': textwrap.dedent("""\
            import importlib, sys, threading
            import counter
            for round_ in range(30):
                for name in ('racer', 'slow'):
                    sys.modules.pop(name, None)
                racer = importlib.import_module('racer')
                seen = []
                barrier = threading.Barrier(34)
                def user():
                    barrier.wait()
                    seen.append((racer.slow, racer.VALUE))
                def bystander():
                    barrier.wait()
                    for mod in ('csv', 'json', 'fractions'):
                        importlib.import_module(mod)
                threads = [threading.Thread(target=user) for _ in range(32)]
                threads += [threading.Thread(target=bystander) for _ in range(2)]
                for t in threads: t.start()
                for t in threads: t.join(30)
                assert not any(t.is_alive() for t in threads), 'deadlock'
                assert len(seen) == 32
                assert len({id(m) for m, _ in seen}) == 1 and len({id(v) for _, v in seen}) == 1
                assert racer.__dict__['slow'] is seen[0][0]
            print('imports', counter.n)
        """),
    }
    assert run(tmp_path, files).strip() == 'imports 30'


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_the_rest_of_the_runtime_loads_at_its_first_need(tmp_path):
    # with the accelerator, statements and a first use it does alone load no
    # module of LOADED_ON_DEMAND; a lazy object resolved by hand (a peek's)
    # loads them, through the interpreter's __import__ (not the program's,
    # installed since the runtime's start); the pure runtime has them from the start
    files = {
        'lib.py': COOKIE + 'lazy import json\nlazy import csv\nlazy from decimal import Decimal\n',
        'main.py': textwrap.dedent("""\
            import builtins, sys
            import lib
            def loaded():
                names = ('rebuilder', 'resolution', 'lookup')
                return [n for n in names if 'lazy_codec.runtime.' + n in sys.modules]
            print(loaded())
            print(lib.json.dumps(1), loaded())
            real, calls = builtins.__import__, []
            def recording(name, *args):
                calls.append(name)
                return real(name, *args)
            builtins.__import__ = recording
            print(vars(lib)['csv'].resolve().__name__, loaded())
            builtins.__import__ = real
            print([name for name in calls if name.startswith('lazy_codec') or name in ('sys', '_thread')])
            print(type(vars(lib)['csv']).__name__, lib.Decimal(1), lib.csv.__name__)
        """),
    }
    everything = "['rebuilder', 'resolution', 'lookup']"
    first = '[]' if ACCELERATED else everything
    assert run(tmp_path, files).splitlines() == [
        first,
        f'1 {first}',
        f'csv {everything}',
        '[]',
        'lazy_import 1 csv',
    ]


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_mode_all_stdlib_heavy_imports(tmp_path):
    # every stdlib module imported under mode "all" (their own imports lazy,
    # `opcode` among them: once imported from inside a lookup, it deadlocked)
    code = (
        'import asyncio, email.mime.multipart, http.server, json, decimal, '
        'logging.handlers, unittest, urllib.request, sys; '
        'print(sys.get_lazy_imports(), asyncio.get_event_loop_policy is not None)'
    )
    proc = run_process([sys.executable, '-X', 'lazy_imports=all', '-c', code], cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == 'all True\n'


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_load_opcodes_are_the_interpreters(tmp_path):
    # the loads, from the table written out in opcodes (to spare importing `opcode`)
    out = run(
        tmp_path,
        {
            'main.py': textwrap.dedent("""\
        import opcode
        from lazy_codec.runtime import access
        want = frozenset(opcode.opmap[n] for n in access.LOAD_OPNAMES if n in opcode.opmap)
        print(access.LOADS == want, access.LOADS != frozenset())
    """)
        },
    )
    assert out == 'True True\n'


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_statement_from_template_is_what_compiling_it_gives(tmp_path):
    # a first use fills a template in rather than make its statement's code:
    # the same instructions, on the same names and constants, as the
    # statement's own code (_code_of: a class body's, made without
    # compile()), whose import instructions are compile()'s
    out = run(
        tmp_path,
        {
            'main.py': textwrap.dedent("""\
        import dis
        from lazy_codec.runtime import resolution
        def instructions(code):
            return [(i.opname, i.argval) for i in dis.get_instructions(code)]
        CLASS_BODY_NAMES = ('__module__', '__qualname__', '__firstlineno__', '__static_attributes__')
        def import_steps(code):
            return [step for step in instructions(code)
                    if step[0].startswith(('IMPORT_', 'STORE_')) and step[1] not in CLASS_BODY_NAMES]
        for statement in ('import os as v', 'import a.b as v', 'import a.b.c as v', 'from m import x as v',
                          'from ..p.q import y as v', 'from . import z as v', 'from ... import w as v',
                          'from _1 import _0 as v', 'import v as v'):
            made, own = resolution._from_template(statement), resolution._code_of(statement)
            compiled = compile(statement, '<x>', 'exec')
            print(statement, instructions(made) == instructions(own),
                  import_steps(made) == import_steps(compiled) != [])
    """)
        },
    )
    assert out.count(' True True\n') == 9, out


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_resolution_statement_sits_on_the_lazy_line_without_columns(tmp_path):
    # the import a first use runs is code placed on the `lazy` line of the
    # user's file, every instruction at that line with no columns (the
    # location-table byte written out in _reify; 3.9/3.10 have no columns),
    # whether made from a template or compiled
    out = run(
        tmp_path,
        {
            'main.py': textwrap.dedent("""\
        import sys
        from lazy_codec.runtime import resolution
        for statement in ('import json as v', 'from os import path as v',
                          "v = __import__('json', g, g, None, 0)"):
            code = resolution.statement_code(statement, 'user.py', 7)
            if sys.version_info >= (3, 11):
                where = sorted(set(code.co_positions()))
            else:
                where = sorted({line for _, line in __import__('dis').findlinestarts(code)})
            print(code.co_filename, code.co_firstlineno, where)
    """)
        },
    )
    want = '[(7, 7, None, None)]' if sys.version_info >= (3, 11) else '[7]'
    assert out == f'user.py 7 {want}\n' * 3


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_opcode_tables_match_opcode_module(tmp_path):
    # the opcodes the runtime reads are written out by name, a table per
    # version (no `opcode` import at run time): this version's must be this
    # interpreter's opcode.opmap, for every name any version's table has
    out = run(
        tmp_path,
        {
            'main.py': textwrap.dedent("""\
        import ast, sys
        from lazy_codec.runtime import opcodes
        print('opcode' not in sys.modules)
        import opcode
        with open(opcodes.__file__, encoding='utf-8') as f:
            tree = ast.parse(f.read())
        names = {key.value for node in ast.walk(tree) if isinstance(node, ast.Dict)
                 for key in node.keys if isinstance(key, ast.Constant) and isinstance(key.value, str)}
        print(len(names) > 90, {**opcodes.OPCODES, **opcodes.PSEUDO} == {n: opcode.opmap[n] for n in names
                                                                           if n in opcode.opmap})
    """)
        },
    )
    assert out == 'True\nTrue True\n'


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_call_site_reading(tmp_path):
    # which calls count as loads of a module's lazy name: getattr and hasattr
    # however spelled (a local alias, a keyword default, attrgetter), not the
    # dict's own methods nor setattr; a callee it cannot read is a load, as
    # C code reading an attribute is on 3.15
    out = run(
        tmp_path,
        {
            'm.py': COOKIE + 'lazy import json\nlazy import fractions\nlazy import colorsys\n'
            'lazy import decimal\nlazy import wave\nlazy import bisect\n',
            'main.py': textwrap.dedent("""\
            import builtins, operator, sys
            import m
            d = vars(m)
            kind = lambda n: type(d[n]).__name__
            d.get('json'); d.setdefault('json', 0); 'json' in d
            print(kind('json'), 'json' in sys.modules)
            g = getattr
            def via_local(getter=getattr):
                return getter(m, 'fractions')
            via_local()
            print(kind('fractions'))
            builtins.hasattr(m, 'colorsys')
            print(kind('colorsys'))
            get_decimal = operator.attrgetter('decimal')
            get_decimal(m)
            print(kind('decimal'))
            operator.attrgetter('wave')(m)  # a callee made by a call: a load
            print(kind('wave'))
            setattr(m, 'bisect', 1)
            print(kind('bisect'), 'bisect' in sys.modules)
        """),
        },
    )
    assert out.splitlines() == [
        'lazy_import False',
        'module',
        'module',
        'module',
        'module',
        'int False',
    ]


def test_lazy_statements_call_no_import(tmp_path):
    # click's own test of what `import click` imports wraps __import__ and
    # lists the calls made from click's modules: a lazy statement makes none
    # (3.15 makes none either), and only the first one loads the runtime
    out = run(
        tmp_path,
        {
            'app/__init__.py': COOKIE + 'lazy import json\nlazy from fractions import Fraction\n'
            'from app import part\n',
            'app/part.py': COOKIE + 'lazy import decimal\nlazy import xml.dom\n',
            'main.py': textwrap.dedent("""\
            import builtins, sys
            found = []
            real = builtins.__import__
            def tracking(name, globals=None, locals=None, fromlist=(), level=0):
                if globals and globals.get('__name__', '').startswith('app') and level == 0:
                    found.append(name)
                return real(name, globals, locals, fromlist, level)
            builtins.__import__ = tracking
            before = set(sys.modules)
            import app
            builtins.__import__ = real
            print(found, sorted(m for m in set(sys.modules) - before if not m.startswith('app')))
        """),
        },
    )
    lines = out.splitlines()
    assert lines[0].startswith("['app'] ")  # `from app import part`, a plain import
    ours = {m for m in eval(lines[0][len("['app'] ") :]) if m.startswith('lazy_codec')}
    # (the codec's own modules too when the files were decoded, not cached)
    # (on 3.15 the codec's package is imported to decode the files, no runtime)
    assert ours - DECODE_MODULES == (
        {'lazy_codec'} if NATIVE else ({'lazy_codec'} | STARTED_MODULES) - DECODE_MODULES
    )


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_work_per_statement_and_first_use_does_not_grow(tmp_path):
    # structural, not timed: the runtime lines executed for one more lazy
    # statement, and for one first use, in a module (and a process) holding
    # 10 or 2,000 lazy imports, are the same lines (no scan of
    # sys.lazy_modules or of a module dict per operation)
    targets = {f't{i}.py': f'X = {i}\n' for i in range(2001)}

    def program(k):
        return textwrap.dedent(f"""\
            import sys
            for i in range({k}):
                __import__(f't{{i}}')
            __import__('t2000')
            from lazy_codec.rewrite import emitter
            many = type(sys)('many')
            sys.modules['many'] = many
            source = ''.join(f'lazy import t{{i}}\\n' for i in range({k}))
            exec(compile(emitter.rewrite(source), 'many.py', 'exec'), vars(many))
            exec('def use_one():\\n    return t0.X\\n', vars(many))
            more = compile(emitter.rewrite('lazy import t2000\\n'), 'many.py', 'exec')
            many.use_one()  # the first reification: one-time work out of the way
            exec(compile(emitter.rewrite('lazy import t1\\n'), 'many.py', 'exec'), vars(many))
{RUNTIME_TRACER}            for step in ('statement', 'first use'):
                counts.append([])
                sys.settrace(tracer)
                if step == 'statement':
                    exec(more, vars(many))
                else:
                    exec('def use_new():\\n    return t2000.X\\n', vars(many))
                    many.use_new()
                sys.settrace(None)
            print(counts)
        """)

    lines = []
    for k in (10, 2000):
        lines.append(run(tmp_path, {**targets, 'main.py': program(k)}))
    assert lines[0] == lines[1]
    if ACCELERATED:  # the C accelerator does both, no line of the Python runtime runs
        assert eval(lines[0]) == [[], []]
    else:
        assert len(eval(lines[0])[0]) > 5 and len(eval(lines[0])[1]) > 5  # it did trace the runtime


@pytest.mark.skipif(not ACCELERATED, reason='the C accelerator is not in use here')
def test_accelerator_does_the_common_cases_without_python(tmp_path):
    # what the C accelerator is for, run with no line of the Python runtime:
    # statements (explicit and mode "all"'s, relative, dotted, a package's
    # submodule to wait for or to attach), a first use of a name whose module
    # is imported, or of a submodule its package has attached, and a peek
    # (`in`); the rare cases stay Python's (a filter)
    files = {
        'pkg/__init__.py': COOKIE + 'lazy from .sub import VALUE\nlazy import pkg.other as other\n',
        'pkg/sub.py': 'VALUE = 1\n',
        'pkg/user.py': COOKIE
        + 'lazy from . import sub\nlazy import colorsys\ndef get():\n    return sub.VALUE\n',
        'pkg/other.py': 'OTHER = 2\n',
        'plain.py': 'import json\nfrom os import path\nimport email.utils\n',
        'main.py': textwrap.dedent(f"""\
            import sys, json, os, email
            from lazy_codec.rewrite import emitter
            import lazy_codec.runtime.api
{RUNTIME_TRACER}            def traced(label, run):
                counts.append([])
                sys.settrace(tracer)
                try:
                    run()
                finally:
                    sys.settrace(None)
                print(label, counts[-1])
            module = type(sys)('holder')
            sys.modules['holder'] = module
            statements = compile(emitter.rewrite('lazy import json\\nlazy from os import path\\n'
                                                 'lazy import xml.dom as dom\\n'), 'holder.py', 'exec')
            traced('statements', lambda: exec(statements, vars(module)))
            exec('def use():\\n    return json.dumps, path.join\\n', vars(module))
            traced('first_uses', module.use)
            traced('peek', lambda: exec("'dom' in globals()", vars(module)))
            traced('package', lambda: __import__('pkg'))
            print('resolution_loaded', 'lazy_codec.runtime.resolution' in sys.modules)
            import pkg.user
            print('attached_child', *[type(v).__name__ for k, v in vars(pkg).items() if k == 'sub'])
            traced('attached', pkg.user.get)
            sys.set_lazy_imports('all')
            plain = compile(emitter.rewrite(open('plain.py').read(), every_import=True), 'plain.py', 'exec')
            other = type(sys)('other_holder')
            traced('mode_all', lambda: exec(plain, vars(other)))
            sys.set_lazy_imports('normal')
            sys.set_lazy_imports_filter(lambda importer, name, fromlist: True)
            traced('filtered', lambda: exec(statements, vars(type(sys)('third'))))
        """),
    }
    lines = dict(line.split(' ', 1) for line in run(tmp_path, files).splitlines())
    assert lines['attached_child'] == 'lazy_import'
    for label in ('statements', 'first_uses', 'peek', 'mode_all', 'attached'):
        assert lines[label] == '[]', (label, lines[label])
    # a package's import decodes it, and importlib's end of it calls the
    # spec's __setattr__ (Python's); its statements and the submodules it
    # attaches then are the accelerator's
    ran = {name for name, _ in eval(lines['package'])}
    assert not ran & {'_import', '_from', 'settle', '__eq__'}, ran
    assert lines['resolution_loaded'] == 'False'  # (the attaching is C's too: binding.DoneWatch)
    assert {'_import', '_from'} & {name for name, _ in eval(lines['filtered'])}  # (Python's, and traced)


@pytest.mark.skipif(not ACCELERATED, reason='the C accelerator is not in use here')
def test_accelerator_rebuilds_a_used_dict_itself(tmp_path):
    # a dict whose last lazy name the accelerator settles is made plain by
    # the thread that used it, between two of its bytecodes (a pending call):
    # exact str keys in their order (3.15's), and no rebuilder module loaded
    # nor thread started, also where the name is used by a module that a
    # first use imports; a second thread running hands it to the rebuilder
    files = {
        'lib.py': COOKIE + 'import sys\nlazy import json\nA = 1\nlazy from os import path\nB = 2\n'
        'def use():\n    return json.dumps, path.join\n',
        'other.py': COOKIE + 'lazy import colorsys\nC = 3\ndef use():\n    return colorsys.rgb_to_hsv\n',
        # used inside the import a first use runs (in the dict lookup that met
        # the key): rebuilt once that lookup is done
        'inner.py': COOKIE + 'lazy import colorsys\nX = colorsys.rgb_to_hsv\n',
        'outer.py': COOKIE + 'lazy import inner\ndef use():\n    return inner.X\n',
        'main.py': textwrap.dedent("""\
            import os, sys, threading, time
            import lib
            lib.use()
            # this process's threads (Linux; elsewhere not counted)
            print(len(os.listdir('/proc/self/task')) if os.path.isdir('/proc/self/task') else 1)
            print(all(type(k) is str for k in vars(lib)), [k for k in vars(lib) if not k.startswith('__')])
            import outer
            outer.use()
            plain = lambda module: all(type(k) is str for k in vars(module))
            print(plain(sys.modules['inner']), plain(outer))
            print('lazy_codec.runtime.rebuilder' in sys.modules)
            import other
            release = threading.Event()
            waiting = threading.Thread(target=release.wait)
            waiting.start()
            other.use()
            deadline = time.monotonic() + 30
            while any(type(k) is not str for k in list(vars(other))) and time.monotonic() < deadline:
                time.sleep(0.01)
            release.set()
            waiting.join()
            print(all(type(k) is str for k in vars(other)), 'lazy_codec.runtime.rebuilder' in sys.modules)
        """),
    }
    assert run(tmp_path, files).splitlines() == [
        '1',
        "True ['sys', 'json', 'A', 'path', 'B', 'use']",
        'True True',
        'False',
        'True True',
    ]


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
@pytest.mark.parametrize('cached', [False, True], ids=['first decode', 'bytecode cached'])
def test_modules_a_lazy_program_adds(tmp_path, cached):
    # what a program with lazy statements imports beyond an eager program
    # that imports nothing: lazy_codec's own modules and nothing else
    # (tokenize, re, enum, collections, opcode cost more than a decode)
    files = {
        'lib.py': COOKIE + 'lazy import json\nlazy from fractions import Fraction\n'
        'def dump(x):\n    return json.dumps(x)\n',
        'main.py': 'import sys\nbefore = set(sys.modules)\nimport lib\n'
        'print(sorted(set(sys.modules) - before))\n'
        # (3.15's types.LazyImportType, there when `types` comes later)
        'import types\nprint(type(vars(lib)["json"]) is types.LazyImportType)\n',
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    for _ in range(2 if cached else 1):
        out = run_process(
            [sys.executable, 'main.py'], cwd=tmp_path, unset_env=('PYTHONDONTWRITEBYTECODE',), check=True
        ).stdout
    ours = {'lazy_codec'} | STARTED_MODULES
    if not cached:
        ours |= DECODE_MODULES
    # and, where the interpreter did not load them at start, modules built
    # into it (not `types`: api._install_api)
    modules, has_type = out.splitlines()
    added = set(eval(modules)) - {'lib'}
    assert added - set(sys.builtin_module_names) == ours
    assert has_type == 'True'


@pytest.mark.skipif(NATIVE, reason="3.15's own builtin stands")
def test_dunder_lazy_import_from_start_loads_nothing(tmp_path):
    # builtins.__lazy_import__ is there from interpreter start without any
    # module of ours loaded (the .pth's stub); its first call loads the
    # runtime, which puts its own function in its place
    out = run(
        tmp_path,
        {
            'main.py': textwrap.dedent("""\
        import builtins, sys
        stub = builtins.__lazy_import__
        print(callable(stub), sorted(m for m in sys.modules if m.startswith('lazy_codec')))
        held = [__lazy_import__('json')]
        print(repr(held[0]), 'json' in sys.modules, 'lazy_codec.runtime.api' in sys.modules)
        print(builtins.__lazy_import__ is not stub, builtins.__lazy_import__.__name__)
    """)
        },
    )
    assert out == ("True []\n<lazy_import 'json'> False True\nTrue __lazy_import__\n")


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_live_key_count_goes_with_its_dict(tmp_path):
    # a dict freed with unused lazy names takes its count with it: the next
    # dict at its address must not inherit a count that never reaches 0
    out = run(
        tmp_path,
        {
            'main.py': textwrap.dedent("""\
        import gc
        from lazy_codec.rewrite.emitter import rewrite
        from lazy_codec.runtime import api, state
        code = compile(rewrite('lazy import json\\nlazy import colorsys\\n'), 'ns.py', 'exec')
        namespace = {'__name__': 'ns'}
        exec(code, namespace)
        entry = state.live_keys[id(namespace)]
        print(entry().count)
        del namespace
        gc.collect()
        print(entry())
        fresh = {'__name__': 'fresh'}
        exec(code, fresh)
        print(state.live_keys[id(fresh)]().count)
    """)
        },
    )
    assert out == '2\nNone\n2\n'


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_call_site_reading_peeks_and_unknown_callees(tmp_path):
    # the callees that only peek or store leave a lazy name lazy (a dict's
    # method however reached, operator.getitem, setattr); any callee the
    # reading cannot prove so is a load, as C code reading an attribute is
    # on 3.15 (functools.reduce, a conditional argument, a stored callable)
    out = run(
        tmp_path,
        {
            'm.py': COOKIE
            + ''.join(
                f'lazy import {name}\n'
                for name in ('json', 'fractions', 'colorsys', 'decimal', 'wave', 'netrc', 'tabnanny', 'shlex')
            ),
            'main.py': textwrap.dedent("""\
            import functools, operator, sys
            import m
            d = vars(m)
            kind = lambda n: type(d[n]).__name__
            dict.get(d, 'json'); operator.getitem(d, 'json'); d.__contains__('json')
            get = d.get
            get('json')
            print(kind('json'), 'json' in sys.modules)
            functools.reduce(getattr, ['fractions'], m)
            print(kind('fractions'))
            flag = True
            getattr(m, 'colorsys' if flag else 'x')
            print(kind('colorsys'))
            getters = [getattr]
            getters[0](m, 'decimal')
            print(kind('decimal'))
            list(map(getattr, [m], ['wave']))
            print(kind('wave'))
            operator.setitem(d, 'netrc', 1); setattr(m, 'tabnanny', 2)
            print(kind('netrc'), kind('tabnanny'), 'netrc' in sys.modules, 'tabnanny' in sys.modules)
            print(kind('shlex'), 'shlex' in sys.modules)
        """),
        },
    )
    assert out.splitlines() == [
        'lazy_import False',
        'module',
        'module',
        'module',
        'module',
        'int int False False',
        'lazy_import False',
    ]


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_keys_are_strs_of_every_kind(tmp_path):
    # a lazy key is a str equal to its name in everything but its class (the
    # accelerator fills its fields itself, without str.__new__: one-byte,
    # Latin-1, two- and four-byte names alike), has no __dict__, and pickles
    # as its name
    names = ['json', 'caf\xe9', 'x\u0101b', '\U00010400y']
    main = COOKIE + ''.join(f'lazy import {name}\n' for name in names)
    main += textwrap.dedent(f"""\
        import copy, pickle, sys
        from lazy_codec.runtime.accelerator import accel
        if accel is not None:
            assert accel.keys_by_hand()  # (else keys come from str.__new__: this test would not test them)
        names = {names!r}
        keys = {{str(k): k for k in list(globals()) if type(k) is not str}}
        assert sorted(keys) == sorted(names), keys
        for name in names:
            key = keys[name]
            assert isinstance(key, str) and type(key).__name__ == 'LazyName'
            assert str.__eq__(key, name) and str.__hash__(key) == hash(name)
            assert str(key) == name and type(str(key)) is str and repr(key) == repr(name)
            assert len(key) == len(name) and list(key) == list(name) and key[1:] == name[1:]
            assert key.upper() == name.upper() and key + '!' == name + '!' and f'{{key}}' == name
            assert '%s' % key == name and key.encode() == name.encode() and key.isidentifier()
            assert key.encode('utf-16') == name.encode('utf-16') and key.casefold() == name.casefold()
            assert key.startswith(name[0]) and key.find(name[-1]) == len(name) - 1
            assert sys.intern(str(key)) is sys.intern(name) and not hasattr(key, '__dict__')
            for copied in (pickle.loads(pickle.dumps(key)), copy.copy(key), copy.deepcopy(key)):
                assert copied == name and type(copied) is str
        print(sorted(str(k) for k in pickle.loads(pickle.dumps(list(keys.values())))) == sorted(names))
    """)
    out = run(tmp_path, {'main.py': main})
    assert out == 'True\n'


@pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')
def test_live_key_count_after_a_dict_was_made_plain(tmp_path):
    # a namespace whose last lazy name was used (its count gone from the
    # table) and that binds lazily again gets a new count, in statements
    # that alternate between namespaces too (C remembers the last one)
    out = run(
        tmp_path,
        {
            'main.py': textwrap.dedent("""\
        import colorsys, json
        from lazy_codec.rewrite.emitter import rewrite
        from lazy_codec.runtime import api, state
        one = {'__name__': 'one'}
        two = {'__name__': 'two'}
        exec(compile(rewrite('lazy import json\\n'), 'one.py', 'exec'), one)
        exec(compile(rewrite('lazy import json\\nlazy import colorsys\\n'), 'two.py', 'exec'), two)
        exec(compile(rewrite('lazy import colorsys\\n'), 'one.py', 'exec'), one)
        first = state.live_keys[id(one)]()
        print(first.count, state.live_keys[id(two)]().count)
        kept = list(one)  # (the keys, and so their count, kept alive)
        exec('json; colorsys', one)
        print(first.count, id(one) in state.live_keys)
        exec(compile(rewrite('lazy import json\\n'), 'one.py', 'exec'), one)
        again = state.live_keys[id(one)]()
        print(again is not first, again.count, first.count)
        exec('json', one)
        print(again.count, id(one) in state.live_keys, one['json'] is json)
    """)
        },
    )
    assert out == '2 2\n0 False\nTrue 1 0\n0 False True\n'


# the accelerator's replace_key (_accel_c/dict_entries.c), run where the
# package is installed: on tables of each index width, with deleted entries,
# the entry gets its new key and value in the same place; the dict keeps its
# size, order and lookups, and an iteration in progress goes on
IN_PLACE = textwrap.dedent("""\
    import sys
    from lazy_codec.runtime import _accel

    class Key(str):  # (a table of any keys, as a module dict with a lazy key)
        pass

    for size in (5, 300, 70_000):  # 1-, 2- and 4-byte index tables
        names = [f'name_{i}' for i in range(size)]
        namespace = {Key(name): i for i, name in enumerate(names)}
        for name in names[::7]:
            del namespace[name]
        target = names[len(names) // 2 + 1]
        assert target in namespace
        before = list(namespace)
        iteration = iter(namespace.items())
        first = [next(iteration) for _ in range(len(before) // 3)]
        plain = sys.intern(str(target))
        assert _accel.entries_in_place()
        old = next(k for k in namespace if k == target)  # (found by identity)
        assert _accel.replace_key(namespace, old, plain, 'value') is True
        assert [str(k) for k in namespace] == [str(k) for k in before]
        (found,) = [k for k in namespace if k == target]
        assert type(found) is str and found is plain
        assert namespace[target] == 'value' and len(namespace) == len(before)
        assert [k for k, _ in first] + [k for k, _ in iteration] == before  # (no RuntimeError)
        assert _accel.dict_compact(namespace) is False  # (deleted entries)
    assert _accel.dict_compact({Key('a'): 1}) is True

    # nothing changed where the entry cannot be changed in place: a table of
    # str keys only (3.11+) given a lazy key, a key that is not there, a new
    # key that is not equal, a dict subclass
    # (3.11+: a table of str keys only holds no other key; 3.9-3.10: it
    # does, once its lookup is the generic one, which calls a key's __eq__)
    plain_only = {'a': 1, 'b': 2}
    in_place = sys.version_info < (3, 11)
    assert _accel.replace_key(plain_only, 'a', Key('a'), 3) is in_place
    assert plain_only == {'a': 3 if in_place else 1, 'b': 2}
    assert [type(k) is Key for k in plain_only] == [in_place, False]

    class Hooked(str):  # (the generic lookup: a Key's __eq__ runs)
        def __eq__(self, other):
            print('eq')
            return str.__eq__(self, other)

        __hash__ = str.__hash__

    plain_only = {'a': 1, 'b': 2}
    if _accel.replace_key(plain_only, 'a', Hooked('a'), 4):
        assert plain_only['a'] == 4  # (its key is the Hooked one: prints eq)
    general = {Key('a'): 1, 'b': 2}
    assert _accel.replace_key(general, 'c', 'c', 3) is False
    assert _accel.replace_key(general, 'b', 'x', 3) is False
    assert general == {'a': 1, 'b': 2}

    class Namespace(dict):
        pass

    subclassed = Namespace({Key('a'): 1})
    assert _accel.replace_key(subclassed, 'a', 'a', 3) is False and subclassed == {'a': 1}
    print('ok')
""")


@pytest.mark.skipif(not ACCELERATED, reason='no C accelerator here')
def test_entry_changed_where_it_stands(tmp_path):
    result = run_process([sys.executable, '-c', IN_PLACE], cwd=tmp_path, unset_env=('PYTHON*',), check=True)
    assert result.stdout == ('eq\n' if sys.version_info < (3, 11) else '') + 'ok\n'
