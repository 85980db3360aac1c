"""lazy-codec: PEP 810 lazy imports on CPython 3.9-3.14 -- tools.

show FILE            print FILE as the interpreter compiles it (after the rewrite)
check PATH...        report lazy syntax that 3.15 would reject, and lazy syntax
                     in files without the cookie
run [-X lazy_imports=MODE] (SCRIPT | -m MODULE) [ARGS...]
                     run a program with the codec registered, where .pth files
                     are not processed (python -S, or lazy_codec on PYTHONPATH)
report [--json] (SCRIPT | -m MODULE) [ARGS...]
                     run a program, then show what each lazy import did: used
                     or not, where first used, how long its import took
fix [--diff] [--lazy MOD[,MOD...]] [--unused REPORT.json] [--lazy-modules]
    [--drop-cookie] PATH...
                     add the cookie where lazy syntax lacks it; make imports
                     lazy (listed modules, or those a report found unused)
"""

from __future__ import annotations

import argparse
import os
import sys


def _read(path: str) -> str:
    with open(path, 'rb') as f:
        return f.read().decode('utf-8')


def show(args: argparse.Namespace) -> int:
    from lazy_codec.rewrite.emitter import rewrite
    from lazy_codec.rewrite.lexer import split_lines

    try:
        text = _read(args.file)
    except (OSError, UnicodeDecodeError) as exc:
        print(f'{args.file}: {exc}', file=sys.stderr)
        return 1
    out = rewrite(text)
    if not args.diff:
        sys.stdout.write(out)
        return 0
    for number, (old, new) in enumerate(zip(split_lines(text), split_lines(out)), 1):
        if old != new:
            print(f'{args.file}:{number}:-{old.rstrip()}')
            print(f'{args.file}:{number}:+{new.rstrip()}')
    return 0


def _python_files(paths: list[str]):
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith('.') and d != '__pycache__')
                yield from (os.path.join(root, f) for f in sorted(files) if f.endswith('.py'))
        else:
            yield path


def _runs_pyupgrade() -> bool:
    """does a pre-commit configuration here or above run pyupgrade?"""
    directory = os.getcwd()
    while True:
        try:
            with open(os.path.join(directory, '.pre-commit-config.yaml'), encoding='utf-8') as f:
                return 'pyupgrade' in f.read()
        except OSError:
            pass
        parent = os.path.dirname(directory)
        if parent == directory:
            return False
        directory = parent


def check(args: argparse.Namespace) -> int:
    from lazy_codec.tools.check import notes, problems

    found = 0
    pyupgrade = _runs_pyupgrade()
    for path in _python_files(args.paths):
        try:
            text = _read(path)
        except (OSError, UnicodeDecodeError) as exc:
            print(f'{path}:0:0: cannot read: {exc}')
            found += 1
            continue
        for line, col, msg in problems(text):
            print(f'{path}:{line}:{col}: {msg}')
            found += 1
        for line, col, msg in notes(text, pyupgrade):
            print(f'{path}:{line}:{col}: {msg}')
    return 1 if found else 0


def fix(args: argparse.Namespace) -> int:
    try:
        from lazy_codec.tools import fix
    except ImportError as exc:  # lazy_codec on PYTHONPATH, not installed with its dependency
        print(f'lazy-codec fix needs tokenize-rt ({exc})', file=sys.stderr)
        return 2
    if args.lazy_modules and not (args.lazy or args.unused):
        print('lazy-codec fix: --lazy-modules goes with --lazy or --unused', file=sys.stderr)
        return 2
    unused: dict | None = {} if args.unused else None
    for report in args.unused:  # runs merged: unused is unused in every run that ran it
        try:
            found = fix.read_report(report)
        except (OSError, ValueError, KeyError) as exc:
            print(f'{report}: not a report: {exc}', file=sys.stderr)
            return 2
        for path, entries in found.items():
            assert unused is not None  # (args.unused is not empty)
            unused.setdefault(path, []).extend(entries)
    lazy = [name.strip() for names in args.lazy for name in names.split(',') if name.strip()]
    settings = fix.Settings(lazy, unused, args.lazy_modules, args.drop_cookie)
    return fix.fix_paths(list(_python_files(args.paths)), settings, args.diff)


def run(args: argparse.Namespace) -> int:
    import runpy

    from lazy_codec import _codec
    from lazy_codec._startup import load_pth_module

    load_pth_module()  # (the loaders' hooks: 3.15 source without the cookie)
    _codec.register()
    if getattr(args, 'report', None):
        from lazy_codec.tools import report

        report.enable(args.report)
    if args.X is not None:
        name, _, mode = args.X.partition('=')
        if name != 'lazy_imports':
            print(f'lazy-codec run: unknown -X option {args.X!r}', file=sys.stderr)
            return 2
        from lazy_codec._startup import apply

        apply(mode, None)
    if args.module:
        sys.argv = [args.module, *args.args]
        runpy.run_module(args.module, run_name='__main__', alter_sys=True)
    else:
        if not args.args:
            print('lazy-codec run: give SCRIPT or -m MODULE', file=sys.stderr)
            return 2
        sys.argv = list(args.args)
        sys.path.insert(0, os.path.dirname(os.path.abspath(args.args[0])))
        _run_script(runpy, args.args[0])
    return 0


def _run_script(runpy, path: str) -> None:
    """run `path` as __main__, compiled as the source loader compiles a
    module (3.15 source without the cookie too); a directory or zip file, or
    a file that is not Python source, as runpy.run_path runs it"""
    run_code = getattr(runpy, '_run_module_code', None)
    if sys.version_info >= (3, 15) or run_code is None or os.path.isdir(path) or not path.endswith('.py'):
        runpy.run_path(path, run_name='__main__')
        return
    from importlib.machinery import SourceFileLoader

    with open(path, 'rb') as f:
        data = f.read()
    code = SourceFileLoader('__main__', path).source_to_code(data, path)
    run_code(code, None, '__main__', None, None, path)


def _version() -> str:
    """the package's version, the interpreter's, and which runtime runs"""
    from lazy_codec import __version__

    python = sys.version.split()[0]
    if sys.version_info >= (3, 15):
        return f"lazy-codec {__version__} (Python {python}: lazy imports are the interpreter's own)"
    from lazy_codec.runtime.accelerator import runtime_name

    return f'lazy-codec {__version__} (Python {python}, runtime: {runtime_name()})'


class _Version(argparse.Action):
    """--version, printed on one line (argparse's own wraps it)"""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, help='show the version and which runtime runs')

    def __call__(self, parser, namespace, values, option_string=None):
        print(_version())
        parser.exit()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog='lazy-codec', description=__doc__.split('\n')[0])
    parser.add_argument('--version', action=_Version)
    sub = parser.add_subparsers(dest='command', required=True)
    p = sub.add_parser('show', help='print a file as the interpreter compiles it')
    p.add_argument('file')
    p.add_argument('--diff', action='store_true', help='only the lines the rewrite changes')
    p.set_defaults(func=show)
    p = sub.add_parser('check', help='report lazy syntax that 3.15 rejects, and missing cookies')
    p.add_argument('paths', nargs='+', metavar='PATH')
    p.set_defaults(func=check)
    p = sub.add_parser('fix', help='add the cookie; make imports lazy (files in place)')
    p.add_argument('paths', nargs='+', metavar='PATH')
    p.add_argument('--diff', action='store_true', help='print a unified diff, write nothing')
    p.add_argument(
        '--lazy',
        action='append',
        default=[],
        metavar='MOD[,MOD...]',
        help='make the module-level imports of these modules (and their submodules) lazy',
    )
    p.add_argument(
        '--unused',
        metavar='REPORT.json',
        action='append',
        default=[],
        help="make lazy the imports that a run in mode 'all' never used "
        '(LAZY_CODEC_REPORT=REPORT.json python -X lazy_imports=all ...); '
        'repeated: those no run used',
    )
    p.add_argument(
        '--lazy-modules',
        action='store_true',
        help='list them in __lazy_modules__ instead of writing lazy statements',
    )
    p.add_argument(
        '--drop-cookie', action='store_true', help='remove the cookie (code whose minimum Python is 3.15)'
    )
    p.set_defaults(func=fix)
    p = sub.add_parser('run', help='run a program with the codec registered')
    p.add_argument('-X', metavar='lazy_imports=MODE', help="'all' or 'normal', as python -X")
    p.add_argument('-m', dest='module', help='run a module as python -m does')
    p.add_argument('args', nargs=argparse.REMAINDER, help="SCRIPT [ARGS...] or the module's ARGS")
    p.set_defaults(func=run)
    p = sub.add_parser('report', help='run a program and show what its lazy imports did')
    p.add_argument(
        '--json',
        dest='report',
        action='store_const',
        const='json',
        default='table',
        help='print the report as JSON on stdout',
    )
    p.add_argument('-m', dest='module', help='run a module as python -m does')
    p.add_argument('args', nargs=argparse.REMAINDER, help="SCRIPT [ARGS...] or the module's ARGS")
    p.set_defaults(func=run, X=None)
    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == '__main__':
    raise SystemExit(main())
