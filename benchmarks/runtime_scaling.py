"""Does the runtime's cost per lazy statement and per first use stay flat
as a process holds more lazy imports?  (issue: 10, 100, 1,000 and 10,000,
within one module and across many; max/min <= 1.25)

    python benchmarks/runtime_scaling.py [--sizes 10,100,1000,10000] [--repeat 5]

Run it with the interpreter to measure, lazy_codec installed (3.9-3.14).
The targets are modules already imported, so that a first use costs the
runtime's own work and not an import; the holders' code is loaded before
the clock starts, so that a statement costs its own work and not a share of
loading its module; each figure is the best of `repeat`
fresh runs of one size, in nanoseconds per statement / per first use.
Prints a table and one JSON line.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

COOKIE = '# -*- coding: lazy -*-\n'
WARMUP = 200  # lazy statements (and as many first uses) before the clock starts

# runs in a fresh process: N lazy statements in `layout`, then N first uses
CHILD = r"""
import importlib.util, sys, time
sys.path.insert(0, {where!r})
for i in range({n}):
    __import__(f't{{i}}')  # the targets, imported eagerly beforehand
import holder_index, warmup
warmup.use()  # one-time costs (loading the runtime, specializing its code) out of the figures
# each holder's code and module made beforehand: the time is the statements'
# own, not finding, reading and unmarshalling their modules
holders = []
for name in holder_index.MODULES:
    spec = importlib.util.find_spec(name)
    holders.append((spec.loader.get_code(name), importlib.util.module_from_spec(spec)))
start = time.perf_counter_ns()
for code, module in holders:
    exec(code, module.__dict__)  # runs the lazy statements
statements = time.perf_counter_ns() - start
uses = [module.use for _, module in holders]
start = time.perf_counter_ns()
for use in uses:
    use()  # each loads every lazy name of its module once
first_uses = time.perf_counter_ns() - start
print(statements, first_uses)
"""


def write_tree(where: str, n: int, per_module: int) -> None:
    for i in range(n):
        with open(os.path.join(where, f't{i}.py'), 'w') as f:
            f.write(f'X = {i}\n')
    modules = []
    for start in range(0, n, per_module):
        names = range(start, min(start + per_module, n))
        name = f'holder{start}'
        modules.append(name)
        body = ''.join(f'lazy import t{i}\n' for i in names)
        uses = ''.join(f'    t{i}.X\n' for i in names)
        with open(os.path.join(where, f'{name}.py'), 'w') as f:
            f.write(COOKIE + body + 'def use():\n' + uses)
    # the warm-up: the runtime's code run often enough that the interpreter
    # has specialized it (3.11+), as it has in a program's thousandth statement
    for i in range(WARMUP):
        with open(os.path.join(where, f'w{i}.py'), 'w') as f:
            f.write(f'X = {i}\n')
    with open(os.path.join(where, 'warmup.py'), 'w') as f:
        f.write(
            COOKIE
            + ''.join(f'lazy import w{i}\nlazy from w{i} import X as x{i}\n' for i in range(WARMUP))
            + 'def use():\n'
            + ''.join(f'    w{i}.X, x{i}\n' for i in range(WARMUP))
        )
    with open(os.path.join(where, 'holder_index.py'), 'w') as f:
        f.write(f'MODULES = {modules!r}\n')


def measure(n: int, per_module: int, repeat: int) -> tuple:
    with tempfile.TemporaryDirectory() as where:
        write_tree(where, n, per_module)
        env = {
            k: v for k, v in os.environ.items() if k not in ('PYTHONDONTWRITEBYTECODE', 'PYTHON_LAZY_IMPORTS')
        }
        code = CHILD.format(where=where, n=n)
        best = None
        for _ in range(repeat + 1):  # the first run writes the bytecode caches
            out = subprocess.run(
                [sys.executable, '-c', code], capture_output=True, text=True, env=env, check=True
            ).stdout.split()
            figures = (int(out[0]) / n, int(out[1]) / n)
            best = figures if best is None else tuple(map(min, best, figures))
        return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--sizes', default='10,100,1000,10000')
    parser.add_argument('--repeat', type=int, default=5)
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(',')]
    results = {}
    print(f'{sys.version.split()[0]}: ns per lazy statement / per first use (best of {args.repeat})')
    for layout, per_module in (('one module', None), ('modules of 10', 10)):
        rows = {n: measure(n, per_module or n, args.repeat) for n in sizes}
        stmt = [rows[n][0] for n in sizes]
        use = [rows[n][1] for n in sizes]
        # (the sizes from 100 on: 10 operations are too few to time apart
        # from the first runs of the runtime's code in a process)
        stmt100 = [t for n, t in zip(sizes, stmt) if n >= 100] or stmt
        use100 = [t for n, t in zip(sizes, use) if n >= 100] or use
        results[layout] = {
            'sizes': sizes,
            'per_statement_ns': stmt,
            'per_first_use_ns': use,
            'statement_max_over_min': max(stmt) / min(stmt),
            'first_use_max_over_min': max(use) / min(use),
            'statement_max_over_min_from_100': max(stmt100) / min(stmt100),
            'first_use_max_over_min_from_100': max(use100) / min(use100),
        }
        print(
            f'  {layout:14}'
            + ''.join(f'  {n:>6}: {s:7.0f} / {u:7.0f}' for n, (s, u) in rows.items())
            + f'   max/min {max(stmt) / min(stmt):.2f} / {max(use) / min(use):.2f}'
            + f' (from 100: {max(stmt100) / min(stmt100):.2f} / {max(use100) / min(use100):.2f})'
        )
    print(json.dumps({'python': sys.version.split()[0], 'results': results}))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
