"""What the C accelerator and the pure runtime both write: each twin run on
the same inputs, the answers compared (the accelerator does the common case
of a statement and of a first use; the pure runtime is the reference).

- state.initializing / state.loaded beside C's, called directly;
- binding (bind), first uses (lookup.settle; with the accelerator the
  import itself too, failed ones included) and submodules attached to their
  packages (modules.attach_submodules): one program, run with each runtime,
  printing every piece of state they change after each step.
"""

import sys
import textwrap

import pytest
from conftest import ACCELERATED, run_process, write_files

pytestmark = pytest.mark.skipif(not ACCELERATED, reason='no C accelerator here: one runtime, no twins')

INITIALIZING = textwrap.dedent("""\
    import sys, types
    from lazy_codec.runtime import api, state
    from lazy_codec.runtime.accelerator import accel

    class Spec:
        def __init__(self, value):
            self._initializing = value

    class Raising(types.ModuleType):
        def __init__(self, name, error):
            super().__init__(name)
            self.error = error
        def __getattribute__(self, name):
            if name == '__spec__':
                raise object.__getattribute__(self, 'error')
            return super().__getattribute__(name)

    class RaisingSpec:
        def __init__(self, error):
            self.error = error
        @property
        def _initializing(self):
            raise self.error

    def module(name, spec):
        m = types.ModuleType(name)
        m.__spec__ = spec
        return m

    def plain(name):
        m = types.ModuleType(name)
        del m.__spec__
        return m

    inputs = [
        ('a spec done', module('a', Spec(False))),
        ('a spec running', module('b', Spec(True))),
        ('_initializing 0', module('c', Spec(0))),
        ('_initializing None', module('d', Spec(None))),
        ('__spec__ None', module('e', None)),
        ('no __spec__', plain('f')),
        ('a spec without _initializing', module('g', object())),
        ('__spec__ raises ValueError', Raising('h', ValueError('x'))),
        ('__spec__ raises KeyboardInterrupt', Raising('i', KeyboardInterrupt())),
        ('_initializing raises LookupError', module('j', RaisingSpec(LookupError()))),
        ('_initializing raises SystemExit', module('k', RaisingSpec(SystemExit(3)))),
        ('not a module', 'a string'),
    ]

    def outcome(function, argument):
        try:
            return repr(function(argument))
        except BaseException as exc:
            return type(exc).__name__

    for label, value in inputs:
        python, c = outcome(state.initializing, value), outcome(accel.initializing, value)
        print(f'initializing, {label}: {python} {c}')
        name = f'twin_{label.replace(" ", "_")}'
        sys.modules[name] = value
        python, c = outcome(state.loaded, name), outcome(accel.loaded, name)
        print(f'loaded, {label}: {python} {c}')
    sys.modules['twin_blocked'] = None
    print('loaded, blocked:', outcome(state.loaded, 'twin_blocked'), outcome(accel.loaded, 'twin_blocked'))
    print('loaded, absent:', outcome(state.loaded, 'twin_absent'), outcome(accel.loaded, 'twin_absent'))
""")


def test_initializing_and_loaded_agree(tmp_path):
    write_files(tmp_path, {'main.py': INITIALIZING})
    result = run_process([sys.executable, 'main.py'], cwd=tmp_path, check=True)
    lines = result.stdout.splitlines()
    assert len(lines) == 26
    for line in lines:
        python, c = line.rsplit(' ', 2)[1:]
        assert python == c, line
    # (the inputs reach each answer: the test cannot pass on one kind alone)
    answers = {line.rsplit(' ', 1)[1] for line in lines}
    assert answers == {'True', 'False', 'KeyboardInterrupt', 'SystemExit'}, answers


STATE_DUMP = textwrap.dedent("""\
    import sys, time
    from lazy_codec.runtime import state

    def dump(step, *namespaces):
        time.sleep(0.05)  # (the rebuilder's rounds: 1 ms each)
        print('--', step)
        for label, namespace in namespaces:
            # (sorted: the order differs by design, as the README says: the
            # accelerator changes an entry where it stands, the pure runtime
            # deletes and inserts)
            shown = sorted((str(k), type(k).__name__, type(v).__name__) for k, v in namespace.items()
                           if not str(k).startswith('__') and str(k) not in ('dump', 'sys', 'time', 'state'))
            print(' ', label, shown)
            found = state.live_keys.get(id(namespace))
            live = found() if found is not None else None
            print('  live keys:', None if live is None else live.count)
        print('  lazy_modules:', sorted(set.__iter__(state.lazy_modules)))
        print('  waiting:', {k: sorted(v) for k, v in sorted(state.waiting_children.items())},
              sorted(state.waiting_origin))
""")

PROGRAM = textwrap.dedent("""\
    from dumping import dump
    import json
    here = globals()
    dump('start', ('main', here))
    lazy import json
    lazy import colorsys
    lazy from decimal import Decimal
    lazy from json import dumps
    lazy import pkg.sub.deep
    lazy import xml.dom.minidom as minidom
    lazy from pkg import value
    dump('bound', ('main', here))
    for _ in range(2):
        lazy import shlex
    dump('rebound', ('main', here))
    json, dumps
    dump('used json (imported already)', ('main', here))
    colorsys.rgb_to_hsv
    Decimal
    dump('used two not imported', ('main', here))
    pkg.sub.deep.VALUE, value
    import sys
    package, subpackage = vars(sys.modules['pkg']), vars(sys.modules['pkg.sub'])
    dump('deep used', ('main', here), ('pkg', package), ('pkg.sub', subpackage))
    minidom.parseString
    shlex.quote
    dump('all used', ('main', here), ('pkg', vars(sys.modules['pkg'])))
    lazy import broken
    lazy from broken import anything
    for use in (lambda: broken, lambda: anything, lambda: broken):
        try:
            use()
        except ValueError as error:
            print('failed:', error, type(error.__cause__).__name__, error.__cause__.__traceback__.tb_lineno)
    dump('a failed first use, twice', ('main', here))
""")


def test_binding_settling_and_attaching_agree(tmp_path):
    write_files(
        tmp_path,
        {
            'dumping.py': STATE_DUMP,
            'main.py': '# -*- coding: lazy -*-\n' + PROGRAM,
            'pkg/__init__.py': 'value = 1\n',
            'pkg/sub/__init__.py': '',
            'pkg/sub/deep.py': 'VALUE = 2\n',
            'broken.py': "raise ValueError('broken at import')\n",
        },
    )
    runs = {
        name: run_process(
            [sys.executable, 'main.py'], cwd=tmp_path, check=True, extra_env={'LAZY_CODEC_PURE': pure}
        ).stdout
        for name, pure in (('accelerated', '0'), ('pure', '1'))
    }
    assert runs['accelerated'] == runs['pure']
    out = runs['pure']
    # (each step changed something: the program reaches the twins)
    assert "('json', 'LazyName', 'lazy_import')" in out and "('json', 'str', 'module')" in out
    assert "'pkg.sub.deep'" in out and 'waiting: {}' in out
    assert out.count('--') == 8
    # (the failed first uses: each chained to its own lazy line, 29 and 30)
    assert out.count('failed: broken at import ImportError 29') == 2, out
    assert out.count('failed: broken at import ImportError 30') == 1, out


# a lazy object's slots as each runtime makes them (a relative `from` has its
# level in `_level`, which C's first use reads), then the names used
SLOTS_PROGRAM = textwrap.dedent("""\
    from lazy_codec.runtime.lazy import LazyImportType
    lazy import json
    lazy import xml.dom
    lazy from json import dumps
    lazy from . import sibling
    lazy from .sub import deep
    lazy from .sub.deep import VALUE
    lazy from .. import top_level
    here = globals()
    for name, value in list(here.items()):
        if type(value) is LazyImportType:
            shown = {slot: getattr(value, slot) for slot in LazyImportType.__slots__
                     if slot not in ('_globals', '_key')}
            print(str(name), sorted(shown.items()), type(value._key).__name__)
    print(sibling.WHO, deep.VALUE, VALUE, top_level.WHO, dumps([1]), xml.dom.__name__)
""")


def test_lazy_objects_have_the_same_slots(tmp_path):
    write_files(
        tmp_path,
        {
            'top/__init__.py': '',
            'top/top_level.py': "WHO = 'top_level'\n",
            'top/pkg/__init__.py': '',
            'top/pkg/sibling.py': "WHO = 'sibling'\n",
            'top/pkg/sub/__init__.py': '',
            'top/pkg/sub/deep.py': 'VALUE = 2\n',
            'top/pkg/main.py': '# -*- coding: lazy -*-\n' + SLOTS_PROGRAM,
        },
    )
    runs = {
        name: run_process(
            [sys.executable, '-c', 'import top.pkg.main'],
            cwd=tmp_path,
            check=True,
            extra_env={'LAZY_CODEC_PURE': pure},
        ).stdout
        for name, pure in (('accelerated', '0'), ('pure', '1'))
    }
    assert runs['accelerated'] == runs['pure']
    out = runs['pure']
    assert "('_level', 2)" in out and "('_level', 1)" in out and "('_level', 0)" in out, out
    assert out.endswith('sibling 2 2 top_level [1] xml.dom\n'), out


# a module's lazy names reached as its attributes, as real programs reach
# them (click's `click.group`, `from pkg import name` of a re-export, a
# submodule importlib sets on its package, `from pkg import sub`, a dict's
# last lazy name, which hands the dict to the rebuilder): with the
# accelerator, none of these lookups calls the pure runtime's key_eq
ATTRIBUTES_PROGRAM = textwrap.dedent("""\
    import sys
    calls = []
    def profile(frame, event, arg):
        if event == 'call' and frame.f_code.co_name in ('key_eq', 'key_hash', 'settle'):
            calls.append(frame.f_code.co_name)
    import reexport
    sys.setprofile(profile)
    def use():
        return reexport.dumps([1]), reexport.JSONDecoder.__name__
    print(use())
    from reexport import OrderedDict, sub, other
    print(OrderedDict.__name__, sub.VALUE, other.VALUE)
    import reexport.late
    print(reexport.late.VALUE)
    sys.setprofile(None)
    print('lazy:', sorted(k for k, v in vars(reexport).items() if type(v).__name__ == 'lazy_import'))
    print('python calls:', calls if sys.argv[1:] == ['accelerated'] else '(pure)')
""")


def test_attribute_loads_are_the_accelerators(tmp_path):
    write_files(
        tmp_path,
        {
            'main.py': '# -*- coding: lazy -*-\n' + ATTRIBUTES_PROGRAM,
            'reexport/__init__.py': '# -*- coding: lazy -*-\n'
            'lazy from json import dumps, JSONDecoder\n'
            'lazy from collections import OrderedDict\n'
            'lazy from . import sub, other, late\n'
            'kept = 1\n',
            'reexport/sub.py': 'VALUE = 2\n',
            'reexport/other.py': 'VALUE = 3\n',
            'reexport/late.py': 'VALUE = 4\n',
        },
    )
    runs = {
        name: run_process(
            [sys.executable, 'main.py', name], cwd=tmp_path, check=True, extra_env={'LAZY_CODEC_PURE': pure}
        ).stdout
        for name, pure in (('accelerated', '0'), ('pure', '1'))
    }
    assert runs['accelerated'].replace('python calls: []', 'python calls: (pure)') == runs['pure'], runs
    out = runs['pure']
    assert (
        "('[1]', 'JSONDecoder')" in out and 'OrderedDict 2 3' in out and '\n4\n' in out and 'lazy: []' in out
    )


LOCKS = textwrap.dedent("""\
    import _thread, threading, time
    from lazy_codec.runtime import state

    def exercise(lock):
        seen = [type(lock) is type(state.binding_lock)]
        with lock:
            with lock:  # re-entrant
                seen.append(lock._is_owned())
            seen.append(lock._is_owned())
        seen.append(lock._is_owned())
        try:
            lock.release()
        except RuntimeError as error:
            seen.append(('release unheld', type(error).__name__))
        # held by one thread, another waits (the GIL released meanwhile), then takes it
        order = []
        lock.acquire()
        def other():
            with lock:
                order.append('other')
        thread = threading.Thread(target=other)
        thread.start()
        time.sleep(0.05)
        order.append('holder')
        lock.release()
        thread.join()
        seen.append(order)
        try:  # a release from a thread that does not hold it
            lock.acquire()
            errors = []
            def release():
                try:
                    lock.release()
                except RuntimeError as error:
                    errors.append(type(error).__name__)
            thread = threading.Thread(target=release)
            thread.start()
            thread.join()
            seen.append(errors)
        finally:
            lock.release()
        # counts stay exact under contention
        total = [0]
        def add():
            for _ in range(20000):
                with lock:
                    total[0] += 1
        threads = [threading.Thread(target=add) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seen.append(total[0])
        return seen[1:], seen[0]

    ours, is_ours = exercise(state.binding_lock)
    reference, _ = exercise(_thread.RLock())
    print(is_ours, type(state.binding_lock).__name__)
    print(ours == reference, ours)
""")


def test_binding_lock_behaves_as_an_rlock(tmp_path):
    # with the accelerator the binding lock is its own (C takes it without a
    # call); what Python code does with it is what it does with _thread.RLock
    write_files(tmp_path, {'main.py': LOCKS})
    out = run_process([sys.executable, 'main.py'], cwd=tmp_path, check=True).stdout.splitlines()
    assert out[0] == 'True BindingLock'
    assert out[1].startswith('True '), out[1]
