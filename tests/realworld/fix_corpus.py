"""`lazy-codec fix --lazy` on the whole corpus: a manual measurement.

    python tests/realworld/run.py --no-suites --no-pip    # once: the venvs with the corpus
    .venvs/3.11/bin/python tests/realworld/fix_corpus.py [OUT]

Copies every top-level package of packages.txt from .venvs-realworld/3.11 into
OUT/before and OUT/after (default: a temporary directory), runs `fix --lazy`
with every standard-library module and every corpus package listed on
OUT/after (one run, the running interpreter, which needs tokenize-rt), then
says: files rewritten, lazy statements written, files refused, the imports left
eager and why, whether `check` passes and a second run changes nothing; then
imports each package and every submodule of it (as probe.py walks them) from
OUT/before and OUT/after, with 3.11 + lazy_codec and with native 3.15, and
lists the packages whose import failures differ, per interpreter.  A package
that differs alike on 3.15 is a consequence of its imports being lazy, not a
difference of lazy_codec's.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VENVS = os.path.join(ROOT, '.venvs-realworld')

WALK = r"""
import importlib, pkgutil, sys
failed = []
name = sys.argv[1]
try:
    module = importlib.import_module(name)
except Exception as exc:
    failed.append((name, type(exc).__name__))
else:
    for info in pkgutil.walk_packages(getattr(module, '__path__', []), name + '.', onerror=lambda n: None):
        if '.tests' in info.name or '.test_' in info.name or info.name.endswith('__main__'):
            continue
        try:
            importlib.import_module(info.name)
        except BaseException as exc:
            failed.append((info.name, type(exc).__name__))
print(sorted(failed))
"""


def corpus_names() -> list:
    names = []
    with open(os.path.join(HERE, 'packages.txt')) as f:
        for line in f:
            fields = line.split('#')[0].split()
            if len(fields) == 2:
                names += fields[1].split(',')
    return names


def main() -> int:
    out = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix='fix-corpus-')
    site = os.path.join(VENVS, '3.11', 'lib', 'python3.11', 'site-packages')
    names = corpus_names()
    for state in ('before', 'after'):
        target = os.path.join(out, state)
        shutil.rmtree(target, ignore_errors=True)
        os.makedirs(target)
        for name in names:
            source = os.path.join(site, name)
            if os.path.isdir(source):
                shutil.copytree(
                    source, os.path.join(target, name), ignore=shutil.ignore_patterns('__pycache__')
                )
            elif os.path.exists(source + '.py'):
                shutil.copy(source + '.py', target)
    stdlib = sorted(n for n in sys.stdlib_module_names if not n.startswith('_')) + ['__future__']
    fix = [
        sys.executable,
        '-m',
        'lazy_codec',
        'fix',
        '--lazy',
        ','.join(stdlib + names),
        os.path.join(out, 'after'),
    ]
    env = dict(os.environ, PYTHONPATH=ROOT)
    first = subprocess.run(fix, capture_output=True, text=True, env=env, timeout=600)
    err = first.stderr.splitlines()
    statements = files = 0
    for directory, _, filenames in os.walk(os.path.join(out, 'after')):
        for filename in filenames:
            if filename.endswith('.py'):
                files += 1
                with open(os.path.join(directory, filename), encoding='utf-8', errors='replace') as f:
                    statements += len(re.findall(r'^[ \t]*lazy (?:import|from) ', f.read(), re.MULTILINE))
    reasons: dict = {}
    for line in err:
        if 'left eager: ' in line:
            reason = line.split('left eager: ', 1)[1]
            reasons[reason] = reasons.get(reason, 0) + 1
    print(
        f'{files} files, {sum(line.startswith("Rewriting") for line in err)} rewritten, {statements} lazy '
        f'statements, {sum(line.endswith("(not changed)") for line in err)} refused; left eager:'
    )
    for reason, count in sorted(reasons.items(), key=lambda item: -item[1]):
        print(f'  {count:5d}  {reason}')
    for line in err:
        if line.endswith('(not changed)') or line.startswith('fix:'):
            print('  ' + line)
    check = subprocess.run(
        [sys.executable, '-m', 'lazy_codec', 'check', os.path.join(out, 'after')],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    again = subprocess.run(fix, capture_output=True, text=True, env=env, timeout=600)
    print(f'check: exit {check.returncode}; a second fix: exit {again.returncode}')
    for version in ('3.11', '3.15'):
        python = os.path.join(VENVS, version, 'bin', 'python')
        failures = {}
        for state in ('before', 'after'):
            for name in names:
                proc = subprocess.run(
                    [python, '-c', WALK, name],
                    capture_output=True,
                    text=True,
                    timeout=300,
                    env=dict(os.environ, PYTHONPATH=os.path.join(out, state)),
                )
                failures[state, name] = proc.stdout.strip() or proc.stderr.strip()[-300:]
        differ = {
            name: {'before': failures['before', name], 'after': failures['after', name]}
            for name in names
            if failures['before', name] != failures['after', name]
        }
        print(f'{version}: {len(names) - len(differ)} of {len(names)} packages import as before; differ:')
        print(json.dumps(differ, indent=1))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
