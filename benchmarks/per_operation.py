"""What one lazy statement and one first use cost, against native 3.15 in the same run.

    python benchmarks/per_operation.py [--versions 3.11,3.14] [--n 2000] [--rounds 7]

The same generated modules (benchmarks/runtime_scaling.py's: N `lazy import
tK` statements in one module, then one function that uses each name once;
the targets imported beforehand, so that a first use costs the binding's
work and not an import) run under each lazy_codec version asked, with the C
accelerator and with the pure runtime (LAZY_CODEC_PURE=1), and under native
3.15, in the venvs of benchmarks/real_programs.py (lazy_codec reinstalled
from this checkout).  Each round runs every configuration once, in turn, so
that all see the same drift of a shared machine; a figure is the best of the
rounds, in nanoseconds per statement / per first use, and its ratio to 3.15.
The targets of issue 23: at most 3x native per statement, 4x per first use,
accelerated.  Prints a table and one JSON line; writes nothing.

Twice: as the child program runs (a full collection of the garbage collector
may fall in the timed window: it traverses the heap the child built before,
2,000 modules, and costs 3.13/3.14 far more than 3.15), and with that heap
frozen first (`gc.collect(); gc.freeze()`: the operations' own cost, their
own objects' collections included).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import real_programs  # noqa: E402  (its venvs and interpreters)
import runtime_scaling  # noqa: E402  (its generated modules and child program)


def configurations(versions: list[str]) -> list[tuple[str, str, dict]]:
    """(label, venv python, extra environment) of each runtime to measure"""
    found = real_programs.interpreters(versions + ['3.15'])
    missing = [v for v in versions + ['3.15'] if v not in found]
    if missing:
        raise SystemExit(f'not found: {", ".join(missing)}')
    configs = []
    for version in versions + ['3.15']:
        vpy = real_programs.make_venv(version, found[version])
        if version == '3.15':
            configs.append(('3.15 native', vpy, {}))
            continue
        asked = real_programs._run(
            [vpy, '-m', 'lazy_codec', '--version'], cwd=HERE, env=real_programs.clean_env()
        ).stdout
        if 'C accelerator' not in asked:
            raise SystemExit(f'{version}: the accelerator is not built ({asked.strip()})')
        configs.append((f'{version} C accelerator', vpy, {}))
        configs.append((f'{version} pure', vpy, {'LAZY_CODEC_PURE': '1'}))
    return configs


FREEZE = 'import gc; gc.collect(); gc.freeze()\n'
TIMED = 'start = time.perf_counter_ns()\nfor code, module'


def run_child(vpy: str, where: str, n: int, extra: dict, frozen: bool = False) -> tuple[float, float]:
    code = runtime_scaling.CHILD.format(where=where, n=n)
    if frozen:
        assert TIMED in code
        code = code.replace(TIMED, FREEZE + TIMED, 1)
    out = real_programs._run([vpy, '-c', code], env=real_programs.clean_env(**extra), cwd=where)
    real_programs._check(out, f'{vpy} per-operation child')
    statements, first_uses = out.stdout.split()[-2:]
    return int(statements) / n, int(first_uses) / n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--versions', default='3.11,3.14')
    parser.add_argument('--n', type=int, default=2000)
    parser.add_argument('--rounds', type=int, default=7)
    args = parser.parse_args(argv)
    configs = configurations(args.versions.split(','))
    best: dict[tuple[str, bool], list[float]] = {}
    with tempfile.TemporaryDirectory() as where:
        runtime_scaling.write_tree(where, args.n, args.n)
        for _label, vpy, extra in configs:  # untimed: writes the bytecode caches
            run_child(vpy, where, args.n, extra)
        for _ in range(args.rounds):
            for frozen in (False, True):
                for label, vpy, extra in configs:
                    figures = run_child(vpy, where, args.n, extra, frozen)
                    key = (label, frozen)
                    best[key] = [min(a, b) for a, b in zip(best.get(key, figures), figures)]
    report = {}
    for frozen in (False, True):
        native = best[('3.15 native', frozen)]
        print(
            f'ns per lazy statement / per first use, {args.n} in one module, best of {args.rounds} rounds'
            + (', the heap built before frozen' if frozen else ', as the program runs')
        )
        print(f'{"":24} {"statement":>10} {"x 3.15":>7} {"first use":>10} {"x 3.15":>7}')
        for (label, was_frozen), (statement, use) in best.items():
            if was_frozen != frozen:
                continue
            ratios = statement / native[0], use / native[1]
            print(f'{label:24} {statement:10.0f} {ratios[0]:7.2f} {use:10.0f} {ratios[1]:7.2f}')
            report[f'{label}{" (heap frozen)" if frozen else ""}'] = {
                'statement_ns': round(statement),
                'first_use_ns': round(use),
                'statement_x_native': round(statement / native[0], 2),
                'first_use_x_native': round(use / native[1], 2),
            }
        print()
    print(json.dumps(report))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
