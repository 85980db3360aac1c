"""python -m lazy_codec: show, check, run."""

import os
import re
import sys

import pytest
from conftest import COOKIE, run_process

from lazy_codec.__main__ import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_show_diff(tmp_path, capsys):
    path = tmp_path / 'm.py'
    path.write_text(COOKIE + 'x = 1\nlazy import os\n')
    assert main(['show', '--diff', str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f'{path}:3:-lazy import os'
    assert out[1].startswith(f'{path}:3:+if __lazy_codec_abi1__.lazy_import(')
    assert len(out) == 2


def test_check(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    main_block = "if __name__ == '__main__':\n    pass\n"
    (tmp_path / 'good.py').write_text('lazy import os\n')
    (tmp_path / 'bad.py').write_text('def f():\n    lazy import os\nlazy from m import *\n')
    (tmp_path / 'module_cookie.py').write_text(COOKIE + 'lazy import os\n')
    (tmp_path / 'script_cookie.py').write_text(COOKIE + 'lazy import os\n' + main_block)
    (tmp_path / 'script_no_cookie.py').write_text('x = 1\nlazy from os import path\n' + main_block)
    (tmp_path / 'tool.py').write_text('#!/usr/bin/env python\nlazy import os\n')
    assert main(['check', str(tmp_path)]) == 1
    no_cookie = (
        "lazy import in a script without the '# -*- coding: lazy -*-' cookie: `python FILE` needs it "
        'before Python 3.15 (imported, or run with -m, a module needs none)'
    )
    not_needed = (
        'note: the cookie is not needed here (a module: the import system compiles its lazy syntax '
        'without it; `lazy-codec fix --drop-cookie` removes it)'
    )
    assert capsys.readouterr().out.splitlines() == [
        f'{tmp_path}/bad.py:2:5: lazy import not allowed inside functions',
        f'{tmp_path}/bad.py:3:1: lazy from ... import * is not allowed',
        f'{tmp_path}/module_cookie.py:1:1: {not_needed}',
        f'{tmp_path}/script_no_cookie.py:2:1: {no_cookie}',
        f'{tmp_path}/tool.py:2:1: {no_cookie}',
    ]
    # notes are advice: they do not fail the check
    assert main(['check', str(tmp_path / 'good.py'), str(tmp_path / 'module_cookie.py')]) == 0
    # a script keeps its cookie; pyupgrade, where pre-commit runs it, would remove it
    (tmp_path / '.pre-commit-config.yaml').write_text('repos:\n- repo: https://example.invalid/pyupgrade\n')
    capsys.readouterr()
    assert main(['check', str(tmp_path / 'script_cookie.py')]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f'{tmp_path}/script_cookie.py:1:1: note: pyupgrade removes coding cookies: keep it off this script, '
        'or run it with `lazy-codec run`'
    ]


@pytest.mark.skipif(sys.version_info >= (3, 15), reason='the interpreter parses lazy itself')
def test_run_without_site(tmp_path):
    # python -S processes no .pth: `run` registers the codec itself
    script = tmp_path / 'script.py'
    script.write_text(
        COOKIE + 'lazy import json\nimport sys\n'
        'print("json" in sys.modules, sys.argv[1:], json.dumps(1), "json" in sys.modules)\n'
    )
    source_tree = {'PYTHONPATH': ROOT}  # -S: no site-packages, so lazy_codec from here
    plain = run_process([sys.executable, '-S', script], extra_env=source_tree, timeout=60)
    # the interpreter's own words for an encoding it cannot find (3.9-3.13:
    # "encoding problem: lazy", 3.14: "unknown encoding: lazy")
    assert plain.returncode == 1 and plain.stdout == '', plain.stderr
    assert re.search(r'^SyntaxError: (encoding problem|unknown encoding): lazy$', plain.stderr, re.M), (
        plain.stderr
    )
    ran = run_process(
        [sys.executable, '-S', '-m', 'lazy_codec', 'run', script, 'a'], extra_env=source_tree, timeout=60
    )
    assert ran.returncode == 0 and ran.stderr == '', ran.stderr
    assert ran.stdout == "False ['a'] 1 True\n"
    # and a script of 3.15 source without the cookie, which only `run` serves
    # (`python FILE` compiles it in C, with no loader to ask)
    script.write_text(script.read_text().replace(COOKIE, ''))
    for flags in (['-S'], []):
        ran = run_process(
            [sys.executable, *flags, '-m', 'lazy_codec', 'run', script, 'b'],
            extra_env=source_tree if flags else None,
            timeout=60,
        )
        assert (ran.returncode, ran.stdout, ran.stderr) == (0, "False ['b'] 1 True\n", '')


REPORTED = (
    COOKIE
    + """\
lazy import json
lazy from fractions import Fraction
lazy import colorsys
def main():
    return json.dumps(1)
main()
"""
)


@pytest.mark.skipif(sys.version_info >= (3, 15), reason='the backport runtime is not used on 3.15+')
def test_report_json(tmp_path):
    (tmp_path / 'app.py').write_text(REPORTED)
    proc = run_process(
        [sys.executable, '-m', 'lazy_codec', 'report', '--json', 'app.py'], cwd=tmp_path, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    import json

    data = json.loads(proc.stdout)
    assert (data['lazy_imports'], data['used'], data['never_used']) == (3, 1, 2)
    (used,) = [e for e in data['entries'] if e['used']]
    assert (used['name'], used['declared'], used['first_use']) == ('json', 'app.py:2', 'app.py:6 in main')
    assert used['import_ms'] > 0
    assert sorted(e['name'] for e in data['entries'] if not e['used']) == ['colorsys', 'fractions.Fraction']


@pytest.mark.skipif(sys.version_info >= (3, 15), reason='the backport runtime is not used on 3.15+')
def test_report_from_environment(tmp_path):
    (tmp_path / 'app.py').write_text(REPORTED)
    proc = run_process(
        [sys.executable, 'app.py'],
        cwd=tmp_path,
        timeout=60,
        unset_env=('PYTHON*',),
        extra_env={'LAZY_CODEC_REPORT': '1', 'COLUMNS': '100'},
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0] == 'lazy_codec report: 3 lazy imports, 1 used, 2 never used'
    assert any('json (app.py:6 in main; app.py:2)' in line for line in lines)
    assert lines[-1].endswith('; 2 never ran')
    assert proc.stderr.count('lazy_codec report') == 1
