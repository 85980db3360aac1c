"""python -m lazy_codec: show, check, run."""
import os
import subprocess
import sys

import pytest

from lazy_codec.__main__ import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COOKIE = '# -*- coding: lazy -*-\n'


def test_show_diff(tmp_path, capsys):
    path = tmp_path / 'm.py'
    path.write_text(COOKIE + 'x = 1\nlazy import os\n')
    assert main(['show', '--diff', str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f'{path}:3:-lazy import os'
    assert out[1].startswith(f'{path}:3:+from lazy_codec._abi1 import lazy_import')
    assert len(out) == 2


def test_check(tmp_path, capsys):
    (tmp_path / 'good.py').write_text(COOKIE + 'lazy import os\n')
    (tmp_path / 'bad.py').write_text(COOKIE + 'def f():\n    lazy import os\nlazy from m import *\n')
    (tmp_path / 'nocookie.py').write_text('x = 1\nlazy from os import path\n')
    assert main(['check', str(tmp_path)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f'{tmp_path}/bad.py:3:5: lazy import not allowed inside functions',
        f'{tmp_path}/bad.py:4:1: lazy from ... import * is not allowed',
        f"{tmp_path}/nocookie.py:2:1: lazy import without the '# -*- coding: lazy -*-' cookie "
        f"(needed before Python 3.15)",
    ]
    assert main(['check', str(tmp_path / 'good.py')]) == 0


@pytest.mark.skipif(sys.version_info >= (3, 15), reason='the interpreter parses lazy itself')
def test_run_without_site(tmp_path):
    # python -S processes no .pth: `run` registers the codec itself
    script = tmp_path / 'script.py'
    script.write_text(COOKIE + 'lazy import json\nimport sys\n'
                      'print("json" in sys.modules, sys.argv[1:], json.dumps(1), "json" in sys.modules)\n')
    env = dict(os.environ, PYTHONPATH=ROOT)
    plain = subprocess.run([sys.executable, '-S', str(script)], capture_output=True, text=True, env=env)
    assert plain.returncode != 0 and 'lazy' in plain.stderr
    ran = subprocess.run([sys.executable, '-S', '-m', 'lazy_codec', 'run', str(script), 'a'],
                         capture_output=True, text=True, env=env)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == "False ['a'] 1 True\n"
