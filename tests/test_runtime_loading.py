"""lazy_codec.runtime.load(): the runtime's modules run from their cached
bytecode without the import system's layers, as importlib would have run
them (the same modules, attributes and locks), and through the import
system where the cache is missing or stale."""

import os
import shutil
import sys
import textwrap

import pytest
from conftest import NATIVE, run_process, write_files

pytestmark = pytest.mark.skipif(NATIVE, reason='the backport runtime is not used on 3.15+')

SHOW = textwrap.dedent('''\
    import sys
    import lazy_codec.runtime as runtime
    runtime.load()
    # with the accelerator, LOADED_ON_DEMAND waits for a first need
    accelerated = sys.modules['lazy_codec.runtime.state'].accel is not None
    waiting = [name for name in runtime.LOADED_ON_DEMAND if 'lazy_codec.runtime.' + name not in sys.modules]
    print(waiting == (list(runtime.LOADED_ON_DEMAND) if accelerated else []))
    for name in runtime.LOADED_ON_DEMAND:
        assert runtime.load_on_demand(name) is sys.modules['lazy_codec.runtime.' + name]
    for name in runtime.LOADED_AT_START:
        module = sys.modules['lazy_codec.runtime.' + name]
        spec = module.__spec__
        assert getattr(runtime, name) is module, name
        assert module.__file__ == spec.origin and module.__cached__ == spec.cached, name
        assert type(module.__loader__).__name__ == 'SourceFileLoader' and spec.loader is module.__loader__
        assert spec.parent == 'lazy_codec.runtime' and spec._initializing is False, name
        assert module.__file__.endswith(name + '.py'), name
    import importlib
    import lazy_codec.runtime.accelerator
    importlib.reload(sys.modules['lazy_codec.runtime.accelerator'])
    print('ok')
    print(sys.modules['lazy_codec.runtime.state'].__spec__.loader.get_source('lazy_codec.runtime.state')
          .startswith('"""'))
''')


def _copy_of_the_package(tmp_path) -> str:
    """lazy_codec as installed, copied under tmp_path (its caches with it)"""
    found = run_process(
        [sys.executable, '-c', 'import lazy_codec, os; print(os.path.dirname(lazy_codec.__file__))'],
        cwd=tmp_path,
        check=True,
    ).stdout.strip()
    shutil.copytree(found, tmp_path / 'lib' / 'lazy_codec')
    return str(tmp_path / 'lib')


def test_load_gives_the_modules_importlib_would(tmp_path):
    write_files(tmp_path, {'show.py': SHOW})
    result = run_process([sys.executable, 'show.py'], cwd=tmp_path, check=True)
    assert result.stdout == 'True\nok\nTrue\n'


def test_a_stale_or_missing_cache_goes_through_the_import_system(tmp_path):
    lib = _copy_of_the_package(tmp_path)
    env = {'PYTHONPATH': lib}
    # warm every cache first (the copy may have none), then make one stale and
    # delete another: their new source must run, and their caches be rewritten
    run_process(
        [sys.executable, '-c', 'import lazy_codec.runtime as r; r.load()'],
        cwd=tmp_path,
        extra_env=env,
        unset_env=('PYTHONDONTWRITEBYTECODE',),
        check=True,
    )
    runtime = os.path.join(lib, 'lazy_codec', 'runtime')
    with open(os.path.join(runtime, 'state.py'), 'a', encoding='utf-8') as f:
        f.write('\nEDITED = "state"\n')
    stat = os.stat(os.path.join(runtime, 'state.py'))
    os.utime(os.path.join(runtime, 'state.py'), (stat.st_atime, stat.st_mtime + 10))
    with open(os.path.join(runtime, 'lookup.py'), 'a', encoding='utf-8') as f:
        f.write('\nEDITED = "lookup"\n')
    cache = sys.implementation.cache_tag
    os.remove(os.path.join(runtime, '__pycache__', f'lookup.{cache}.pyc'))
    program = (
        'import sys, lazy_codec.runtime as r; r.load(); r.load_on_demand("lookup"); '
        'print(r.state.EDITED, r.lookup.EDITED, r.lookup.__spec__.loader.path.endswith("lookup.py"))'
    )
    for _ in range(2):  # (the second from the caches the first wrote)
        result = run_process(
            [sys.executable, '-c', program],
            cwd=tmp_path,
            extra_env=env,
            unset_env=('PYTHONDONTWRITEBYTECODE',),
            check=True,
        )
        assert result.stdout == 'state lookup True\n'
    assert os.path.exists(os.path.join(runtime, '__pycache__', f'lookup.{cache}.pyc'))


def test_a_lazy_statement_loads_the_runtime_so(tmp_path):
    # the first statement's path: the entry calls load(); a program sees a
    # runtime whose modules have importlib's attributes
    write_files(
        tmp_path,
        {
            'main.py': '# -*- coding: lazy -*-\nlazy import json\nimport sys\n'
            'state = sys.modules["lazy_codec.runtime.state"]\n'
            'print(state.__spec__.name, state.__file__ == state.__spec__.origin, json.dumps(1))\n'
        },
    )
    result = run_process([sys.executable, 'main.py'], cwd=tmp_path, check=True)
    assert result.stdout == 'lazy_codec.runtime.state True 1\n'
