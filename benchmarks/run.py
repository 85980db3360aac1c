"""Measure lazy_codec against eager imports, side by side, per version.

    python benchmarks/run.py [--versions 3.11,3.14] [--runs 15] [--out benchmarks/results]
                             [--real [--real-pairs 11]]

For each version: a venv with lazy_codec (installed from this checkout) and a
plain venv of the same interpreter; then the reference harness
(../shared/bench/run-all: whole processes timed A B A B, ratios pair by pair)
and benchmarks/extras.py (in-process figures the harness does not take).
Writes OUT/<version>.json (everything) and OUT/summary.md (the table of the
issue's targets), and prints the table; --real then runs
benchmarks/real_programs.py on the same versions (real programs, mode "all" /
eager, native 3.15 beside: OUT/real-programs.json).  Numbers are ratios taken within one
run; absolute times on these machines drift.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tests'))
from matrix import find_interpreters  # noqa: E402

HARNESS = os.path.join(os.path.dirname(ROOT), 'shared', 'bench', 'run-all')

# figure -> (harness JSON path, target, native 3.15 anchor, future-lazy-imports anchor)
TARGETS = [
    ('python -c pass, with / without', ('s4', 'result', 'ratio_wall', 'median'), '<= 1.03', '1.00', '2.59'),
    (
        's2 decode / compile(decoded)',
        ('s2', 'inproc', 'ratio_decode_over_compile_xformed', 'median'),
        '<= 0.25',
        '-',
        '5.55',
    ),
    (
        's2 cold compile via codec / eager',
        ('s2', 'inproc', 'ratio_compile_raw_over_compile_eager', 'median'),
        '<= 1.10',
        '0.99',
        '6.55',
    ),
    ('s1 --help warm', ('s1', 'results', 'help_warm', 'ratio_wall', 'median'), '<= 0.30', '0.28', '0.30'),
    ('s1 --help cold', ('s1', 'results', 'help_cold', 'ratio_wall', 'median'), '<= 0.38', '0.33', '0.66'),
    ('s1 run all cold', ('s1', 'results', 'runall_cold', 'ratio_wall', 'median'), '<= 1.08', '1.01', '1.58'),
    ('s1 --help peak RSS', ('s1', 'results', 'help_warm', 'ratio_rss', 'median'), '<= 0.43', '0.41', '0.40'),
    (
        's2 script, no name used',
        ('s2', 'results', 'script_none', 'ratio_wall', 'median'),
        '<= 0.36',
        '0.32',
        '1.75',
    ),
    (
        's2 script, all used',
        ('s2', 'results', 'script_all', 'ratio_wall', 'median'),
        '<= 1.08',
        '1.00',
        '2.32',
    ),
    (
        's3 attr (module keeps an unused lazy name)',
        ('s3', 'inproc', 'cases', 'attr', 'ratio_lazy_over_eager', 'median'),
        '<= 1.03',
        '1.00',
        '1.49',
    ),
    (
        's3 from (module keeps an unused lazy name)',
        ('s3', 'inproc', 'cases', 'from', 'ratio_lazy_over_eager', 'median'),
        '<= 1.03',
        '1.00',
        '1.54',
    ),
    (
        's3 unused',
        ('s3', 'inproc', 'cases', 'unused', 'ratio_lazy_over_eager', 'median'),
        '<= 1.10',
        '1.00',
        '1.00',
    ),
    ('s5b dispatch wall', ('s5', 'results', 'dispatch', 'ratio_wall', 'median'), '<= 0.40', '0.36', '1.19'),
]


def _run(cmd, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)


def venvs(version: str, python: str) -> tuple[str, str]:
    base = os.path.join(ROOT, '.venvs')
    lazy, plain = os.path.join(base, f'bench-lazy-{version}'), os.path.join(base, f'bench-plain-{version}')
    for venv in (lazy, plain):
        if not os.path.exists(os.path.join(venv, 'bin', 'python')):
            if _run([python, '-m', 'venv', venv]).returncode != 0:
                _run([python, '-m', 'venv', '--without-pip', venv]).check_returncode()
    pip = [os.path.join(lazy, 'bin', 'python'), '-m', 'pip']
    if _run(pip + ['--version']).returncode != 0:
        # no pip in the venv (Debian's interpreters): install the package by
        # hand, as pip would (the package and the .pth into site-packages)
        _copy_install(os.path.join(lazy, 'bin', 'python'))
    else:
        _run(pip + ['install', '-q', '--no-deps', '--force-reinstall', ROOT]).check_returncode()
    return os.path.join(lazy, 'bin', 'python'), os.path.join(
        plain, 'bin', 'python'
    )  # absolute: the harness changes directory


def _copy_install(python: str) -> None:
    import shutil

    site = _run([python, '-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])']).stdout.strip()
    shutil.rmtree(os.path.join(site, 'lazy_codec'), ignore_errors=True)
    shutil.copytree(
        os.path.join(ROOT, 'lazy_codec'),
        os.path.join(site, 'lazy_codec'),
        ignore=shutil.ignore_patterns('__pycache__'),
    )
    shutil.copy(os.path.join(ROOT, 'pth', 'lazy_codec.pth'), site)


def _dig(data, path):
    for key in path:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    return data


def harness(version: str, lazy_py: str, plain_py: str, runs: int, work: str) -> dict:
    env = dict(os.environ, RUNS=str(runs))
    proc = _run([HARNESS, lazy_py, 'lazy', plain_py, work], env=env)
    if proc.returncode != 0:
        print(proc.stdout[-3000:], file=sys.stderr)
    results = {}
    for scenario in ('s1', 's2', 's3', 's4', 's5'):
        path = os.path.join(work, f'{scenario}.json')
        if os.path.exists(path):
            with open(path) as f:
                results[scenario] = json.load(f)
    return results


# a stdlib-heavy program without the cookie: in mode "all" the import hook
# makes the standard library's own module-level imports lazy
ALL_MODE_PROGRAM = (
    'import asyncio, email.mime.multipart, http.server, json, decimal, '
    'logging.handlers, unittest, urllib.request'
)


def all_mode(lazy_py: str, plain_py: str, runs: int, work: str) -> dict:
    """-X lazy_imports=all (warm: its bytecode cached) vs eager, and the
    start-up of the venv with lazy_codec vs the plain one"""
    abtime = os.path.join(os.path.dirname(HARNESS), 'abtime.py')
    out = {}
    for label, a, b in (
        (
            'all_mode_warm',
            f'{lazy_py} -X lazy_imports=all -c "{ALL_MODE_PROGRAM}"',
            f'{plain_py} -c "{ALL_MODE_PROGRAM}"',
        ),
        (
            'all_mode_same_venv',
            f'{lazy_py} -X lazy_imports=all -c "{ALL_MODE_PROGRAM}"',
            f'{lazy_py} -c "{ALL_MODE_PROGRAM}"',
        ),
    ):
        path = os.path.join(work, f'{label}.json')
        os.makedirs(work, exist_ok=True)
        _run(['sh', '-c', a])  # writes the lazyall bytecode: warm from here on
        proc = _run([sys.executable, abtime, '-n', str(runs), '--a', a, '--b', b, '--json', path])
        if proc.returncode == 0:
            with open(path) as f:
                out[label] = json.load(f)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--versions', default='3.11,3.14')
    parser.add_argument('--runs', type=int, default=15)
    parser.add_argument('--out', default=os.path.join(ROOT, 'benchmarks', 'results'))
    parser.add_argument(
        '--real',
        action='store_true',
        help='then the real programs too (benchmarks/real_programs.py, native 3.15 beside)',
    )
    parser.add_argument('--real-pairs', type=int, default=11)
    args = parser.parse_args(argv)
    # as run-all does: these change what is measured (no bytecode cache, ...)
    for var in (
        'PYTHONDONTWRITEBYTECODE',
        'PYTHONPYCACHEPREFIX',
        'PYTHON_LAZY_IMPORTS',
        'PYTHONPROFILEIMPORTTIME',
        'LAZY_CODEC_REPORT',
        'LAZY_CODEC_LAZY_MODULES',
    ):
        os.environ.pop(var, None)
    os.makedirs(args.out, exist_ok=True)
    interpreters = find_interpreters()
    table = {}
    for version in args.versions.split(','):
        if version not in interpreters:
            print(f'{version}: not found here', file=sys.stderr)
            continue
        start = time.monotonic()
        lazy_py, plain_py = venvs(version, interpreters[version])
        work = os.path.join(args.out, f'work-{version}')
        result = {'harness': harness(version, lazy_py, plain_py, args.runs, work)}
        result['all_mode'] = all_mode(lazy_py, plain_py, args.runs, work)
        extras = _run([lazy_py, os.path.join(ROOT, 'benchmarks', 'extras.py')])
        result['extras'] = json.loads(extras.stdout) if extras.returncode == 0 else extras.stdout
        result['machine'] = f'{platform.machine()}, {os.cpu_count()} cpus, {platform.platform()}'
        with open(os.path.join(args.out, f'{version}.json'), 'w') as f:
            json.dump(result, f, indent=1)
        table[version] = result
        print(f'{version}: measured in {time.monotonic() - start:.0f}s', file=sys.stderr)
    # the table: every version measured into OUT, by this run or an earlier one
    for name in sorted(os.listdir(args.out), key=_version_key):
        version = name[: -len('.json')]
        if (
            name.endswith('.json') and re.fullmatch(r'\d+\.\d+', version) and version not in table
        ):  # not real-programs.json
            with open(os.path.join(args.out, name)) as f:
                table[version] = json.load(f)
    table = {v: table[v] for v in sorted(table, key=_version_key)}
    summary = render(table)
    with open(os.path.join(args.out, 'summary.md'), 'w') as f:
        f.write(summary)
    print(summary)
    if args.real:
        import real_programs

        return real_programs.main(
            ['--versions', args.versions, '--pairs', str(args.real_pairs), '--out', args.out]
        )
    return 0


def _version_key(name: str) -> tuple:
    digits = name.split('.json')[0].split('.')
    return tuple(int(d) for d in digits if d.isdigit())


def _fmt(value) -> str:
    return '-' if value is None else f'{value:.3f}' if isinstance(value, float) else str(value)


def render(table: dict) -> str:
    versions = list(table)
    head = (
        '| figure (lazy_codec / eager) | target | native 3.15 | future-lazy-imports | '
        + ' | '.join(versions)
        + ' |\n|---|---|---|---|'
        + '---|' * len(versions)
        + '\n'
    )
    rows = []
    for label, path, target, native, fli in TARGETS:
        cells = [_fmt(_dig(table[v]['harness'], path)) for v in versions]
        rows.append(f'| {label} | {target} | {native} | {fli} | ' + ' | '.join(cells) + ' |')

    def extra(label, path, target):
        cells = [_fmt(_dig(table[v].get('extras'), path)) for v in versions]
        rows.append(f'| {label} | {target} | - | - | ' + ' | '.join(cells) + ' |')

    sem = [_dig(table[v]['harness'], ('s5', 'semantics')) for v in versions]
    rows.append(
        '| s5a behaviour checks (semantics.py) | 22/22 | 22/22 | 8/22 | '
        + ' | '.join(f'{sum(r["pass"] for r in s)}/{len(s)}' if s else '-' for s in sem)
        + ' |'
    )
    rows.append(
        '| s5b modules imported, lazy (eager) | 50 | 50 | 155 | '
        + ' | '.join(
            _fmt(_dig(table[v]['harness'], ('s5', 'imports', 'lazy')))
            + f' ({_fmt(_dig(table[v]["harness"], ("s5", "imports", "eager")))})'
            for v in versions
        )
        + ' |'
    )
    for label, key in (
        ('mode "all", warm, stdlib-heavy imports / eager (plain venv)', 'all_mode_warm'),
        ('mode "all" / eager, same venv', 'all_mode_same_venv'),
    ):
        cells = [_fmt(_dig(table[v].get('all_mode'), (key, 'ratio_wall', 'median'))) for v in versions]
        rows.append(f'| {label} | <= 1.00 | - | - | ' + ' | '.join(cells) + ' |')
    extra('s3 attr, every lazy name of the module used', ('steady_resolved', 'attr', 'median'), '<= 1.03')
    extra('s3 from, every lazy name of the module used', ('steady_resolved', 'from', 'median'), '<= 1.03')
    extra('stdlib: total decode / total compile', ('stdlib_corpus', 'ratio'), '<= 0.10')
    extra("3.15's lazy stdlib modules: decode / compile", ('reference_lazy_modules', 'ratio'), '-')
    extra('decode us/line spread, 1k/10k/100k lines', ('scaling', 'spread'), '<= 1.25 (±25%)')
    extra(
        'decode / compile, lazy statements all through 10k lines',
        ('scaling', '10000', 'ratio_to_compile'),
        '-',
    )
    machine = next(iter(table.values()))['machine'] if table else ''
    return head + '\n'.join(rows) + f'\n\nMachine: {machine}. Medians of pairwise ratios.\n'


if __name__ == '__main__':
    raise SystemExit(main())
