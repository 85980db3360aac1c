"""python -m lazy_codec fix: source -> expected tables, refusals, the report
round trip, and real packages."""

import json
import os
import re
import shutil
import sys

import pytest
from conftest import COOKIE, run_process

from lazy_codec.__main__ import main
from lazy_codec.tools.check import is_main_script
from lazy_codec.tools.fix import Settings, compile_315, fix_text, read_report

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NOWHERE = os.path.join(os.sep, 'nonexistent', 'm.py')  # in no package


def _fix(src, **settings):
    notes = []
    return fix_text(src, NOWHERE, Settings(**settings), notes.append), notes


# -- no option: the cookie where a script's lazy syntax lacks it -----------------


@pytest.mark.parametrize(
    'src',
    (
        pytest.param('', id='empty'),
        pytest.param('import json\n', id='no lazy syntax'),
        pytest.param(COOKIE + 'lazy import json\n', id='cookie already'),
        pytest.param('#!/usr/bin/env python\n' + COOKIE + 'lazy import json\n', id='cookie after shebang'),
        pytest.param('lazy = 1\nlazy.x = lazy\n', id='lazy as a name'),
        pytest.param('s = """\nlazy import json\n"""\n', id='in a string'),
        pytest.param('__lazy_modules__ = ["json"]\nimport json\n', id='__lazy_modules__ needs no cookie'),
    ),
)
def test_cookie_noop(src):
    assert _fix(src) == (src, [])


@pytest.mark.parametrize(
    ('src', 'expected'),
    (
        pytest.param('lazy import json\n', COOKIE + 'lazy import json\n', id='line 1'),
        pytest.param(
            '#!/usr/bin/env python\nlazy import json\n',
            '#!/usr/bin/env python\n' + COOKIE + 'lazy import json\n',
            id='after a shebang',
        ),
        pytest.param('#!/usr/bin/env python', None, id='shebang only: nothing to do'),
        pytest.param(
            '# -*- coding: utf-8 -*-\nlazy from json import dumps\n',
            '# -*- coding: lazy -*-\nlazy from json import dumps\n',
            id='utf-8 cookie replaced',
        ),
        pytest.param(
            '# comment\n# vim: set fileencoding=utf8 :\nlazy import json\n',
            '# comment\n# vim: set fileencoding=lazy :\nlazy import json\n',
            id='vim cookie on line 2',
        ),
        pytest.param(
            '# coding=ascii\nlazy import json\n',
            '# coding=lazy\nlazy import json\n',
            id='ascii cookie replaced',
        ),
        pytest.param(
            'import os\r\nlazy import json\r\n',
            '# -*- coding: lazy -*-\r\nimport os\r\nlazy import json\r\n',
            id='CRLF kept',
        ),
        pytest.param('x = 1\nlazy import json', COOKIE + 'x = 1\nlazy import json', id='no final newline'),
        pytest.param(
            'if x:\n    lazy import json  # c\n',
            COOKIE + 'if x:\n    lazy import json  # c\n',
            id='in a block',
        ),
    ),
)
def test_cookie(src, expected):
    # a script (run as `python FILE`, the one case that needs the cookie)
    def script(text):
        return text + ('' if text.endswith('\n') else '\n') + MAIN

    assert _fix(script(src)) == (script(src if expected is None else expected), [])
    # a module: the import system compiles its lazy syntax without a cookie
    if not src.startswith('#!'):
        assert _fix(src) == (src, [])


MAIN = "if __name__ == '__main__':\n    pass\n"


# -- --lazy MOD -------------------------------------------------------------------

LISTED = ('json', 'xml', 'collections', 'os', 'email.mime')


@pytest.mark.parametrize(
    ('src', 'expected'),
    (
        pytest.param('import json\n', 'lazy import json\n', id='import'),
        pytest.param('import xml.dom.minidom\n', 'lazy import xml.dom.minidom\n', id='submodule'),
        pytest.param('import json as j\n', 'lazy import json as j\n', id='as'),
        pytest.param(
            'from json import dumps, loads as l\n', 'lazy from json import dumps, loads as l\n', id='from'
        ),
        pytest.param(
            'from xml.dom import minidom\n', 'lazy from xml.dom import minidom\n', id='from a submodule'
        ),
        pytest.param(
            'from email.mime.text import MIMEText\n',
            'lazy from email.mime.text import MIMEText\n',
            id='listed package.sub',
        ),
        pytest.param(
            'from collections import (\n    OrderedDict,  # c\n    defaultdict,\n)\n',
            'lazy from collections import (\n    OrderedDict,  # c\n    defaultdict,\n)\n',
            id='parenthesized',
        ),
        pytest.param('from os \\\n    import path\n', 'lazy from os \\\n    import path\n', id='continued'),
        pytest.param('import json, os\n', 'lazy import json, os\n', id='every alias listed'),
        pytest.param(
            'if True:\n    import json\nelse:\n    import json\n',
            'if True:\n    lazy import json\nelse:\n    lazy import json\n',
            id='in if blocks',
        ),
        pytest.param('with x:\n    import json\n', 'with x:\n    lazy import json\n', id='in a with block'),
        pytest.param('for x in y:\n    import json\n', 'for x in y:\n    lazy import json\n', id='in a loop'),
        pytest.param('x = 1; import json  # c\n', 'x = 1; lazy import json  # c\n', id='after ;'),
        pytest.param('import json; import os\n', 'lazy import json; lazy import os\n', id='two on a line'),
        pytest.param(
            '"""doc"""\nfrom __future__ import annotations\nimport json\n',
            '"""doc"""\nfrom __future__ import annotations\nlazy import json\n',
            id='after __future__',
        ),
        pytest.param('import json\r\nimport sys\r\n', 'lazy import json\r\nimport sys\r\n', id='CRLF'),
        pytest.param('import   json\t# c\n', 'lazy import   json\t# c\n', id='spacing kept'),
        pytest.param('x = "é"\nimport json\n', 'x = "é"\nlazy import json\n', id='non-ASCII text'),
        pytest.param('import json', 'lazy import json', id='no final newline'),
        # `import a, b` with some listed: split, the eager part first, the lazy part on the next line
        pytest.param('import sys, json\n', 'import sys\nlazy import json\n', id='split'),
        pytest.param(
            'import json, sys, os as o, re  # c\n',
            'import sys, re  # c\nlazy import json, os as o\n',
            id='split with a comment',
        ),
        pytest.param(
            'if x:\n    import sys, json\n',
            'if x:\n    import sys\n    lazy import json\n',
            id='split in a block',
        ),
        pytest.param(
            'x = 1; import sys, json\n', 'x = 1; import sys; lazy import json\n', id='split after ;'
        ),
        pytest.param(
            'import sys, json; y = 2\n', 'import sys; lazy import json; y = 2\n', id='split before ;'
        ),
        pytest.param('import sys, \\\n    json\n', 'import sys\nlazy import json\n', id='split continued'),
        pytest.param(
            'import json, \\\n    sys\n', 'import sys\nlazy import json\n', id='split continued first'
        ),
        pytest.param('import sys, json', 'import sys\nlazy import json', id='split without final newline'),
        pytest.param('import sys, json\r\n', 'import sys\r\nlazy import json\r\n', id='split CRLF'),
    ),
)
def test_lazy(src, expected):
    out, notes = _fix(src, lazy=LISTED)
    assert out == expected  # (a module: no cookie)
    assert notes == []


@pytest.mark.parametrize(
    ('src', 'note'),
    (
        pytest.param('import jsonschema\n', None, id='not listed (a prefix is not a package)'),
        pytest.param('import email.utils\n', None, id='a listed package.sub names only its own'),
        pytest.param('from email import mime\n', None, id='from the package of a listed one'),
        pytest.param(COOKIE + 'lazy import json\n', None, id='already lazy'),
        pytest.param(
            'try:\n    import json\nexcept ImportError:\n    pass\n',
            '2:5: import of json left eager: lazy import not allowed inside try/except blocks',
            id='try',
        ),
        pytest.param(
            'try:\n    pass\nexcept ImportError:\n    import json\n',
            '4:5: import of json left eager: lazy import not allowed inside try/except blocks',
            id='except',
        ),
        pytest.param(
            'try:\n    pass\nfinally:\n    from json import dumps\n',
            '4:5: import of json left eager: lazy from ... import not allowed inside try/except blocks',
            id='finally',
        ),
        pytest.param(
            'try:\n    pass\nexcept E:\n    pass\nelse:\n    import json\n',
            '6:5: import of json left eager: lazy import not allowed inside try/except blocks',
            id="try's else",
        ),
        pytest.param(
            'def f():\n    import json\n',
            '2:5: import of json left eager: lazy import not allowed inside functions',
            id='function',
        ),
        pytest.param(
            'async def f():\n    import json\n',
            '2:5: import of json left eager: lazy import not allowed inside functions',
            id='async function',
        ),
        pytest.param(
            'class C:\n    from json import dumps\n',
            '2:5: import of json left eager: lazy from ... import not allowed inside classes',
            id='class',
        ),
        pytest.param(
            'def f(): import json\n',
            '1:10: import of json left eager: lazy import not allowed inside functions',
            id='one-line def',
        ),
        pytest.param(
            'from json import *\n',
            '1:1: import of json left eager: lazy from ... import * is not allowed',
            id='star',
        ),
        pytest.param(
            'import xml.dom, xml\n',
            '1:1: import of xml.dom, xml left eager: it binds one name both eagerly and lazily',
            id="listed alias binds an unlisted one's name",
        ),
    ),
)
def test_lazy_noop(src, note):
    out, notes = _fix(src, lazy=('json', 'xml.dom', 'email.mime'))
    assert out == src
    assert notes == ([] if note is None else [f'{NOWHERE}:{note}'])


def test_lazy_future():
    src = 'from __future__ import annotations\n'
    assert _fix(src, lazy=('__future__',)) == (
        src,
        [f'{NOWHERE}:1:1: import of __future__ left eager: lazy from __future__ import is not allowed'],
    )


def test_lazy_relative(tmp_path):
    pkg = tmp_path / 'pkg' / 'sub'
    pkg.mkdir(parents=True)
    (tmp_path / 'pkg' / '__init__.py').write_text('')
    (pkg / '__init__.py').write_text('')
    mod = pkg / 'mod.py'
    src = 'from . import a\nfrom .. import b\nfrom ..other import c\nfrom .x import d\n'
    notes = []
    out = fix_text(src, str(mod), Settings(lazy=('pkg.other', 'pkg.sub')), notes.append)
    assert out == (
        'lazy from . import a\nfrom .. import b\nlazy from ..other import c\nlazy from .x import d\n'
    )
    assert notes == []


def test_lazy_modules_relative(tmp_path):
    (tmp_path / 'pkg').mkdir()
    (tmp_path / 'pkg' / '__init__.py').write_text('')
    notes = []
    src = 'from . import a\nfrom .util import b\n'
    out = fix_text(
        src, str(tmp_path / 'pkg' / 'mod.py'), Settings(lazy=('pkg',), lazy_modules=True), notes.append
    )
    assert out == "__lazy_modules__ = ['pkg', 'pkg.util']\n" + src
    out = fix_text(src, str(tmp_path / 'mod.py'), Settings(lazy=('.util',), lazy_modules=True), notes.append)
    assert out == src  # outside a package: the name 3.15 looks for is not known
    assert notes == [f'{tmp_path / "mod.py"}:2:1: import of .util left eager: its package is not known here']


# -- --lazy-modules --------------------------------------------------------------


@pytest.mark.parametrize(
    ('src', 'expected'),
    (
        pytest.param('import json\n', "__lazy_modules__ = ['json']\nimport json\n", id='new'),
        pytest.param(
            '"""doc"""\nfrom __future__ import annotations\n\nimport sys\nimport json, xml.dom\n',
            '"""doc"""\nfrom __future__ import annotations\n\n__lazy_modules__ = ["json", "xml.dom"]\n'
            'import sys\nimport json, xml.dom\n',
            id='after docstring and __future__, quotes as the file',
        ),
        pytest.param(
            'x = 1\nif x:\n    import json\n',
            "x = 1\n__lazy_modules__ = ['json']\nif x:\n    import json\n",
            id='before the block holding it',
        ),
        pytest.param(
            "__lazy_modules__ = ['os']\nimport json\n",
            "__lazy_modules__ = ['os', 'json']\nimport json\n",
            id='extended',
        ),
        pytest.param(
            "__lazy_modules__ = ['os',]\nimport json\n",
            "__lazy_modules__ = ['os', 'json',]\nimport json\n",
            id='extended after a trailing comma',
        ),
        pytest.param(
            '__lazy_modules__ = ()\nimport json\n',
            "__lazy_modules__ = ('json',)\nimport json\n",
            id='empty tuple',
        ),
        pytest.param(
            "__lazy_modules__ = [\n    'os',\n]\nimport json\n",
            "__lazy_modules__ = [\n    'os',\n    'json',\n]\nimport json\n",
            id='one a line',
        ),
        pytest.param(
            "__lazy_modules__ = [\n    'os'\n]\nimport json\n",
            "__lazy_modules__ = [\n    'os',\n    'json',\n]\nimport json\n",
            id='one a line, no comma',
        ),
        pytest.param(
            "__lazy_modules__ = {'json'}\nimport json\n",
            "__lazy_modules__ = {'json'}\nimport json\n",
            id='listed already: only the cookie',
        ),
        pytest.param(
            'from json import dumps\nfrom xml.dom import minidom\n',
            "__lazy_modules__ = ['json', 'xml.dom']\nfrom json import dumps\nfrom xml.dom import minidom\n",
            id='from: the module imported from',
        ),
    ),
)
def test_lazy_modules(src, expected):
    out, notes = _fix(src, lazy=('json', 'xml'), lazy_modules=True)
    assert (out, notes) == (expected, [])


def test_lazy_modules_long_line():
    names = [f'module_number_{i}' for i in range(5)]
    out, _ = _fix(''.join(f'import {n}\n' for n in names), lazy=names, lazy_modules=True)
    assert out.startswith("__lazy_modules__ = [\n    'module_number_0',\n")
    assert "    'module_number_4',\n]\nimport module_number_0\n" in out


@pytest.mark.parametrize(
    ('src', 'note'),
    (
        pytest.param(
            '__lazy_modules__ = make()\nimport json\n',
            '1: __lazy_modules__ is not one list, tuple or set written out: not extended',
            id='computed',
        ),
        pytest.param(
            '__lazy_modules__ = [name]\nimport json\n',
            '1: __lazy_modules__ holds more than strings: not extended',
            id='not strings',
        ),
        pytest.param(
            "import json\n__lazy_modules__ = ['os']\n",
            '2: __lazy_modules__ is set after the imports it would make lazy (line 1): not extended',
            id='set too late',
        ),
    ),
)
def test_lazy_modules_refused(src, note):
    out, notes = _fix(src, lazy=('json',), lazy_modules=True)
    assert out == src
    assert notes == [f'{NOWHERE}:{note}']


# -- --drop-cookie ---------------------------------------------------------------


@pytest.mark.parametrize(
    ('src', 'expected'),
    (
        pytest.param(COOKIE + 'lazy import json\n', 'lazy import json\n', id='line removed'),
        pytest.param(
            '# -*- coding: lazy; mode: python -*-\nx = 1\n',
            '# -*- coding: utf-8; mode: python -*-\nx = 1\n',
            id='other settings kept',
        ),
        pytest.param('# -*- coding: lazy -*-\r\nx = 1\r\n', 'x = 1\r\n', id='CRLF'),
    ),
)
def test_drop_cookie(src, expected):
    assert _fix(src, drop_cookie=True) == (expected, [])


def test_drop_cookie_keeps_a_scripts():
    # `python FILE` compiles a script without asking the import system
    src = '#!/usr/bin/env python\n# coding: lazy\nlazy import json\n'
    assert _fix(src, drop_cookie=True) == (
        src,
        [f'{NOWHERE}: cookie kept: a script run as `python FILE` needs it before 3.15'],
    )


def test_drop_cookie_noop():
    src = '# -*- coding: utf-8 -*-\nx = 1\n'  # not lazy: kept
    assert _fix(src, drop_cookie=True) == (src, [])


def test_drop_cookie_with_lazy():
    out, _ = _fix(COOKIE + 'import json\n', lazy=('json',), drop_cookie=True)
    assert out == 'lazy import json\n'


# -- --unused ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ('src', 'entries', 'expected'),
    (
        pytest.param('import json\n', [(1, 'json', False)], 'lazy import json\n', id='unused'),
        pytest.param(
            'import sys, json as j\n',
            [(1, 'sys', True), (1, 'j', False)],
            'import sys\nlazy import json as j\n',
            id='split',
        ),
        pytest.param(
            'from json import (\n    dumps,\n    loads)\n',
            [(1, 'dumps', False), (1, 'loads', False)],
            'lazy from json import (\n    dumps,\n    loads)\n',
            id='from, none used',
        ),
        pytest.param(
            'from json import (\n    dumps,\n    loads)\n',
            [(3, 'dumps', False), (3, 'loads', False)],
            'lazy from json import (\n    dumps,\n    loads)\n',
            id='line of a later line',
        ),
        pytest.param('import xml.dom\n', [(1, 'xml', False)], 'lazy import xml.dom\n', id='dotted'),
    ),
)
def test_unused(src, entries, expected):
    out = fix_text(src, NOWHERE, Settings(unused={os.path.realpath(NOWHERE): entries}), [].append)
    assert out == expected


@pytest.mark.parametrize(
    ('src', 'entries'),
    (
        pytest.param('import json\n', [(1, 'json', True)], id='used'),
        pytest.param('import json\n', [(1, 'json', False), (1, 'json', True)], id='used once'),
        pytest.param('import json\n', [], id='never ran'),
        pytest.param(
            'from json import dumps, loads\n', [(1, 'dumps', False), (1, 'loads', True)], id='from, one used'
        ),
        pytest.param('from json import dumps, loads\n', [(1, 'dumps', False)], id='from, one bound eagerly'),
        pytest.param('import json\nimport os\n', [(2, 'json', False)], id='another line'),
    ),
)
def test_unused_noop(src, entries):
    out = fix_text(src, NOWHERE, Settings(unused={os.path.realpath(NOWHERE): entries}), [].append)
    assert out == src


def test_unused_with_lazy():
    src = 'from json import dumps, loads\nimport os, sys\n'
    entries = [(1, 'dumps', False), (1, 'loads', True), (2, 'os', True), (2, 'sys', False)]
    out = fix_text(
        src, NOWHERE, Settings(lazy=('xml',), unused={os.path.realpath(NOWHERE): entries}), [].append
    )
    assert out == 'from json import dumps, loads\nimport os\nlazy import sys\n'
    out = fix_text(
        src, NOWHERE, Settings(lazy=('json',), unused={os.path.realpath(NOWHERE): entries}), [].append
    )
    assert out == 'lazy from json import dumps, loads\nimport os\nlazy import sys\n'


# -- files: encodings, refusals, exit status, --diff, idempotence ---------------------


def test_main(tmp_path, capsys):
    (tmp_path / 'a.py').write_text('import json\nimport sys\n')
    (tmp_path / 'b.py').write_text('import sys\n')
    (tmp_path / 'c.py').write_text('lazy import os\n')
    assert main(['fix', '--lazy', 'json', str(tmp_path)]) == 1
    assert (tmp_path / 'a.py').read_text() == 'lazy import json\nimport sys\n'
    assert (tmp_path / 'b.py').read_text() == 'import sys\n'
    assert (tmp_path / 'c.py').read_text() == 'lazy import os\n'  # a module: nothing to add
    assert capsys.readouterr().err.splitlines()[-1:] == [f'Rewriting {tmp_path}/a.py']
    assert main(['fix', '--lazy', 'json', str(tmp_path)]) == 0  # idempotent
    assert main(['check', str(tmp_path)]) == 0


def test_diff(tmp_path, capsys):
    path = tmp_path / 'a.py'
    path.write_bytes(b'import json\r\n')
    assert main(['fix', '--diff', '--lazy', 'json', str(path)]) == 1
    assert path.read_bytes() == b'import json\r\n'
    assert capsys.readouterr().out == (
        f'--- {path}\n+++ {path}\n@@ -1 +1 @@\n-import json\r\n+lazy import json\r\n'
    )


def test_bytes_kept(tmp_path):
    path = tmp_path / 'a.py'
    src = '# -*- coding: utf-8 -*-\r\n"""é\tü"""   \r\nimport json  # \u2603\r\n\x0c\r\nx = 1'
    path.write_bytes(src.encode())
    assert main(['fix', '--lazy', 'json', str(path)]) == 1
    assert path.read_bytes() == src.replace('import', 'lazy import').encode()  # (a module: its cookie kept)


SCRIPT_END = b"if __name__ == '__main__':\n    pass\n"  # (a script: fix adds the cookie)


@pytest.mark.parametrize(
    ('data', 'message'),
    (
        pytest.param(b'\xef\xbb\xbflazy import json\n', 'starts with a UTF-8 BOM', id='BOM'),
        pytest.param(
            b'# coding: latin-1\nx = "\xe9"\nlazy import json\n' + SCRIPT_END,
            'is written in latin-1',
            id='latin-1',
        ),
        pytest.param(b'x = "\xe9"\nlazy import json\n', 'cannot be read', id='not UTF-8'),
        pytest.param(b'import json\rx = 1\r', 'lone CR', id='CR endings'),
        pytest.param(
            b'lazy import json\ndef f():\n    lazy import os\n',
            '3:5: lazy import not allowed inside functions',
            id='check fails',
        ),
        pytest.param(
            b'lazy import json\nx = = 1\n' + SCRIPT_END, 'would not compile on 3.15', id='syntax error'
        ),
    ),
)
def test_refused(tmp_path, capsys, data, message):
    path = tmp_path / 'a.py'
    path.write_bytes(data)
    assert main(['fix', '--lazy', 'json', str(path)]) == 1
    assert path.read_bytes() == data
    err = capsys.readouterr().err
    assert message in err and err.rstrip().endswith('(not changed)')


def test_latin1_ascii_only(tmp_path):
    path = tmp_path / 'a.py'
    path.write_bytes(b'# coding: latin-1\nimport json\n')
    assert main(['fix', '--lazy', 'json', str(path)]) == 1
    assert path.read_bytes() == b'# coding: latin-1\nlazy import json\n'  # (a module: read as latin-1)


def test_lazy_modules_alone_is_a_usage_error(tmp_path, capsys):
    assert main(['fix', '--lazy-modules', str(tmp_path)]) == 2
    assert capsys.readouterr().err == 'lazy-codec fix: --lazy-modules goes with --lazy or --unused\n'


def test_every_expected_result_compiles_on_315():
    """what the tables expect compiles on 3.15 (or, without one here,
    through the rewrite on this interpreter)"""
    texts = {}
    for test in (test_cookie, test_lazy, test_lazy_modules, test_drop_cookie):
        for param in test.pytestmark[0].args[1]:
            texts[f'{test.__name__}[{param.id}]'] = (
                COOKIE + param.values[1] if test in (test_lazy, test_lazy_modules) else param.values[1] or ''
            )
    assert compile_315(texts, print) == {}


@pytest.mark.skipif(sys.version_info >= (3, 15), reason='3.15 compiles the results itself')
def test_without_315(monkeypatch):
    import lazy_codec.tools.fix as fix

    monkeypatch.setattr(fix, 'python315', lambda: None)
    notes = []
    assert compile_315({'good': COOKIE + 'lazy import json\n', 'bad': 'x = = 1\n'}, notes.append) == {
        'bad': 'invalid syntax (line 1)'
    }
    assert len(notes) == 1 and notes[0].startswith('fix: no Python 3.15 found')


def test_decoder_does_not_import_tokenize_rt(tmp_path):
    (tmp_path / 'mod.py').write_text(COOKIE + 'lazy import json\nx = 1\n')
    code = (
        'import sys, mod; assert mod.x == 1; '
        'print(sorted(m for m in ("tokenize_rt", "lazy_codec.tools.fix", "tokenize") if m in sys.modules))'
    )
    proc = run_process([sys.executable, '-c', code], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == '[]\n'


# -- the round trip: report in mode "all", then fix --unused ------------------------

EXAMPLE = os.path.join(ROOT, 'examples', 'ledger_cli')
PROBE = (
    'import sys\nfrom ledger.cli import main\ntry:\n    main(["--help"])\nexcept SystemExit:\n    pass\n'
    'print(sorted(m for m in ("asyncio", "json", "ledger.fetch", "decimal") if m in sys.modules))\n'
)


@pytest.mark.skipif(sys.version_info >= (3, 15), reason="report is the backport runtime's (3.9-3.14)")
def test_report_then_fix_unused(tmp_path):
    project = tmp_path / 'ledger_cli'
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns('__pycache__'))
    report = {'LAZY_CODEC_REPORT': str(tmp_path / 'report.json')}
    run = run_process(
        [sys.executable, '-X', 'lazy_imports=all', '-m', 'ledger', '--help'], cwd=project, extra_env=report
    )
    assert run.returncode == 0, run.stderr
    data = json.loads((tmp_path / 'report.json').read_text())
    cli = [e for e in data['entries'] if e['file'].endswith(os.path.join('ledger', 'cli.py'))]
    assert sorted((e['line'], e['bound_as'], e['used']) for e in cli) == [
        (2, 'argparse', True),
        (3, 'sys', False),
        (5, 'export', False),
        (5, 'fetch', False),
        (5, 'report', False),
    ]
    assert os.path.realpath(os.path.join(project, 'ledger', 'cli.py')) in read_report(
        str(tmp_path / 'report.json')
    )

    before = run_process([sys.executable, '-c', PROBE], cwd=project)
    assert before.stdout.endswith("['asyncio', 'decimal', 'json', 'ledger.fetch']\n")
    assert main(['fix', '--unused', str(tmp_path / 'report.json'), str(project)]) == 1
    source = (project / 'ledger' / 'cli.py').read_text()
    assert source.startswith('"""ledger\'s command line')
    assert '\nimport argparse\nlazy import sys\n\nlazy from ledger import export, fetch, report\n' in source
    for name in ('entries', 'export', 'fetch', 'report', '__main__'):  # never imported in that run
        assert (project / 'ledger' / f'{name}.py').read_text() == open(
            os.path.join(EXAMPLE, 'ledger', f'{name}.py')
        ).read()
    assert main(['check', str(project)]) == 0
    after = run_process([sys.executable, '-c', PROBE], cwd=project)
    assert after.returncode == 0, after.stderr
    assert after.stdout == before.stdout.replace("['asyncio', 'decimal', 'json', 'ledger.fetch']", '[]')
    used = run_process([sys.executable, '-m', 'ledger', 'report', 'sample.csv'], cwd=project)
    assert used.returncode == 0 and used.stdout.startswith('food            19.75'), used.stderr
    assert main(['fix', '--unused', str(tmp_path / 'report.json'), str(project)]) == 0


@pytest.mark.skipif(sys.version_info >= (3, 15), reason="report is the backport runtime's (3.9-3.14)")
def test_unused_of_several_runs(tmp_path):
    """an import is made lazy when no run used it"""
    project = tmp_path / 'ledger_cli'
    shutil.copytree(EXAMPLE, project, ignore=shutil.ignore_patterns('__pycache__'))
    runs = (['--help'], ['export', 'sample.csv'])
    for n, args in enumerate(runs):
        report = {'LAZY_CODEC_REPORT': str(tmp_path / f'{n}.json')}
        run = run_process(
            [sys.executable, '-X', 'lazy_imports=all', '-m', 'ledger', *args], cwd=project, extra_env=report
        )
        assert run.returncode == 0, run.stderr
    second = json.loads((tmp_path / '1.json').read_text())['entries']
    # resolved lazy objects are kept by the report: a freed one's id, given to
    # a later one, would replace its record (sys and export, used, were lost)
    assert {(e['line'], e['bound_as'], e['used']) for e in second if e['file'].endswith('cli.py')} == {
        (2, 'argparse', True),
        (3, 'sys', True),
        (5, 'export', True),
        (5, 'fetch', False),
        (5, 'report', False),
    }
    assert (
        main(
            [
                'fix',
                '--unused',
                str(tmp_path / '0.json'),
                '--unused',
                str(tmp_path / '1.json'),
                str(project / 'ledger'),
            ]
        )
        == 1
    )
    # export ran in the second run: the names it used stay eager there
    assert (
        '\nimport argparse\nimport sys\n\nfrom ledger import export, fetch, report\n'
        in (project / 'ledger' / 'cli.py').read_text()
    )
    export = (project / 'ledger' / 'export.py').read_text()
    assert export.startswith(
        'import json\nlazy import xml.etree.ElementTree as ET\nlazy from xml.dom import minidom\n'
    )
    assert main(['check', str(project)]) == 0


# -- real packages: every module-level import of the standard library lazy --------


def _stdlib_names():
    names = getattr(sys, 'stdlib_module_names', None)
    if names is None:  # 3.9
        import pkgutil
        import sysconfig

        names = {m.name for m in pkgutil.iter_modules([sysconfig.get_paths()['stdlib']])}
        names |= set(sys.builtin_module_names)
    return sorted(n for n in names if not n.startswith('_') or n in ('_typeshed',)) + ['__future__']


REAL = (
    # (package, a smoke test run after the import of every module)
    ('pluggy', 'pm = pluggy.PluginManager("x"); assert pm.project_name == "x"'),
    ('iniconfig', 'assert iniconfig.IniConfig("x.ini", data="[s]\\na = 1\\n")["s"]["a"] == "1"'),
    ('packaging', 'from packaging.version import Version; assert Version("1.10") > Version("1.9")'),
)


@pytest.mark.parametrize('lazy_modules', (False, True), ids=('statements', '__lazy_modules__'))
@pytest.mark.parametrize(('package', 'smoke'), REAL, ids=[p for p, _ in REAL])
def test_real_package(tmp_path, capsys, package, smoke, lazy_modules):
    try:
        module = __import__(package)
    except ImportError:
        pytest.skip(f'{package} is not installed here')
    target = tmp_path / package
    shutil.copytree(os.path.dirname(module.__file__), target, ignore=shutil.ignore_patterns('__pycache__'))
    listed = ','.join(_stdlib_names() + [package])
    argv = ['fix', '--lazy', listed, str(target)] + (['--lazy-modules'] if lazy_modules else [])
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert '(not changed)' not in err, err
    changed = [line for line in err.splitlines() if line.startswith('Rewriting')]
    assert changed
    for path in changed:
        text = open(path.split(' ', 1)[1], encoding='utf-8').read()
        assert text.startswith(COOKIE) == is_main_script(text)  # (modules need no cookie)
        written = r'^__lazy_modules__ = ' if lazy_modules else r'^[ \t]*lazy (import|from) '
        assert re.search(written, text, re.MULTILINE), text
    assert main(['check', str(target)]) == 0
    assert main(argv) == 0  # idempotent
    for path in changed:
        text = open(path.split(' ', 1)[1], encoding='utf-8').read()
        assert compile_315({path: text}, print) == {}
    code = (
        f'import importlib, pkgutil, sys\nimport {package}\n'
        f'assert {package}.__file__.startswith({str(tmp_path)!r}), {package}.__file__\n'
        f'for m in pkgutil.walk_packages({package}.__path__, "{package}."):\n'
        f'    importlib.import_module(m.name)\n{smoke}\nprint("ok")\n'
    )
    proc = run_process([sys.executable, '-c', code], cwd=tmp_path, timeout=300)
    assert (proc.returncode, proc.stdout) == (0, 'ok\n'), proc.stderr
