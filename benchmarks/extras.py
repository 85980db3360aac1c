"""In-process figures the reference harness does not take; run under the
interpreter being measured, with lazy_codec installed.  Prints one JSON object.

    python benchmarks/extras.py [--repeat N]

* stdlib corpus: every .py file of this interpreter's standard library,
  rewritten as an import does with the cookie prepended, vs compile() of it
  (total decode time / total compile time: most files have no lazy statement)
* 3.15's own lazy modules (from the reference interpreter's Lib, if present):
  decode time / compile time of the rewritten text, per file and in total
* scaling: decode time per line for generated files of 1k, 10k and 100k lines
  with lazy statements spread through the file (the worst case: all of it is
  read), and decode / compile of each
* steady state, module fully resolved: lazy/eager loop time when every lazy
  name of the module has been used (the dict is back to its fast form)
"""

from __future__ import annotations

import argparse
import codecs
import glob
import json
import os
import re
import statistics
import sys
import sysconfig
import tempfile
import time
import warnings

COOKIE = b'# -*- coding: lazy -*-\n'
LAZY_LINE = re.compile(rb'(?m)^[ \t]*lazy[ \t]+(import|from)[ \t]')
clock = time.perf_counter


def _transform():
    """what compiling a cookie file costs beyond the compile: on 3.9-3.14 the
    source loaders' rewrite (the codec's decode of text is plain UTF-8); on
    3.15+ the codec's decode"""
    if sys.version_info >= (3, 15):
        return codecs.lookup('lazy').decode
    from lazy_codec.rewrite.sources import rewritten_text

    return lambda data: (rewritten_text(data), len(data))


def _best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return min(times)


def stdlib_corpus(repeat: int) -> dict:
    decode = _transform()
    root = sysconfig.get_paths()['stdlib']
    total_decode = total_compile = 0.0
    files = 0
    for path in sorted(glob.glob(os.path.join(root, '**', '*.py'), recursive=True)):
        if 'site-packages' in path or not os.path.isfile(path):
            continue
        with open(path, 'rb') as f:
            data = f.read()
        try:
            text = data.decode('utf-8')
            code_text = decode(COOKIE + data)[0]
            compile(text, path, 'exec', dont_inherit=True)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        files += 1
        total_decode += _best(lambda data=data: decode(COOKIE + data), repeat)
        total_compile += _best(
            lambda code_text=code_text, path=path: compile(code_text, path, 'exec', dont_inherit=True), 1
        )
    return {
        'files': files,
        'decode_s': total_decode,
        'compile_s': total_compile,
        'ratio': total_decode / total_compile,
    }


def reference_lazy_modules(repeat: int) -> dict | None:
    root = os.path.expanduser('~/.cache/reference-pythons/root/usr/lib/python3.15')
    if not os.path.isdir(root):
        return None
    decode = _transform()
    total_decode = total_compile = 0.0
    checked = []
    for path in sorted(glob.glob(os.path.join(root, '**', '*.py'), recursive=True)):
        if not os.path.isfile(path):
            continue
        with open(path, 'rb') as f:
            data = f.read()
        if not LAZY_LINE.search(data):
            continue
        text = decode(COOKIE + data)[0]
        try:
            compile(text, path, 'exec', dont_inherit=True)
        except SyntaxError:
            checked.append((os.path.relpath(path, root), 'newer syntax'))
            continue
        d = _best(lambda data=data: decode(COOKIE + data), repeat)
        c = _best(lambda text=text, path=path: compile(text, path, 'exec', dont_inherit=True), 1)
        total_decode += d
        total_compile += c
        checked.append((os.path.relpath(path, root), round(d / c, 3)))
    return {
        'files': len(checked),
        'per_file': checked,
        'ratio': total_decode / total_compile if total_compile else None,
    }


def scaling(repeat: int) -> dict:
    decode = _transform()
    out = {}
    for lines in (1_000, 10_000, 100_000):
        parts = [COOKIE]
        for i in range(lines // 10):
            parts.append(b'lazy import json\n' if i % 10 == 0 else b'x = 1\n')
            parts.append(b'def f(a, b=2):\n    return a + b  # lazy import in a comment\n' * 4)
            parts.append(b's = "text"\n')
        data = b''.join(parts)
        n = data.count(b'\n')
        # more runs of the small files: the machine's noise is larger than them
        t = _best(lambda data=data: decode(data), {1_000: 21, 10_000: 9, 100_000: 5}[lines])
        text = decode(data)[0]
        c = _best(lambda text=text: compile(text, '<scaling>', 'exec', dont_inherit=True), 1)
        out[str(lines)] = {'lines': n, 'us_per_line': t / n * 1e6, 'ratio_to_compile': t / c}
    per_line = [v['us_per_line'] for v in out.values()]
    out['spread'] = max(per_line) / min(per_line)
    return out


STEADY = """{COOKIE}{L}import json
{L}from json import dumps

def call_attr(x):
    return json.dumps(x)

def call_from(x):
    return dumps(x)

def loop(fn, n):
    for i in range(n):
        fn(i)
"""


def steady_resolved(repeat: int) -> dict:
    directory = tempfile.mkdtemp()
    for name, cookie, lazy in (('hot_l', COOKIE.decode(), 'lazy '), ('hot_e', '', '')):
        with open(os.path.join(directory, f'{name}.py'), 'w') as f:
            f.write(STEADY.format(COOKIE=cookie, L=lazy))
    sys.path.insert(0, directory)
    import hot_e
    import hot_l

    hot_l.loop(hot_l.call_attr, 10)
    hot_l.loop(hot_l.call_from, 10)  # first use: every lazy name resolved
    assert all(type(k) is str for k in vars(hot_l))
    out = {}
    for kind in ('attr', 'from'):
        ratios = []
        for _ in range(repeat):
            lazy_fn, eager_fn = getattr(hot_l, f'call_{kind}'), getattr(hot_e, f'call_{kind}')
            t0 = clock()
            hot_l.loop(lazy_fn, 50_000)
            t1 = clock()
            hot_e.loop(eager_fn, 50_000)
            t2 = clock()
            ratios.append((t1 - t0) / (t2 - t1))
        out[kind] = {'median': statistics.median(ratios), 'min': min(ratios), 'max': max(ratios)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--repeat', type=int, default=5)
    args = parser.parse_args(argv)
    warnings.simplefilter('ignore')  # the stdlib's test data warns when compiled
    result = {
        'python': sys.version.split()[0],
        'stdlib_corpus': stdlib_corpus(args.repeat),
        'reference_lazy_modules': reference_lazy_modules(args.repeat),
        'scaling': scaling(args.repeat),
        'steady_resolved': steady_resolved(max(args.repeat, 11)),
    }
    json.dump(result, sys.stdout, indent=1)
    print()
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
