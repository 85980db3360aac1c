"""Real programs as benchmarks: wall time and instructions, mode "all" / eager, per interpreter.

    python benchmarks/real_programs.py [--versions 3.11,3.14] [--pairs 11] [--pure]
                                       [--no-annotations] [--no-callgrind]
                                       [--out benchmarks/results]

For each version asked (lazy_codec on 3.9-3.14) and native 3.15 (the anchor,
always measured in the same run): a venv .venvs/realbench-<version> with
pip==PIP_VERSION and the packages pinned in benchmarks/real/requirements.txt
installed from the registry, and lazy_codec reinstalled from this checkout at
every run (`pip install --force-reinstall --no-deps ROOT`; on 3.15 it is a
pass-through that only registers the codec).  Each program runs in that one
venv as `python -X lazy_imports=all PROGRAM` (A) and `python PROGRAM` (B),
with lazy_codec's C accelerator where its install built it (`--pure` measures
the pure-Python runtime too, LAZY_CODEC_PURE=1, as "<version> pure");
the 9th compares, in mode "normal", a copy of jinja2 whose module-level
imports are `lazy` statements (A) with a plain copy of the same jinja2 (B).

Timing: per program, two untimed warm-up pairs per interpreter (they write
the bytecode caches, `*.opt-lazyall.pyc` included), then N rounds; each
round runs A then B on every interpreter in turn, so that all interpreters
see the same drift of this shared machine.  Figure: the median over the N
pairs of wall(A) / wall(B).  The measured processes get the environment
without PYTHONDONTWRITEBYTECODE, PYTHONPYCACHEPREFIX, PYTHON_LAZY_IMPORTS,
PYTHONPROFILEIMPORTTIME, LAZY_CODEC_*; stdout and stderr go to /dev/null.
Before timing, each program's output in A and in B is compared (they must be
the same), and an untimed `-X importtime` run of each counts the modules it
imports.

Instructions (--callgrind, the default where valgrind is installed): after
the warm-up, one untimed run of A and one of B under `valgrind
--tool=callgrind`, in the timed runs' environment plus PYTHONHASHSEED=0;
the figure is A's total over B's (all threads).  Eager runs and 3.15 repeat
to within a few hundred instructions; lazy_codec's A to within ~1.5%, as
its rebuilder thread wakes by the clock.

What lazy_codec itself did (lazy_codec versions, `--pure` too): one more
untimed run of A, PYTHONHASHSEED=0, with a sitecustomize shim first on
PYTHONPATH (RUNTIME_SHIM, run once before so that its own bytecode is
cached) that installs sys.setprofile and writes at exit, after the other
exit callbacks, SystemExit included: the modules of sys.modules named
lazy_codec, lazy_codec.* or _lazy_codec_pth (not the C accelerator's
extension), and the calls to a function of lazy_codec/runtime/*.py whose
caller is not in that directory, by function: where the runtime's Python is
entered, by rewritten code, the accelerator, importlib or a dict lookup.
The shim imports nothing but the built-in sys and atexit.  It profiles the
main thread: the programs start no thread; lazy_codec's rebuilder thread
runs only the runtime's own code.  Neither this nor callgrind is run for the
annotation measurement below.

Annotations (3.9-3.13 evaluate function and variable annotations when the
`def`/class body/module runs; 3.14 and 3.15 defer them): the same A/B pairs
again with every module compiled as if it began with `from __future__ import
annotations` (a sitecustomize shim on PYTHONPATH wraps `compile` for module
code; its bytecode goes to a cache of its own, sys.pycache_prefix), on each
lazy_codec version (3.14 is the control: it defers already).  What the ratio
gains there, and the modules that are no longer imported, is what annotations
evaluated at definition time cost mode "all".  See benchmarks/REAL_PROGRAMS.md.

Writes OUT/real-programs.json and prints the tables.
"""

from __future__ import annotations

import argparse
import ast
import glob
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REAL = os.path.join(ROOT, 'benchmarks', 'real')
VENVS = os.path.join(ROOT, '.venvs')
REFERENCE = os.path.expanduser('~/.cache/reference-pythons')
# pip itself is one of the programs: the same pip everywhere, the newest that
# still supports 3.9
PIP_VERSION = '26.0.1.post1'
ANCHOR = '3.15'
VALGRIND = shutil.which('valgrind')

SCRUB_ENV = (
    'PYTHONDONTWRITEBYTECODE',
    'PYTHONPYCACHEPREFIX',
    'PYTHON_LAZY_IMPORTS',
    'PYTHONPROFILEIMPORTTIME',
    'LAZY_CODEC_REPORT',
    'LAZY_CODEC_LAZY_MODULES',
    'PYTHONPATH',
    'PYTHONSTARTUP',
    'PYTHONHOME',
    'PYTHONSAFEPATH',
)

# name -> (arguments after the interpreter, kind): "all" is -X lazy_imports=all
# vs the same command; "lazified" is PYTHONPATH=<lazified copy> vs
# PYTHONPATH=<plain copy>, both in mode normal
PROGRAMS = {
    'pip --version': (['-m', 'pip', '--version'], 'all'),
    'pip list': (['-m', 'pip', 'list'], 'all'),
    'flask app, one request': ([os.path.join(REAL, 'flask_app.py')], 'all'),
    'requests: prepare a request': ([os.path.join(REAL, 'requests_prepare.py')], 'all'),
    'jinja2: render a template': ([os.path.join(REAL, 'jinja2_render.py')], 'all'),
    'rich: print a table': ([os.path.join(REAL, 'rich_table.py')], 'all'),
    'click: group --help': ([os.path.join(REAL, 'click_help.py')], 'all'),
    'markdown: render a string': ([os.path.join(REAL, 'markdown_render.py')], 'all'),
    'lazified jinja2, normal mode': ([os.path.join(REAL, 'jinja2_render.py')], 'lazified'),
}

COOKIE = b'# -*- coding: lazy -*-\n'
CODING = re.compile(rb'^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+')

# the shim for the annotation measurement: module code compiled as if it began
# with `from __future__ import annotations`, cached apart from the real bytecode
FUTURE_SHIM = '''\
"""real_programs.py: compile modules as if with `from __future__ import annotations`"""
import builtins
import sys

sys.pycache_prefix = %(cache)r
_FLAG = 0x1000000  # CO_FUTURE_ANNOTATIONS (__future__.annotations.compiler_flag)
_compile = builtins.compile


def compile(source, filename, mode, flags=0, dont_inherit=False, optimize=-1, **kwargs):
    # what importlib's source_to_code and lazy_codec's loaders call for a module
    if mode == 'exec' and dont_inherit and isinstance(filename, str) and filename.endswith('.py'):
        flags |= _FLAG
    return _compile(source, filename, mode, flags, dont_inherit, optimize, **kwargs)


builtins.compile = compile
'''


# the shim for what lazy_codec did in a run of A (not timed): its own modules
# imported, and the calls into its pure-Python runtime from outside it, by
# function, written to a file at exit
RUNTIME_SHIM = '''\
"""real_programs.py: lazy_codec's own modules imported and the calls into its
pure-Python runtime (a function in lazy_codec/runtime/ called from outside
it: rewritten code, the C accelerator, importlib, a dict lookup), written at
exit.  No import statement here: in mode "all" each would be a lazy import,
run by the runtime being counted; sys and atexit are built in."""
sys = __import__('sys')
atexit = __import__('atexit')

RUNTIME = %(runtime)r
calls = {}


def count(frame, event, arg):
    # a function's call (not a module's body) whose caller is not the runtime
    code = frame.f_code
    if event != 'call' or not code.co_filename.startswith(RUNTIME) or code.co_name == '<module>':
        return
    caller = frame.f_back
    if caller is None or not caller.f_code.co_filename.startswith(RUNTIME):
        name = code.co_filename[len(RUNTIME) : -len('.py')] + '.' + getattr(code, 'co_qualname', code.co_name)
        calls[name] = calls.get(name, 0) + 1


def write():
    # the last exit callback (the first registered): what the others call is counted
    sys.setprofile(None)
    modules = sorted(
        name
        for name in sys.modules
        if (name == 'lazy_codec' or name.startswith('lazy_codec.') or name == '_lazy_codec_pth')
        and name != 'lazy_codec.runtime._accel'
    )
    with open(%(out)r, 'w') as f:
        f.write(repr({'modules': modules, 'calls': calls}))


atexit.register(write)
sys.setprofile(count)
'''


class SetupError(Exception):
    pass


def _run(cmd, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)


def _check(proc: subprocess.CompletedProcess, what: str) -> None:
    if proc.returncode != 0:
        raise SetupError(f'{what} failed (exit {proc.returncode}):\n{proc.stdout[-3000:]}')


def interpreters(versions: list[str]) -> dict[str, str]:
    """version -> base interpreter: pyenv's 3.9-3.13, the reference 3.14/3.15"""
    found = {}
    for version in versions:
        candidates = [os.path.join(REFERENCE, 'bin', f'python{version}')]
        candidates += sorted(
            glob.glob(os.path.expanduser(f'~/.pyenv/versions/{version}.*/bin/python3')),
            key=lambda p: [int(x) for x in re.findall(r'\d+', p.split('/versions/')[1].split('/')[0])],
            reverse=True,
        )
        candidates.append(shutil.which(f'python{version}') or '')
        for path in candidates:
            if path and os.path.exists(path):
                got = _run([path, '-c', 'import sys; print("%d.%d" % sys.version_info[:2])']).stdout.strip()
                if got == version:
                    found[version] = path
                    break
    return found


def _pip_wheel() -> str | None:
    wheels = sorted(glob.glob(os.path.join(REFERENCE, 'wheels', 'pip-*.whl')))
    return wheels[-1] if wheels else None


def make_venv(version: str, python: str, lazy_codec: str = ROOT) -> str:
    """.venvs/realbench-<version>: pip==PIP_VERSION, the pinned packages,
    lazy_codec from this checkout (reinstalled every time); returns its python"""
    venv = os.path.join(VENVS, f'realbench-{version}')
    vpy = os.path.join(venv, 'bin', 'python')
    env = clean_env()
    if not os.path.exists(vpy) or _run([vpy, '-m', 'pip', '--version'], env=env).returncode != 0:
        shutil.rmtree(venv, ignore_errors=True)
        if _run([python, '-m', 'venv', venv], env=env).returncode != 0:
            # no ensurepip (Debian's interpreters): bootstrap pip from its wheel
            _check(
                _run([python, '-m', 'venv', '--clear', '--without-pip', venv], env=env), f'{python} -m venv'
            )
            wheel = _pip_wheel()
            if wheel is None:
                raise SetupError(f'{python} has no ensurepip and no pip wheel is in {REFERENCE}/wheels')
            _check(
                _run([vpy, os.path.join(wheel, 'pip'), 'install', '-q', wheel], env=env), 'bootstrapping pip'
            )
    pip = [vpy, '-m', 'pip', 'install', '-q', '--disable-pip-version-check']
    _check(_run(pip + [f'pip=={PIP_VERSION}'], env=env), f'pip install pip=={PIP_VERSION}')
    _check(
        _run(pip + ['-r', os.path.join(REAL, 'requirements.txt')], env=env), 'pip install -r requirements.txt'
    )
    # ensurepip's setuptools (3.9-3.11) would make `pip list` a different
    # program there: every venv has the same packages
    extra = {line.split('==')[0].lower() for line in _freeze(vpy)} & {'setuptools', 'wheel'}
    if extra:
        _check(_run([vpy, '-m', 'pip', 'uninstall', '-q', '-y', *sorted(extra)], env=env), 'pip uninstall')
    _check(_run(pip + ['--force-reinstall', '--no-deps', lazy_codec], env=env), 'pip install lazy_codec')
    _purge_stale_bytecode(version, vpy, venv, lazy_codec)
    return vpy


def _source_hash(tree: str) -> str:
    import hashlib

    digest = hashlib.sha256()
    for path in sorted(
        glob.glob(os.path.join(tree, 'lazy_codec', '*.py')) + glob.glob(os.path.join(tree, 'pth', '*'))
    ):
        if not os.path.isfile(path):
            continue  # (pth/__pycache__, where a run from the tree compiled the .pth's module)
        with open(path, 'rb') as f:
            digest.update(os.path.basename(path).encode() + b'\0' + f.read() + b'\0')
    return digest.hexdigest()


def _purge_stale_bytecode(version: str, vpy: str, venv: str, tree: str) -> None:
    """mode "all" caches rewritten bytecode (`*.opt-lazyall.pyc`) beside the
    usual one, checked against the source's mtime only: bytecode written by
    another lazy_codec (an earlier run, another venv of the same interpreter)
    may call entry points this one lacks.  When the lazy_codec installed
    differs from the last run's, delete those files in the venv and in the
    interpreter's standard library; the warm-up runs write them anew."""
    if version == ANCHOR:
        return
    marker = os.path.join(venv, '.realbench-lazy_codec')
    digest = _source_hash(tree)
    try:
        with open(marker) as f:
            if f.read().strip() == digest:
                return
    except OSError:
        pass
    stdlib = _run(
        [vpy, '-c', 'import sysconfig; print(sysconfig.get_paths()["stdlib"])'], env=clean_env()
    ).stdout.strip()
    # the venv's own (site-packages, and the shim's cache, which has no __pycache__ dirs)
    for top, where in ((venv, '**'), (stdlib, os.path.join('**', '__pycache__'))):
        for pattern in ('*.opt-lazyall*.pyc', '*.opt-lazymods*.pyc'):
            for path in glob.glob(os.path.join(top, where, pattern), recursive=True):
                try:
                    os.remove(path)
                except OSError:
                    pass
    with open(marker, 'w') as f:
        f.write(digest + '\n')


def _freeze(vpy: str) -> list[str]:
    return _run([vpy, '-m', 'pip', 'freeze', '--all'], env=clean_env()).stdout.splitlines()


def clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in SCRUB_ENV}
    env.update(PIP_DISABLE_PIP_VERSION_CHECK='1', PIP_NO_INPUT='1', COLUMNS='80', LINES='24')
    env.update(extra)
    return env


# -- the lazified jinja2 -------------------------------------------------------


def _lazy_positions(body: list, out: list) -> None:
    """(line, column) of each module-level import that may be lazy: at module
    level or in its if/with/for/while/match blocks; not in try, def, class;
    not __future__, not *"""
    for node in body:
        if isinstance(node, ast.Import) or (
            isinstance(node, ast.ImportFrom)
            and node.module != '__future__'
            and not any(alias.name == '*' for alias in node.names)
        ):
            out.append((node.lineno, node.col_offset))
        elif isinstance(node, (ast.If, ast.For, ast.While)):
            _lazy_positions(node.body, out)
            _lazy_positions(node.orelse, out)
        elif isinstance(node, ast.With):
            _lazy_positions(node.body, out)
        elif hasattr(ast, 'Match') and isinstance(node, ast.Match):
            for case in node.cases:
                _lazy_positions(case.body, out)


def lazify_source(data: bytes) -> tuple[bytes, int]:
    """the source with `lazy ` before each eligible import and the cookie on
    line 1 (2 after a shebang; an existing coding cookie replaced)"""
    positions: list = []
    _lazy_positions(ast.parse(data).body, positions)
    lines = data.splitlines(keepends=True)
    for lineno, col in sorted(positions, reverse=True):  # right to left on a line
        line = lines[lineno - 1]  # col_offset counts UTF-8 bytes, as these are
        lines[lineno - 1] = line[:col] + b'lazy ' + line[col:]
    # an existing cookie (line 1, or line 2 below a comment line) is replaced
    # in place; else the cookie goes on line 1, or line 2 after a shebang
    if lines and CODING.match(lines[0]):
        lines[0] = COOKIE
    elif len(lines) > 1 and lines[0].lstrip().startswith(b'#') and CODING.match(lines[1]):
        lines[1] = COOKIE
    else:
        lines.insert(1 if lines and lines[0].startswith(b'#!') else 0, COOKIE)
    return b''.join(lines), len(positions)


def lazify_package(source_dir: str, dest: str) -> dict:
    """copy the package source_dir to dest, lazified; returns counts"""
    shutil.rmtree(dest, ignore_errors=True)
    shutil.copytree(source_dir, dest, ignore=shutil.ignore_patterns('__pycache__'))
    files = statements = 0
    for path in sorted(glob.glob(os.path.join(dest, '**', '*.py'), recursive=True)):
        with open(path, 'rb') as f:
            data = f.read()
        text, count = lazify_source(data)
        with open(path, 'wb') as f:
            f.write(text)
        files += 1
        statements += count
    return {'files': files, 'lazy_statements': statements}


def prepare_jinja2(vpy: str, work: str) -> dict:
    """work/lazified/jinja2 and work/plain/jinja2, from the venv's jinja2"""
    proc = _run([vpy, '-c', 'import os, jinja2; print(os.path.dirname(jinja2.__file__))'], env=clean_env())
    _check(proc, 'locating jinja2')
    package = proc.stdout.strip().splitlines()[-1]
    plain = os.path.join(work, 'plain', 'jinja2')
    shutil.rmtree(plain, ignore_errors=True)
    shutil.copytree(package, plain, ignore=shutil.ignore_patterns('__pycache__'))
    counts = lazify_package(package, os.path.join(work, 'lazified', 'jinja2'))
    check = _run(
        [vpy, '-m', 'lazy_codec', 'check', os.path.join(work, 'lazified', 'jinja2')], env=clean_env()
    )
    counts['lazy_codec_check'] = check.stdout.strip() or 'clean'
    return counts


# -- commands and timing ---------------------------------------------------------


def commands(
    program: str, vpy: str, work: str, shim: str | None = None, extra: dict | None = None
) -> tuple[tuple, tuple]:
    """((argv, env) of A, (argv, env) of B); `extra`: more environment for both"""
    args, kind = PROGRAMS[program]
    paths = [shim] if shim else []
    extra = extra or {}
    if kind == 'lazified':
        a = (
            [vpy] + args,
            clean_env(PYTHONPATH=os.pathsep.join(paths + [os.path.join(work, 'lazified')]), **extra),
        )
        b = (
            [vpy] + args,
            clean_env(PYTHONPATH=os.pathsep.join(paths + [os.path.join(work, 'plain')]), **extra),
        )
        return a, b
    env = clean_env(PYTHONPATH=shim, **extra) if shim else clean_env(**extra)
    return ([vpy, '-X', 'lazy_imports=all'] + args, env), ([vpy] + args, env)


def run_timed(argv: list[str], env: dict, cwd: str) -> tuple[float, float]:
    """(wall seconds, the child's user + system CPU seconds)"""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=cwd
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        raise SetupError(f'exit status {status}: {" ".join(argv)}')
    return wall, usage.ru_utime + usage.ru_stime


def run_output(argv: list[str], env: dict, cwd: str) -> tuple[int, str]:
    proc = subprocess.run(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=env,
        cwd=cwd,
        text=True,
        errors='replace',
    )
    return proc.returncode, proc.stdout


def imported_modules(argv: list[str], env: dict, cwd: str) -> dict[str, int]:
    """module -> its own import time (us), from -X importtime, for the modules
    a run imports (the first line is the header)"""
    proc = subprocess.run(
        [argv[0], '-X', 'importtime'] + argv[1:],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        cwd=cwd,
        text=True,
        errors='replace',
    )
    found: dict[str, int] = {}
    for line in proc.stderr.splitlines():
        if line.startswith('import time:') and line.count('|') == 2:
            self_us, _, name = line[len('import time:') :].split('|')
            name = name.strip()
            if name != 'imported package' and self_us.strip().isdigit():
                found[name] = found.get(name, 0) + int(self_us)
    return found


def imported_modules_median(argv: list[str], env: dict, cwd: str, runs: int = 3) -> dict[str, int]:
    """imported_modules of `runs` runs: each module's median own time"""
    found = [imported_modules(argv, env, cwd) for _ in range(runs)]
    names = set().union(*found)
    return {name: int(statistics.median(run.get(name, 0) for run in found)) for name in sorted(names)}


def instructions(argv: list[str], env: dict, cwd: str) -> int:
    """the instructions one run executes, callgrind's total, with hash
    randomization off (PYTHONHASHSEED=0) so that a commit's count repeats;
    valgrind's own messages go to a log of their own"""
    with tempfile.TemporaryDirectory(prefix='realbench-callgrind-') as tmp:
        out = os.path.join(tmp, 'callgrind.out')
        cmd = [VALGRIND, '--tool=callgrind', f'--callgrind-out-file={out}', f'--log-file={out}.log'] + argv
        proc = subprocess.run(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=dict(env, PYTHONHASHSEED='0'),
            cwd=cwd,
        )
        if proc.returncode != 0:
            raise SetupError(f'exit status {proc.returncode} under callgrind: {" ".join(argv)}')
        with open(out) as f:
            for line in f:
                if line.startswith(('totals:', 'summary:')):
                    return int(line.split()[1])
    raise SetupError(f'no totals in the callgrind output of {" ".join(argv)}')


def lazy_codec_activity(program: str, vpy: str, work: str, shim: str, extra: dict) -> dict:
    """A of `program` run with the runtime shim first on PYTHONPATH (twice:
    the first run compiles the shim, which in mode "all" loads the rewrite);
    returns {'modules': lazy_codec's modules imported, 'runtime_calls':
    the calls into its pure-Python runtime from outside it, by function}"""
    (argv, env), _ = commands(program, vpy, work, shim, dict(extra, PYTHONHASHSEED='0'))
    out = os.path.join(shim, 'activity')
    for _ in range(2):
        if os.path.exists(out):
            os.remove(out)
        rc, _output = run_output(argv, env, work)
    if rc != 0 or not os.path.exists(out):
        raise SetupError(f'exit status {rc}, with the runtime shim: {" ".join(argv)}')
    with open(out) as f:
        found = ast.literal_eval(f.read())
    calls = dict(sorted(found['calls'].items(), key=lambda item: (-item[1], item[0])))
    return {
        'modules': found['modules'],
        'runtime_calls': {'total': sum(calls.values()), 'by_function': calls},
    }


def _summary(values: list[float]) -> dict:
    return {'median': statistics.median(values), 'min': min(values), 'max': max(values)}


FUTURE = ' future-annotations'  # the key suffix of a venv measured with the shim
PURE = ' pure'  # the key suffix of a venv measured with LAZY_CODEC_PURE=1 (--pure)


def measure(setups: dict, pairs: int, callgrind: bool, runtime_shims: dict) -> dict:
    """setups: key -> (vpy, work, shim dir or None, more environment);
    returns program -> key -> figures.  Each round runs A then B of every key
    in turn.  `callgrind`: the instructions of A and B too, for the keys
    without a shim; runtime_shims: key -> the runtime shim's directory, for
    the keys whose lazy_codec activity is counted."""
    results: dict = {}
    for program in PROGRAMS:
        results[program] = {}
        live = {}
        for version, (vpy, work, shim, extra) in setups.items():
            (argv_a, env_a), (argv_b, env_b) = commands(program, vpy, work, shim, extra)
            entry = results[program][version] = {'cmd_a': ' '.join(argv_a), 'cmd_b': ' '.join(argv_b)}
            if shim or PROGRAMS[program][1] == 'lazified':
                entry['pythonpath_a'], entry['pythonpath_b'] = (
                    env_a.get('PYTHONPATH'),
                    env_b.get('PYTHONPATH'),
                )
            outputs = []
            for _ in range(2):  # warm-up: the first writes the bytecode caches
                outputs = [run_output(argv_a, env_a, work), run_output(argv_b, env_b, work)]
            (rc_a, out_a), (rc_b, out_b) = outputs
            entry['exit_a'], entry['exit_b'] = rc_a, rc_b
            entry['same_output'] = out_a == out_b
            if rc_a != 0 or rc_b != 0 or out_a != out_b:
                entry['output_a'], entry['output_b'] = out_a[-4000:], out_b[-4000:]
                print(
                    f'  {program} on {version}: A exit {rc_a}, B exit {rc_b}, same output: {out_a == out_b}',
                    file=sys.stderr,
                )
            mods_a, mods_b = (
                imported_modules_median(argv_a, env_a, work),
                imported_modules(argv_b, env_b, work),
            )
            entry['modules_a'], entry['modules_b'] = len(mods_a), len(mods_b)
            entry['only_in_a'] = sorted(set(mods_a) - set(mods_b))
            entry['imported_a'] = sorted(mods_a)
            entry['import_self_us_a'] = mods_a  # median of 3 -X importtime runs
            if rc_a == 0 and rc_b == 0:
                live[version] = (argv_a, env_a, argv_b, env_b, work)
                if callgrind and not shim:
                    entry['instructions_a'] = instructions(argv_a, env_a, work)
                    entry['instructions_b'] = instructions(argv_b, env_b, work)
                    entry['instructions_ratio'] = entry['instructions_a'] / entry['instructions_b']
                if version in runtime_shims:
                    entry['lazy_codec_activity'] = lazy_codec_activity(
                        program, vpy, work, runtime_shims[version], extra
                    )
        walls = {version: ([], []) for version in live}
        for _ in range(pairs):
            for version, (argv_a, env_a, argv_b, env_b, work) in live.items():
                walls[version][0].append(run_timed(argv_a, env_a, work))
                walls[version][1].append(run_timed(argv_b, env_b, work))
        for version, (a, b) in walls.items():
            entry = results[program][version]
            entry['pairs'] = len(a)
            entry['ratio'] = _summary([x[0] / y[0] for x, y in zip(a, b)])
            entry['ratio_pairs'] = [round(x[0] / y[0], 4) for x, y in zip(a, b)]
            entry['wall_a_ms'] = _summary([x[0] * 1000 for x in a])
            entry['wall_b_ms'] = _summary([x[0] * 1000 for x in b])
            # CPU time is less disturbed by other processes on a shared machine
            entry['cpu_ratio'] = _summary([x[1] / y[1] for x, y in zip(a, b)])
            entry['cpu_a_ms'] = _summary([x[1] * 1000 for x in a])
            entry['cpu_b_ms'] = _summary([x[1] * 1000 for x in b])
        cells = ', '.join(f'{v} {results[program][v]["ratio"]["median"]:.3f}' for v in walls)
        counted = ', '.join(
            f'{v} {e["instructions_ratio"]:.3f}'
            for v, e in results[program].items()
            if 'instructions_ratio' in e
        )
        print(
            f'  {program}: {cells}' + (f'; instructions {counted}' if counted else ''),
            file=sys.stderr,
            flush=True,
        )
    return results


def _export_head() -> str:
    dest = os.path.join(VENVS, 'realbench-head')
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    archive = subprocess.run(
        ['git', '-C', ROOT, 'archive', 'HEAD'], stdout=subprocess.PIPE, check=True
    ).stdout
    subprocess.run(['tar', '-x', '-C', dest], input=archive, check=True)
    head = _run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD']).stdout.strip()
    with open(os.path.join(dest, '.realbench-head'), 'w') as f:
        f.write(head + '\n')
    return dest


def _describe_source(path: str) -> str:
    marker = os.path.join(path, '.realbench-head')
    if os.path.exists(marker):
        with open(marker) as f:
            return f'git archive HEAD of {ROOT} at {f.read().strip()}'
    head = _run(['git', '-C', path, 'rev-parse', '--short', 'HEAD']).stdout.strip()
    dirty = _run(['git', '-C', path, 'status', '--porcelain', '--', 'lazy_codec', 'pth']).stdout.strip()
    return (
        f'{path} at {head or "?"}{" with uncommitted changes to lazy_codec/ or pth/" if dirty else ""} '
        f'(sources sha256 {_source_hash(path)[:12]})'
    )


def _write_shim(version: str) -> str:
    directory = os.path.join(VENVS, f'realbench-{version}', 'future-shim')
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, 'sitecustomize.py'), 'w') as f:
        f.write(FUTURE_SHIM % {'cache': os.path.join(VENVS, f'realbench-{version}', 'future-pycache')})
    return directory


def _write_runtime_shim(version: str, vpy: str) -> str:
    """RUNTIME_SHIM as the sitecustomize of .venvs/realbench-<version>/runtime-shim/,
    for the runtime installed in that venv; it writes to `activity` beside it"""
    # (-I: the venv's, not this checkout's from the working directory)
    proc = _run([vpy, '-I', '-c', 'import lazy_codec.runtime as r; print(r.__path__[0])'], env=clean_env())
    _check(proc, 'locating lazy_codec.runtime')
    directory = os.path.join(VENVS, f'realbench-{version}', 'runtime-shim')
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, 'sitecustomize.py'), 'w') as f:
        f.write(
            RUNTIME_SHIM
            % {
                'runtime': proc.stdout.strip().splitlines()[-1] + os.sep,
                'out': os.path.join(directory, 'activity'),
            }
        )
    return directory


# -- report ------------------------------------------------------------------------


def _version_key(version: str) -> tuple:
    """'3.11' before '3.11 pure' before '3.12'"""
    number, _, suffix = version.partition(' ')
    return tuple(int(x) for x in number.split('.')) + (suffix,)


def _cell(entry: dict | None) -> str:
    if not entry:
        return '-'
    if 'ratio' not in entry:
        return f'fails (A exit {entry.get("exit_a")}, B exit {entry.get("exit_b")})'
    mark = '' if entry.get('same_output', True) else ' (output differs)'
    return f'{entry["ratio"]["median"]:.3f}{mark}'


def _render_activity(data: dict, versions: list[str]) -> list[str]:
    """the table of lazy_codec's modules and calls into its Python runtime,
    and the functions most called into, summed over the programs"""
    versions = [
        v for v in versions if any('lazy_codec_activity' in r.get(v, {}) for r in data['results'].values())
    ]
    if not versions:
        return []
    out = [
        '',
        "lazy_codec's Python modules imported / calls into the Python runtime (a function in "
        'lazy_codec/runtime/ called from outside it: rewritten code, the C accelerator, importlib, '
        'a dict lookup), one run of A',
        '',
        '| program | ' + ' | '.join(f'lazy_codec {v}' for v in versions) + ' |',
        '|---|' + '---|' * len(versions),
    ]
    for program in PROGRAMS:
        cells = []
        for v in versions:
            e = data['results'][program].get(v, {}).get('lazy_codec_activity')
            cells.append(f'{len(e["modules"])} / {e["runtime_calls"]["total"]:,}' if e else '-')
        out.append(f'| {program} | ' + ' | '.join(cells) + ' |')
    out += ['', f'the functions most called into, over the {len(PROGRAMS)} programs:', '']
    for v in versions:
        calls: dict[str, int] = {}
        for by_version in data['results'].values():
            e = by_version.get(v, {}).get('lazy_codec_activity')
            for name, n in (e['runtime_calls']['by_function'] if e else {}).items():
                calls[name] = calls.get(name, 0) + n
        top = sorted(calls.items(), key=lambda item: (-item[1], item[0]))[:5]
        out.append(f'* lazy_codec {v}: ' + ', '.join(f'`{name}` {n:,}' for name, n in top))
    return out


def _table(data: dict, title: str, cols: list, order: list, cell) -> list:
    """a table with a row per program and a column per version of `order`:
    cell(entry) for each measured entry, '-' for one not measured"""
    out = ['', title, '', '| program | ' + ' | '.join(cols) + ' |', '|---|' + '---|' * len(cols)]
    for program in PROGRAMS:
        entries = [data['results'][program].get(v) for v in order]
        out.append(f'| {program} | ' + ' | '.join(cell(e) if e else '-' for e in entries) + ' |')
    return out


def render(data: dict) -> str:
    versions = sorted(data['versions'], key=_version_key)
    anchor = [v for v in versions if v == ANCHOR]
    others = [v for v in versions if v != ANCHOR]
    cols = [f'native {v}' for v in anchor] + [f'lazy_codec {v}' for v in others]
    order = anchor + others
    out = _table(
        data,
        'wall time, mode "all" / eager, same venv (9th: lazified jinja2 / plain, mode normal); '
        f'median of {data["pairs"]} pairwise ratios',
        cols,
        order,
        _cell,
    )[1:]
    if any('instructions_ratio' in e for by_version in data['results'].values() for e in by_version.values()):
        out += _table(
            data,
            'instructions (callgrind), mode "all" / eager (9th: lazified / plain): one run of each, '
            'PYTHONHASHSEED=0; in brackets A / B, millions',
            cols,
            order,
            lambda e: (
                f'{e["instructions_ratio"]:.3f} '
                f'({e["instructions_a"] / 1e6:.1f} / {e["instructions_b"] / 1e6:.1f})'
                if 'instructions_ratio' in e
                else '-'
            ),
        )
    out += _table(
        data,
        'CPU time (user + system) of the same runs, mode "all" / eager: median of the pairwise ratios',
        cols,
        order,
        lambda e: f'{e["cpu_ratio"]["median"]:.3f}' if 'cpu_ratio' in e else '-',
    )
    out += _table(
        data,
        'modules imported, mode "all" (eager), from -X importtime',
        cols,
        order,
        lambda e: f'{e["modules_a"]} ({e["modules_b"]})',
    )
    out += _render_activity(data, others)
    ann = data.get('annotations')
    if ann:
        aversions = sorted(ann['results'][next(iter(PROGRAMS))], key=_version_key)
        out += [
            '',
            'annotations deferred (every module compiled as with `from __future__ import annotations`), '
            'mode "all": ratio all / eager and modules imported, as measured above -> with the shim; '
            'ms: own import time (-X importtime) of the modules imported only without the shim, '
            'and that / eager wall time',
            '',
            '| program | '
            + ' | '.join(f'{v} ratio | {v} modules | {v} ms (share)' for v in aversions)
            + ' |',
            '|---|' + '---|' * (3 * len(aversions)),
        ]
        for program in PROGRAMS:
            cells = []
            for v in aversions:
                base, shim = data['results'][program].get(v), ann['results'][program].get(v)
                cells.append(f'{_cell(base)} -> {_cell(shim)}')
                cells.append(f'{base["modules_a"]} -> {shim["modules_a"]}' if base and shim else '-')
                if shim and 'annotation_import_ms' in shim:
                    share = shim.get('annotation_share_of_eager')
                    cells.append(
                        f'{shim["annotation_import_ms"]:.1f}'
                        + (f' ({share:.3f})' if share is not None else '')
                    )
                else:
                    cells.append('-')
            out.append(f'| {program} | ' + ' | '.join(cells) + ' |')
    out.append('')
    out.append(f'Machine: {data["machine"]}. {data["seconds"]:.0f} s.')
    return '\n'.join(out) + '\n'


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--versions', default='3.11,3.14', help='lazy_codec versions (3.15 is always added)')
    parser.add_argument('--pairs', type=int, default=11)
    parser.add_argument('--no-annotations', action='store_true', help='skip the annotation measurement')
    parser.add_argument(
        '--pure',
        action='store_true',
        help='measure the pure-Python runtime too (LAZY_CODEC_PURE=1), beside the accelerator',
    )
    parser.add_argument(
        '--callgrind',
        action=argparse.BooleanOptionalAction,
        default=VALGRIND is not None,
        help='count the instructions of one run of A and of B under callgrind '
        '(default: where valgrind is installed)',
    )
    parser.add_argument('--out', default=os.path.join(ROOT, 'benchmarks', 'results'))
    parser.add_argument(
        '--lazy-codec',
        default=ROOT,
        metavar='DIR',
        help='the lazy_codec source tree to install (default: this checkout, as it is)',
    )
    parser.add_argument(
        '--head',
        action='store_true',
        help="install lazy_codec from `git archive HEAD` instead (the work tree's uncommitted "
        'edits left out)',
    )
    args = parser.parse_args(argv)
    if args.callgrind and VALGRIND is None:
        parser.error('--callgrind: valgrind is not installed')
    if args.head:
        args.lazy_codec = _export_head()
    start = time.monotonic()
    asked = [v for v in args.versions.split(',') if v and v != ANCHOR]
    found = interpreters(asked + [ANCHOR])
    for version in asked + [ANCHOR]:
        if version not in found:
            print(f'{version}: not found here', file=sys.stderr)
    setups, freeze, lazified = {}, {}, {}
    for version in found:
        print(f'{version}: setting up .venvs/realbench-{version}', file=sys.stderr, flush=True)
        try:
            vpy = make_venv(version, found[version], args.lazy_codec)
        except SetupError as exc:
            print(f'{version}: {exc}', file=sys.stderr)
            continue
        work = os.path.join(VENVS, f'realbench-{version}', 'work')
        os.makedirs(work, exist_ok=True)
        lazified[version] = prepare_jinja2(vpy, work)
        freeze[version] = _freeze(vpy)
        setups[version] = (vpy, work, None, {})
    if not setups:
        return 1
    versions = list(setups)
    if not args.no_annotations:
        # the same venvs with the shim, measured in the same rounds
        for version in versions:
            if version != ANCHOR:
                setups[version + FUTURE] = setups[version][:2] + (_write_shim(version), {})
    if args.pure:
        # the same venvs with the pure-Python runtime, measured in the same rounds
        for version in versions:
            if version != ANCHOR:
                setups[version + PURE] = setups[version][:2] + (None, {'LAZY_CODEC_PURE': '1'})
    runtime_shims = {}
    for version in versions:
        if version != ANCHOR:
            runtime_shims[version] = _write_runtime_shim(version, setups[version][0])
            if args.pure:
                runtime_shims[version + PURE] = runtime_shims[version]
    print(
        f'measuring {len(PROGRAMS)} programs x {len(setups)} setups x {args.pairs} pairs',
        file=sys.stderr,
        flush=True,
    )
    runtimes = {
        v: _run(
            [setups[v][0], '-m', 'lazy_codec', '--version'], cwd=setups[v][1], env=clean_env()
        ).stdout.strip()
        for v in versions
    }
    data = {
        'pairs': args.pairs,
        'versions': versions + [v + PURE for v in versions if args.pure and v != ANCHOR],
        'runtimes': runtimes,
        'interpreters': {v: found[v] for v in versions},
        'lazy_codec_source': _describe_source(args.lazy_codec),
        'packages': freeze,
        'lazified_jinja2': lazified,
        'machine': f'{platform.machine()}, {os.cpu_count()} cpus, {platform.platform()}',
        'date': time.strftime('%Y-%m-%d'),
        'callgrind': _run([VALGRIND, '--version']).stdout.strip() + ' --tool=callgrind, PYTHONHASHSEED=0'
        if args.callgrind
        else None,
    }
    results = measure(setups, args.pairs, args.callgrind, runtime_shims)
    data['results'] = {p: {v: e for v, e in r.items() if not v.endswith(FUTURE)} for p, r in results.items()}
    if not args.no_annotations:
        data['annotations'] = {
            'method': 'the same venvs, PYTHONPATH=<shim>: a sitecustomize that wraps compile() so '
            'that module code is compiled with CO_FUTURE_ANNOTATIONS, its bytecode cached apart '
            '(sys.pycache_prefix)',
            'results': {
                p: {v[: -len(FUTURE)]: e for v, e in r.items() if v.endswith(FUTURE)}
                for p, r in results.items()
            },
        }
        for program, by_version in data['annotations']['results'].items():
            for version, entry in by_version.items():
                base = data['results'][program].get(version)
                if base:  # what mode "all" imports only because annotations are evaluated
                    only = sorted(set(base['imported_a']) - set(entry['imported_a']))
                    entry['only_without_shim'] = only
                    # their own import time in the measured run, and that as a
                    # share of the eager wall time: what the ratio all/eager
                    # would lose without them
                    ms = sum(base['import_self_us_a'].get(name, 0) for name in only) / 1000
                    entry['annotation_import_ms'] = ms
                    if 'wall_b_ms' in base:
                        entry['annotation_share_of_eager'] = ms / base['wall_b_ms']['median']
    data['seconds'] = time.monotonic() - start
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, 'real-programs.json'), 'w') as f:
        json.dump(data, f, indent=1)
    print(render(data))
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
