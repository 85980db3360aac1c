"""Real-world corpus: lazy_codec on 3.9-3.14 against native 3.15, package by package.

    python3 tests/realworld/run.py [--versions 3.11,3.14] [--packages a,b] [--suites x,y]
                                   [--ci] [--pure] [--no-suites] [--no-pip] [--jobs N] [--out FILE]

For each CPython 3.9-3.15 found (3.15, the oracle, always): a venv in
.venvs-realworld/<version> with lazy_codec installed from this checkout (a real
`pip install`, redone every run) and the corpus of packages.txt (pinned, no deps:
the same set everywhere).  Then, each in its own subprocess:

* probe: for each package, probe.py imports it and every submodule and reads every
  public name, eagerly and with PYTHON_LAZY_IMPORTS=all;
* pip: `pip --version`, `pip list`, `pip install --dry-run --no-index WHEEL`
  (a wheel made here), eagerly and in mode "all";
* suites: a few projects' own test suites from their sdists, run (a) eagerly,
  (b) with PYTHON_LAZY_IMPORTS=all, (c) from a copy whose own modules have every
  module-level import made a `lazy` statement (lazify.py; on 3.15 3.15 parses them).

What counts as a difference on version V: something that fails under lazy_codec on
V (mode "all", or the lazified source) although it works on 3.15 in the same mode
and works eagerly on V.  What 3.15 itself gets wrong, and what V gets wrong eagerly
too, is recorded and not counted.  A table at the end; the details in
tests/realworld/results/<date>[-ci][-pure].json.  Exit status 1 if any difference counted.
lazy_codec runs with its C accelerator where its install built it; --pure runs
its pure-Python runtime (LAZY_CODEC_PURE=1) instead.
"""

from __future__ import annotations

import argparse
import base64
import concurrent.futures
import datetime
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
import zipfile

import documented as documented_differences

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
WORK = os.path.join(ROOT, '.venvs-realworld')
VERSIONS = ('3.9', '3.10', '3.11', '3.12', '3.13', '3.14', '3.15')
ORACLE = '3.15'
# compiled with mypyc in their wheels: installed from the sdist, pure Python
NO_BINARY = ('charset-normalizer', 'tomli')
# what the suites need beyond the corpus (pinned the same way: pip's choice on 3.9)
SUITE_DEPS = (
    'freezegun==1.5.5',
    'hypothesis==6.141.1',
    'pretend==1.0.9',
    'trio==0.31.0',
    'outcome==1.3.0.post0',
    'pytest-mock==3.15.1',
)
# projects' own test suites: sdist root relative paths
#   path:   put first on sys.path (PYTHONPATH), the package as it is in the sdist
#   lazify: what lazify.py edits for variant (c): the package's own modules
#   tests:  pytest's arguments
SUITES = {
    'markupsafe': dict(path='src', lazify=['src/markupsafe'], tests=['tests']),
    'itsdangerous': dict(path='src', lazify=['src/itsdangerous'], tests=['tests']),
    'jinja2': dict(path='src', lazify=['src/jinja2'], tests=['tests']),
    'click': dict(path='src', lazify=['src/click'], tests=['tests']),
    'cachetools': dict(path='src', lazify=['src/cachetools'], tests=['tests']),
    'h11': dict(path='.', lazify=['h11'], tests=['h11/tests']),
    'six': dict(path='.', lazify=['six.py'], tests=['test_six.py']),
    'sqlparse': dict(path='.', lazify=['sqlparse'], tests=['tests']),
    'toolz': dict(path='.', lazify=['toolz', 'tlz'], tests=['toolz/tests']),
    # slower (1-4 minutes a run): only with --suites
    'more-itertools': dict(path='.', lazify=['more_itertools'], tests=['tests']),
    'idna': dict(path='.', lazify=['idna'], tests=['tests']),
    # chosen for how they reach names (issue 22): runtime type hints
    # (typing-extensions), pickling (pytz, python-dateutil, tomlkit),
    # unittest.mock and pytest-mock (tenacity, platformdirs), monkeypatch
    # (termcolor)
    'typing-extensions': dict(
        path='src', lazify=['src/typing_extensions.py'], tests=['src/test_typing_extensions.py']
    ),
    'pytz': dict(path='.', lazify=['pytz'], tests=['pytz/tests']),
    # (its setup.cfg turns warnings into errors, and marks tests with pytest-cov's no_cover)
    'python-dateutil': dict(
        path='src', lazify=['src/dateutil'], tests=['tests', '-W', 'ignore::pytest.PytestUnknownMarkWarning']
    ),
    'termcolor': dict(path='src', lazify=['src/termcolor'], tests=['tests']),
    'tenacity': dict(
        path='.', lazify=['tenacity'], tests=['tests', '--ignore=tests/test_tornado.py']
    ),  # (tornado: not in the corpus)
    'platformdirs': dict(
        path='src', lazify=['src/platformdirs'], tests=['tests', '--ignore=tests/test_comp_with_appdirs.py']
    ),  # (appdirs: idem)
    'tomlkit': dict(path='.', lazify=['tomlkit'], tests=['tests']),
    # hash(C()) != hash(C()) compares the ids of two temporaries, which the
    # allocator may or may not give the same address: they flip from run to run
    'attrs': dict(
        path='src',
        lazify=['src/attr', 'src/attrs'],
        tests=['tests', '-k', 'not hash_by_id and not unsafe_hash_false_eq_false and not hash_mirrors_eq'],
    ),
}
DEFAULT_SUITES = (
    'markupsafe',
    'itsdangerous',
    'jinja2',
    'click',
    'cachetools',
    'h11',
    'six',
    'sqlparse',
    'toolz',
    'typing-extensions',
    'pytz',
    'python-dateutil',
    'termcolor',
    'tenacity',
    'platformdirs',
    'tomlkit',
)
CI_VERSIONS = ('3.11', '3.14')
CI_PACKAGES = (
    'requests',
    'urllib3',
    'jinja2',
    'click',
    'rich',
    'pygments',
    'attrs',
    'flask',
    'werkzeug',
    'packaging',
    'networkx',
    'more-itertools',
    'httpx',
    'pyparsing',
)
CI_SUITES = ('jinja2', 'platformdirs')  # (platformdirs: mock and pytest-mock throughout)
PROBE_TIMEOUT = 300
SUITE_TIMEOUT = 300  # a run that hangs at exit (see README) is cut here

_print_lock = threading.Lock()


def log(*args):
    with _print_lock:
        print(*args, flush=True)


def run(cmd, timeout=None, **kw):
    try:
        return subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            timeout=timeout,
            errors='replace',
            **kw,
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode(errors='replace') if isinstance(exc.stdout, bytes) else (exc.stdout or '')
        return subprocess.CompletedProcess(cmd, -9, out, f'TIMEOUT after {timeout}s')


# -- the corpus ---------------------------------------------------------------------


def read_packages():
    packages = {}
    with open(os.path.join(HERE, 'packages.txt')) as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            pin, imports = line.split()
            name, version = pin.split('==')
            packages[name] = {'pin': pin, 'version': version, 'imports': imports.split(',')}
    return packages


# -- interpreters and venvs ------------------------------------------------------------


def find_interpreters():
    found = {}
    ref = os.environ.get('REFERENCE_PYTHONS') or os.path.expanduser('~/.cache/reference-pythons')
    for version in VERSIONS:
        candidates = sorted(
            glob.glob(os.path.expanduser(f'~/.pyenv/versions/{version}.*/bin/python3')),
            key=lambda p: [int(x) for x in re.findall(r'\d+', p.split('/versions/')[1])],
        )
        candidates = candidates[-1:] + [os.path.join(ref, 'bin', f'python{version}')]
        which = shutil.which(f'python{version}')
        if which:
            candidates.append(which)
        for exe in candidates:
            if os.access(exe, os.X_OK) and run([exe, '-c', 'pass']).returncode == 0:
                found[version] = exe
                break
    return found


def venv_python(version):
    return os.path.join(WORK, version, 'bin', 'python')


def pip_wheel_for_bootstrap():
    ref = os.environ.get('REFERENCE_PYTHONS') or os.path.expanduser('~/.cache/reference-pythons')
    wheels = sorted(glob.glob(os.path.join(ref, 'wheels', 'pip-*.whl')))
    return wheels[-1] if wheels else None


def clean_pip_output(text):
    # this machine's pip configuration names index locations that may not exist
    return '\n'.join(
        line for line in text.splitlines() if 'is ignored: it is neither a file nor a directory' not in line
    )


def make_venv(version, python, packages, record, source=ROOT):
    """the venv's python; record['install_failed'] gets the pins that did not install"""
    venv = os.path.join(WORK, version)
    vpy = venv_python(version)
    if os.access(vpy, os.X_OK) and run([vpy, '-m', 'pip', '--version']).returncode != 0:
        shutil.rmtree(venv, ignore_errors=True)  # a venv left without pip: made again
    if not os.access(vpy, os.X_OK):
        if run([python, '-m', 'venv', venv]).returncode != 0:
            # Debian's interpreters come without ensurepip: pip from its wheel
            shutil.rmtree(venv, ignore_errors=True)
            run([python, '-m', 'venv', '--without-pip', venv]).check_returncode()
            wheel = pip_wheel_for_bootstrap()
            if wheel is None:
                raise SystemExit(f'{version}: no ensurepip and no pip wheel to bootstrap from')
            r = run([vpy, os.path.join(wheel, 'pip'), 'install', '-q', wheel])
            if r.returncode != 0:
                raise SystemExit(f'{version}: bootstrapping pip failed:\n{r.stdout}{r.stderr}')
        r = run([vpy, '-m', 'pip', 'install', '-q', '-U', 'pip'])
        if run([vpy, '-m', 'pip', '--version']).returncode != 0:
            raise SystemExit(f'{version}: upgrading pip left the venv without pip:\n{r.stdout}{r.stderr}')
        # the same set of distributions in every venv: no setuptools/wheel from ensurepip
        run([vpy, '-m', 'pip', 'uninstall', '-q', '-y', 'setuptools', 'wheel'])
    # lazy_codec from this checkout, a real install, every run
    r = run([vpy, '-m', 'pip', 'install', '-q', '--force-reinstall', '--no-deps', source])
    if r.returncode != 0:
        raise SystemExit(f'{version}: installing lazy_codec failed:\n{r.stdout}{clean_pip_output(r.stderr)}')
    pins = sorted(p['pin'] for p in packages.values()) + list(SUITE_DEPS)
    digest = hashlib.sha256('\n'.join(pins + list(NO_BINARY)).encode()).hexdigest()
    marker = os.path.join(venv, 'realworld-corpus.json')
    try:
        with open(marker) as f:
            state = json.load(f)
    except (OSError, ValueError):
        state = {}
    if state.get('digest') != digest:
        base = [vpy, '-m', 'pip', 'install', '-q', '--no-deps', '--no-binary', ','.join(NO_BINARY)]
        r = run(base + pins)
        failed = []
        if r.returncode != 0:
            for pin in pins:
                if run(base + [pin]).returncode != 0:
                    failed.append(pin)
        state = {'digest': digest, 'install_failed': failed}
        with open(marker, 'w') as f:
            json.dump(state, f)
    record['install_failed'] = state['install_failed']
    return vpy


# -- the probe ------------------------------------------------------------------------


# the runtime's switch for every probe: {'LAZY_CODEC_PURE': '1'} with --pure
RUNTIME_ENV: dict = {}


def env_for(mode, extra=None):
    env = dict(os.environ)
    for key in (
        'PYTHON_LAZY_IMPORTS',
        'PYTHONPATH',
        'LAZY_CODEC_LAZY_MODULES',
        'LAZY_CODEC_REPORT',
        'PYTHONWARNINGS',
        'PYTHONDONTWRITEBYTECODE',
        'VIRTUAL_ENV',
        'PYTHONHOME',
        'LAZY_CODEC_PURE',
    ):
        env.pop(key, None)
    env.update(RUNTIME_ENV)
    if mode == 'all':
        env['PYTHON_LAZY_IMPORTS'] = 'all'
    env['PYTHONHASHSEED'] = '0'
    env['PIP_NO_COLOR'] = '1'
    env['NO_COLOR'] = '1'
    env['COLUMNS'] = '100'
    env.update(extra or {})
    return env


def probe(version, name, imports, mode, outdir):
    out = os.path.join(outdir, f'{version}-{name}-{mode}.json')
    r = run(
        [venv_python(version), os.path.join(HERE, 'probe.py'), out, *imports],
        timeout=PROBE_TIMEOUT,
        env=env_for(mode),
        cwd=outdir,
    )
    try:
        with open(out) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {'crashed': {'rc': r.returncode, 'stderr': r.stderr[-3000:], 'stdout': r.stdout[-1000:]}}
    data['rc'] = r.returncode
    return data


def normalize_message(text, version):
    text = text.replace(os.path.join(WORK, version), '<venv>')
    text = re.sub(r'python3\.\d+', 'python3.X', text)
    text = re.sub(r'0x[0-9a-fA-F]+', '0x?', text)
    return text


def probe_items(data, version):
    """{(module, name or None): 'Type: message'} of what failed, and {module: set of names}"""
    failures, names = {}, {}
    if 'crashed' in data:
        return {
            ('<process>', None): 'crashed: ' + normalize_message(data['crashed']['stderr'][-300:], version)
        }, {}
    for module, rec in data['modules'].items():
        if 'import' in rec or 'probe' in rec:
            exc = rec.get('import') or rec['probe']
            failures[(module, None)] = f'{exc["type"]}: {normalize_message(exc["message"], version)}'
            continue
        for name, exc in rec['failed'].items():
            failures[(module, name)] = f'{exc["type"]}: {normalize_message(exc["message"], version)}'
        names[module] = set(rec.get('all_names', ()))
    return failures, names


def probe_attached(data):
    """{module: (attached, unread)}: the names probe.py saw bound to a lazy object that
    lazy_codec attached to the package for the submodule of that name, and those of
    them it did not read"""
    if 'crashed' in data:
        return {}
    return {
        module: (set(rec.get('attached', ())), set(rec.get('unread', ())))
        for module, rec in data['modules'].items()
        if 'failed' in rec
    }


def fmt_item(item):
    module, name = item
    return module if name is None else f'{module}:{name}'


def compare_package(v_eager, v_all, o_eager, o_all, version):
    """(counted differences, notes, documented): lists of strings. Documented: a name
    that dir() gains in mode all here and not on 3.15, bound to a lazy object that
    lazy_codec attached for that submodule (documented.PROBE_ATTACHED)"""
    fe, ne = probe_items(v_eager, version)
    fa, na = probe_items(v_all, version)
    ofe, one = probe_items(o_eager, ORACLE)
    ofa, ona = probe_items(o_all, ORACLE)
    attached_all = probe_attached(v_all)
    counted, notes, documented = [], [], []
    for item, err in sorted(fa.items(), key=lambda kv: (kv[0][0], kv[0][1] or '')):
        if item in ofa:
            if ofa[item].split(':')[0] != err.split(':')[0]:
                notes.append(
                    f'{fmt_item(item)}: fails on 3.15 too, differently: here {err!r}, 3.15 {ofa[item]!r}'
                )
            continue
        if item in fe:
            notes.append(f'{fmt_item(item)}: fails eagerly on {version} too: {err!r}')
            continue
        if item[0] not in o_all.get('modules', {}) and item[0] != '<process>':
            notes.append(f'{fmt_item(item)}: no such module on 3.15: {err!r}')
            continue
        counted.append(f'{fmt_item(item)}: {err}  (3.15 all: ok, {version} eager: ok)')
    oracle_failed_alone = []  # 3.15's mode all failed here where this version's did not
    for item in sorted(ofa, key=lambda item: (item[0], item[1] or '')):
        if item not in fa:
            where = 'also eagerly' if item in ofe else 'not eagerly'
            notes.append(
                f'{fmt_item(item)}: 3.15 mode all fails ({where}), {version} mode all works: {ofa[item]!r}'
            )
            if item not in ofe:
                oracle_failed_alone.append(fmt_item(item))

    def count_dir(text):
        if oracle_failed_alone:
            # a failure part-way leaves 3.15's process with what it imported until then
            # (SQLAlchemy's preloaded set: how far it gets follows the order of a set of
            # strings, whose hash differs between versions): its later dir() is no oracle
            notes.append(f'{text}; not counted: 3.15 mode all failed first ({oracle_failed_alone[0]})')
        else:
            counted.append(text)

    # names a module has in mode "all" and not eagerly (or the other way), here and not on 3.15
    for module in sorted(set(na) & set(ne) & set(ona) & set(one)):
        lost_here, lost_there = ne[module] - na[module], one[module] - ona[module]
        gained_here, gained_there = na[module] - ne[module], ona[module] - one[module]
        for name in sorted(lost_here - lost_there):
            if name in ona[module]:
                count_dir(
                    f'{module}: dir() lacks {name!r} in mode all (3.15 all has it, {version} eager has it)'
                )
        for name in sorted(gained_here - gained_there):
            if name not in ona[module]:
                text = (
                    f'{module}: dir() has {name!r} in mode all (3.15 all lacks it, {version} eager lacks it)'
                )
                if name in attached_all.get(module, ((), ()))[0]:
                    documented.append(
                        f'{documented_differences.PROBE_ATTACHED}: {text}: '
                        f'a lazy submodule {module}.{name} attached to the package'
                    )
                else:
                    count_dir(text)
    # what the probe did not read here: an attached submodule (3.15 binds nothing)
    for module, (_, unread) in sorted(attached_all.items()):
        for name in sorted(unread):
            there = 'has' if name in ona.get(module, ()) else 'lacks'
            notes.append(
                f'{module}:{name}: not read in mode all, a lazy submodule attached to the package '
                f"({documented_differences.PROBE_ATTACHED}); 3.15 all's dir() {there} it"
            )
    return counted, notes, documented


# -- pip ------------------------------------------------------------------------------


def make_wheel(directory):
    """a small wheel (rwdemo 1.0, requires six) written with zipfile"""
    name = 'rwdemo-1.0-py3-none-any.whl'
    path = os.path.join(directory, name)
    if os.path.exists(path):
        return path
    files = {
        'rwdemo/__init__.py': b'import six\n__version__ = "1.0"\n',
        'rwdemo-1.0.dist-info/METADATA': (
            b'Metadata-Version: 2.1\nName: rwdemo\nVersion: 1.0\n'
            b'Summary: a wheel for the realworld pip check\n'
            b'Requires-Dist: six>=1.0\n'
        ),
        'rwdemo-1.0.dist-info/WHEEL': (
            b'Wheel-Version: 1.0\nGenerator: realworld\nRoot-Is-Purelib: true\nTag: py3-none-any\n'
        ),
    }
    record = []
    for fname, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()
        record.append(f'{fname},sha256={digest},{len(data)}')
    record.append('rwdemo-1.0.dist-info/RECORD,,')
    files['rwdemo-1.0.dist-info/RECORD'] = ('\n'.join(record) + '\n').encode()
    with zipfile.ZipFile(path + '.tmp', 'w') as z:
        for fname, data in files.items():
            z.writestr(fname, data)
    os.replace(path + '.tmp', path)
    return path


PIP_COMMANDS = {
    'version': ['--version'],
    'list': ['list'],
    'dry-run': ['install', '--dry-run', '--no-index', '{wheel}'],
}


def normalize_pip(text, version, command):
    text = normalize_message(clean_pip_output(text), version)
    # a traceback's caret lines (`^^^`, `~~^^`) are drawn differently by each
    # version: the same error must compare alike
    lines = [line for line in text.splitlines() if not line.strip() or set(line.strip()) - set('^~')]
    if command == 'version':
        lines = [
            re.sub(r'^pip \S+ from (.*) \(python \S+\)$', r'pip N from \1 (python X)', line) for line in lines
        ]
    if command == 'list':
        rows = []
        for line in lines:
            parts = line.split()
            if (
                len(parts) == 2
                and parts[0] not in ('pip', 'setuptools', 'wheel')
                and not set(line) <= set('- ')
            ):
                rows.append(f'{parts[0]} {parts[1]}')
        lines = rows
    return '\n'.join(lines)


def pip_check(version, command, mode, wheel):
    args = [a.replace('{wheel}', wheel) for a in PIP_COMMANDS[command]]
    cwd = os.path.dirname(wheel)
    r = run([venv_python(version), '-m', 'pip', *args], timeout=300, env=env_for(mode), cwd=cwd)
    return {
        'rc': r.returncode,
        'stdout': normalize_pip(r.stdout, version, command),
        'stderr': normalize_pip(r.stderr, version, command),
    }


# -- suites ---------------------------------------------------------------------------


def fetch_sdist(name, pin):
    directory = os.path.join(WORK, 'sdists')
    os.makedirs(directory, exist_ok=True)
    version = pin.split('==')[1]

    def norm(text):
        return re.sub(r'[-_.]+', '_', text).lower()

    wanted = {norm(f'{name}-{version}.tar.gz'), norm(f'{name}-{version}.zip')}

    def find():
        for f in sorted(os.listdir(directory)):
            if norm(f) in wanted:
                return os.path.join(directory, f)
        return None

    found = find()
    if found:
        return found
    r = run(
        [
            sys.executable,
            '-m',
            'pip',
            'download',
            '-q',
            '--no-binary',
            ':all:',
            '--no-deps',
            '-d',
            directory,
            pin,
        ],
        timeout=900,
    )
    found = find()
    if not found:
        raise RuntimeError(f'pip download {pin} failed: {clean_pip_output(r.stderr)[-2000:]}')
    return found


def extract(sdist, dest):
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    with tarfile.open(sdist) as tar:
        members = tar.getmembers()
        top = members[0].name.split('/')[0]
        if sys.version_info >= (3, 12):
            tar.extractall(dest, filter='data')
        else:
            tar.extractall(dest)
    return os.path.join(dest, top)


def prepare_suite(version, name, sdist, variant):
    """a fresh copy of the sdist for one run; variant 'lazysrc' lazified"""
    sys.path.insert(0, HERE)
    import lazify

    dest = os.path.join(WORK, 'suites', version, name, variant)
    root = extract(sdist, dest)
    stats = None
    if variant == 'lazysrc':
        stats = {'files': 0, 'lazy': 0, 'unparsable': []}
        for target in SUITES[name]['lazify']:
            path = os.path.join(root, target)
            if os.path.isdir(path):
                s = lazify.lazify_tree(path, exclude=('tests', 'test'))
            else:
                with open(path, 'rb') as f:
                    new, count = lazify.lazify_source(f.read())
                s = {'files': 1, 'lazy': count, 'unparsable': [] if new is not None else [target]}
                if new is not None:
                    with open(path, 'wb') as f:
                        f.write(new)
            for k in ('files', 'lazy'):
                stats[k] += s[k]
            stats['unparsable'] += s['unparsable']
    return root, stats


SUMMARY_RE = re.compile(r'(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?)')


def run_suite(version, name, sdist, variant):
    spec = SUITES[name]
    root, stats = prepare_suite(version, name, sdist, variant)
    junit = os.path.join(os.path.dirname(root), 'junit.xml')
    mode = 'all' if variant == 'all' else 'normal'
    env = env_for(mode, {'PYTHONPATH': os.path.join(root, spec['path'])})
    start = time.monotonic()
    r = run(
        [
            venv_python(version),
            '-m',
            'pytest',
            '-q',
            '-p',
            'no:cacheprovider',
            '-o',
            'console_output_style=classic',
            # pytest's assertion-rewriting hook cannot run in mode "all", native 3.15 included
            # (ImportCycleError on _pytest.pathlib's lazy fnmatch): plain asserts in every variant
            '--assert=plain',
            f'--junitxml={junit}',
            *spec['tests'],
        ],
        timeout=SUITE_TIMEOUT,
        env=env,
        cwd=root,
    )
    elapsed = time.monotonic() - start
    lines = [line for line in r.stdout.strip().splitlines() if line.strip()]
    summary = lines[-1].strip('= ') if lines else f'(no output; rc {r.returncode}) {r.stderr[-500:]}'
    counts = {}
    for n, kind in SUMMARY_RE.findall(summary):
        kind = {'error': 'errors', 'warning': 'warnings'}.get(kind, kind)
        counts[kind] = int(n)
    failing, passed = {}, []
    # a collection error's classname is the file's path, dotted, from the rootdir up
    prefix = re.compile(r'^.*' + re.escape(f'.{variant}.{os.path.basename(root)}.'))
    try:
        tree = ET.parse(junit)
        for case in tree.iter('testcase'):
            tid = prefix.sub('', f'{case.get("classname", "")}::{case.get("name", "")}')
            bad = [case.find(tag) for tag in ('failure', 'error') if case.find(tag) is not None]
            if bad:
                failing[tid] = normalize_message((bad[0].get('message') or '')[:300], version)
            elif case.find('skipped') is None:
                passed.append(tid)
    except (OSError, ET.ParseError):
        pass
    return {
        'rc': r.returncode,
        'summary': re.sub(r' in [\d.]+s.*$', '', summary),
        'counts': counts,
        'failing': failing,
        'passed': sorted(passed),
        'seconds': round(elapsed, 1),
        'lazified': stats,
        'tail': r.stdout[-4000:] if r.returncode not in (0, 1) else '',
    }


def compare_suite(res, version):
    """counted differences and notes for one version's suite runs against 3.15's"""
    counted, notes = [], []
    mine, oracle = res[version], res[ORACLE]
    eager_passed = set(mine['eager']['passed'])
    for variant in ('all', 'lazysrc'):
        here, there = set(mine[variant]['failing']), set(oracle[variant]['failing'])
        there_passed = set(oracle[variant]['passed'])
        for tid in sorted(here - there):
            err = mine[variant]['failing'][tid]
            if tid in there_passed and tid in eager_passed:
                counted.append(
                    f'{variant}: {tid} fails ({err!r}), passes on 3.15 {variant} and {version} eager'
                )
            elif tid not in there_passed:
                notes.append(f'{variant}: {tid} fails ({err!r}); 3.15 {variant} did not run it')
            else:
                notes.append(f'{variant}: {tid} fails ({err!r}); fails (or did not run) here eagerly too')
        for tid in sorted(there - here):
            notes.append(
                f'{variant}: {tid} fails on 3.15 {variant} ({oracle[variant]["failing"][tid]!r}), not here'
            )
        if (
            mine[variant]['rc'] not in (0, 1)
            and oracle[variant]['rc'] in (0, 1)
            and mine['eager']['rc'] in (0, 1)
        ):
            counted.append(
                f'{variant}: pytest exit status {mine[variant]["rc"]}: {mine[variant]["summary"]} '
                f'{mine[variant]["tail"][-1500:]}'
            )

        def ran(r):
            return sum(r['counts'].get(k, 0) for k in ('passed', 'failed', 'errors'))

        if ran(mine[variant]) != ran(mine['eager']) and ran(oracle[variant]) == ran(oracle['eager']):
            counted.append(
                f'{variant}: {ran(mine[variant])} tests ran, {ran(mine["eager"])} eagerly '
                f'({mine[variant]["summary"]} / {mine["eager"]["summary"]})'
            )
    return counted, notes


# -- scenarios ------------------------------------------------------------------------

SCENARIOS_DIR = os.path.join(HERE, 'scenarios')
# what each scenario needs from the corpus: skipped on a version where one did not install
SCENARIO_PACKAGES = {
    'pydantic_models': ('pydantic', 'pydantic-core', 'typing-inspection', 'annotated-types'),
    'fastapi_app': (
        'fastapi',
        'starlette',
        'pydantic',
        'pydantic-core',
        'typing-inspection',
        'annotated-types',
        'annotated-doc',
        'anyio',
        'httpx',
        'httpcore',
    ),
    'sqlalchemy_orm': ('sqlalchemy',),
    'django_site': ('django', 'asgiref', 'sqlparse'),
    'attrs_cattrs': ('attrs', 'cattrs'),
}
SCENARIO_TIMEOUT = 300
# the harness's way of making a lazy program eager (tests/support/harness.py)
_LAZY_KEYWORD = re.compile(rb'(?m)^([ \t]*)lazy[ \t]+(?=import\b|from\b)')
_LAZY_COOKIE = re.compile(rb'^([ \t\f]*#.*?coding[:=][ \t]*lazy\b[^\n]*)', re.M)


def list_scenarios():
    return sorted(
        d for d in os.listdir(SCENARIOS_DIR) if os.path.isfile(os.path.join(SCENARIOS_DIR, d, 'main.py'))
    )


def eager_text(data):
    """a scenario file without its `lazy` keywords and cookie (lines kept in place)"""
    head, sep, rest = data.partition(b'\n')
    if _LAZY_COOKIE.match(head):
        head = b'#'
    return _LAZY_KEYWORD.sub(rb'\1', head + sep + rest)


def prepare_scenario(version, name, variant):
    """a fresh directory for one run: main.py and the app as they are ('lazysrc'),
    or made eager ('eager', 'all'), with _common.py beside them"""
    dest = os.path.join(WORK, 'scenarios', version, name, variant)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    src = os.path.join(SCENARIOS_DIR, name)
    files = [os.path.join(SCENARIOS_DIR, '_common.py')] + [
        os.path.join(src, f) for f in sorted(os.listdir(src)) if f.endswith('.py')
    ]
    for path in files:
        with open(path, 'rb') as f:
            data = f.read()
        if variant != 'lazysrc':
            data = eager_text(data)
        with open(os.path.join(dest, os.path.basename(path)), 'wb') as f:
            f.write(data)
    return dest


def run_scenario(version, name, variant):
    dest = prepare_scenario(version, name, variant)
    start = time.monotonic()
    r = run(
        [venv_python(version), 'main.py'],
        timeout=SCENARIO_TIMEOUT,
        env=env_for('all' if variant == 'all' else 'normal'),
        cwd=dest,
    )
    return {
        'rc': r.returncode,
        'stdout': normalize_message(r.stdout.replace(dest, '<scenario>'), version),
        'stderr': normalize_message(r.stderr.replace(dest, '<scenario>'), version)[-3000:],
        'seconds': round(time.monotonic() - start, 1),
    }


def _split_lazy(stdout):
    """(the values, the lazy state): a scenario's `lazy MODULE: names` lines are the second"""
    lines = stdout.splitlines()
    return [x for x in lines if not x.startswith('lazy ')], [x for x in lines if x.startswith('lazy ')]


def _diff(here, there, version):
    import difflib

    lines = list(difflib.unified_diff(there, here, f'{ORACLE}', version, n=0, lineterm=''))[2:]
    return '\n'.join(x[:400] for x in lines[:20]) + ('\n...' if len(lines) > 20 else '')


def compare_scenario(res, version, name, pure=False):
    """counted differences, notes and documented differences for one version's scenario
    runs against 3.15's: output and exit status count where 3.15 in the same variant and
    this version eagerly agree, or where the two eager runs agree (what moves with the
    mode, a warning's line, the lazy names, is compared given the same program); what
    documented.py describes is taken out first, reported with its case"""
    counted, notes, documented = [], [], []
    mine, oracle = res[version], res[ORACLE]
    eager = mine['eager']
    ev, _ = _split_lazy(eager['stdout'])
    eager_alike = (eager['rc'], eager['stdout']) == (oracle['eager']['rc'], oracle['eager']['stdout'])
    if not eager_alike:
        ov, _ = _split_lazy(oracle['eager']['stdout'])
        notes.append(
            f'eager: differs from 3.15 eager (rc {eager["rc"]} / {oracle["eager"]["rc"]}):\n'
            + _diff(ev, ov, version)
            + (f'\n{eager["stderr"][-800:]}' if eager['rc'] else '')
        )
    for variant in ('all', 'lazysrc'):
        here, there = mine[variant], oracle[variant]
        tv, tl = _split_lazy(there['stdout'])
        hv, hl, seen, unseen = documented_differences.apply(
            name, version, variant, pure, _split_lazy(here['stdout']), (tv, tl)
        )
        documented += [f'{variant}: {d}' for d in seen]
        notes += [f'{variant}: documented but not seen: {d}' for d in unseen]
        if (here['rc'], hv) != (there['rc'], tv):
            text = f'{variant}: rc {here["rc"]} (3.15 {there["rc"]}), output:\n{_diff(hv, tv, version)}' + (
                f'\nstderr: {here["stderr"][-1500:]}' if here['rc'] else ''
            )
            # what moves with the mode (a warning names the first use) counts where
            # the program is the same on both eagerly
            if eager_alike:
                counted.append(text + f'\n({version} eager and 3.15 eager agree)')
            elif (there['rc'], tv) == (eager['rc'], ev):
                counted.append(text + f'\n(3.15 {variant} and {version} eager agree)')
            else:
                notes.append(text + f'\n(3.15 {variant} differs from {version} eager: not counted)')
        if hl != tl:
            text = f'{variant}: lazy state differs:\n{_diff(hl, tl, version)}'
            if eager_alike:
                counted.append(text)
            else:
                notes.append(text + f'\n({version} eager differs from 3.15 eager: not counted)')
    return counted, notes, documented


# -- main -----------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--versions', help='comma-separated, e.g. 3.11,3.14 (3.15 is always added)')
    parser.add_argument('--packages', help='comma-separated distribution names from packages.txt')
    parser.add_argument('--suites', help=f'comma-separated, from: {",".join(SUITES)}')
    parser.add_argument(
        '--ci',
        action='store_true',
        help=f'bounded: {",".join(CI_VERSIONS)} + 3.15, {len(CI_PACKAGES)} packages, '
        f'suite {",".join(CI_SUITES)}',
    )
    parser.add_argument(
        '--pure',
        action='store_true',
        help="lazy_codec's pure-Python runtime (LAZY_CODEC_PURE=1), not its C accelerator",
    )
    parser.add_argument('--no-suites', action='store_true')
    parser.add_argument(
        '--scenarios',
        nargs='?',
        const='all',
        help='the framework scenarios (scenarios/): all, or comma-separated names from: '
        + ','.join(list_scenarios()),
    )
    parser.add_argument('--no-pip', action='store_true')
    parser.add_argument(
        '--worktree',
        action='store_true',
        help='install lazy_codec from the work tree as it is (default: the commit HEAD, '
        'exported with git archive, so that edits in progress are not measured)',
    )
    parser.add_argument(
        '--reuse',
        metavar='RAW.json',
        help='compare the raw results of an earlier run (saved in .venvs-realworld/raw-*.json) '
        'instead of running anything',
    )
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    parser.add_argument('--out', help='results JSON (default tests/realworld/results/<date>[-ci].json)')
    args = parser.parse_args(argv)
    started = time.monotonic()
    if args.pure:
        RUNTIME_ENV['LAZY_CODEC_PURE'] = '1'
    tag = ('-ci' if args.ci else '') + ('-pure' if args.pure else '')

    packages = read_packages()
    interpreters = find_interpreters()
    if ORACLE not in interpreters:
        raise SystemExit(f'native {ORACLE} (the oracle) not found')
    versions = [v for v in VERSIONS if v in interpreters and v != ORACLE]
    wanted_versions = args.versions.split(',') if args.versions else (list(CI_VERSIONS) if args.ci else None)
    if wanted_versions:
        missing = [v for v in wanted_versions if v not in interpreters]
        if missing:
            raise SystemExit(f'not found: {",".join(missing)}')
        versions = [v for v in versions if v in wanted_versions]
    names = list(packages)
    if args.packages:
        names = args.packages.split(',')
    elif args.ci:
        names = list(CI_PACKAGES)
    unknown = [n for n in names if n not in packages]
    if unknown:
        raise SystemExit(f'not in packages.txt: {",".join(unknown)}')
    suites = (
        []
        if args.no_suites
        else (args.suites.split(',') if args.suites else list(CI_SUITES) if args.ci else list(DEFAULT_SUITES))
    )
    scenarios = []
    if args.scenarios:
        scenarios = list_scenarios() if args.scenarios == 'all' else args.scenarios.split(',')
        unknown = [n for n in scenarios if n not in list_scenarios()]
        if unknown:
            raise SystemExit(f'no such scenario: {",".join(unknown)}')
    documented_differences.check()  # each names a case of tests/test_differential.py
    all_versions = versions + [ORACLE]
    git = run(['git', 'rev-parse', '--short', 'HEAD'], cwd=ROOT).stdout.strip()
    log(
        f'realworld: {len(names)} packages, suites {",".join(suites) or "-"}, '
        f'scenarios {",".join(scenarios) or "-"}, versions {",".join(versions)} '
        f'against {ORACLE}; lazy_codec {git}, {"pure runtime" if args.pure else "C accelerator where built"}'
    )

    raw_path = os.path.join(WORK, f'raw-{datetime.date.today().isoformat()}{tag}.json')
    if args.reuse:
        with open(args.reuse) as f:
            saved = json.load(f)
        results, records, git = saved['results'], saved['records'], saved['lazy_codec']
    else:
        os.makedirs(WORK, exist_ok=True)
        source = ROOT
        if not args.worktree:
            source = os.path.join(WORK, 'lazy_codec-HEAD')
            shutil.rmtree(source, ignore_errors=True)
            os.makedirs(source)
            archive = subprocess.run(
                ['git', 'archive', 'HEAD'], cwd=ROOT, stdout=subprocess.PIPE, check=True
            ).stdout
            subprocess.run(['tar', 'x', '-C', source], input=archive, check=True)
        else:
            dirty = run(
                ['git', 'status', '--porcelain', '--', 'lazy_codec', 'setup.py', 'pyproject.toml', 'pth'],
                cwd=ROOT,
            )
            git += '+worktree' + (' (modified)' if dirty.stdout.strip() else '')
        # a copy of the tree per venv, which pip builds with that venv's
        # interpreter (the C accelerator is built for each version; builds
        # from one tree side by side would share its build/ directory)
        trees = {}
        for v in all_versions:
            trees[v] = os.path.join(WORK, f'lazy_codec-tree-{v}')
            shutil.rmtree(trees[v], ignore_errors=True)
            shutil.copytree(
                source,
                trees[v],
                ignore=shutil.ignore_patterns(
                    '.git', '.venvs*', 'build', '*.egg-info', '__pycache__', '*.so'
                ),
            )
        records = {v: {'python': interpreters[v]} for v in all_versions}
        # venvs: two at a time (pip is mostly network and one core)
        with concurrent.futures.ThreadPoolExecutor(max(1, min(args.jobs, 2))) as pool:
            futures = {
                pool.submit(make_venv, v, interpreters[v], packages, records[v], trees[v]): v
                for v in all_versions
            }
            for fut in concurrent.futures.as_completed(futures):
                v = futures[fut]
                fut.result()
                runtime = run(
                    [venv_python(v), '-m', 'lazy_codec', '--version'], cwd=WORK, env=env_for('eager')
                ).stdout.strip()
                records[v]['runtime'] = runtime
                log(
                    f'  venv {v} ready ({time.monotonic() - started:.0f}s): {runtime}'
                    + (
                        f'; did not install: {", ".join(records[v]["install_failed"])}'
                        if records[v]['install_failed']
                        else ''
                    )
                )
        sdists = {}
        for name in suites:
            sdists[name] = fetch_sdist(name, packages[name]['pin'])

        outdir = tempfile.mkdtemp(prefix='realworld-', dir=WORK)
        wheel = make_wheel(WORK)
        jobs = []
        for v in all_versions:
            failed_pins = {p.split('==')[0] for p in records[v]['install_failed']}
            for name in names:
                if name in failed_pins:
                    continue
                for mode in ('normal', 'all'):
                    jobs.append(('probe', v, name, mode))
            if not args.no_pip:
                for command in PIP_COMMANDS:
                    for mode in ('normal', 'all'):
                        jobs.append(('pip', v, command, mode))
            for name in suites:
                for variant in ('eager', 'all', 'lazysrc'):
                    jobs.append(('suite', v, name, variant))
            for name in scenarios:
                if failed_pins & set(SCENARIO_PACKAGES.get(name, ())):
                    continue
                for variant in ('eager', 'all', 'lazysrc'):
                    jobs.append(('scenario', v, name, variant))
        # the long suite runs first, so that the probes fill the gaps
        jobs.sort(key=lambda j: j[0] != 'suite')

        results = {'probe': {}, 'pip': {}, 'suite': {}, 'scenario': {}}

        def do(job):
            kind, v, name, mode = job
            if kind == 'probe':
                return probe(v, name, packages[name]['imports'], mode, outdir)
            if kind == 'pip':
                return pip_check(v, name, mode, wheel)
            if kind == 'scenario':
                return run_scenario(v, name, mode)
            return run_suite(v, name, sdists[name], mode)

        done = 0
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = {pool.submit(do, job): job for job in jobs}
            for fut in concurrent.futures.as_completed(futures):
                kind, v, name, mode = futures[fut]
                try:
                    value = fut.result()
                except Exception as exc:  # a bug here, not in what is compared
                    value = {
                        'crashed': {
                            'rc': None,
                            'stderr': f'runner: {type(exc).__name__}: {exc}',
                            'stdout': '',
                        }
                    }
                results[kind].setdefault(v, {}).setdefault(name, {})[mode] = value
                done += 1
                if kind == 'suite':
                    log(
                        f'  [{done}/{len(jobs)} {time.monotonic() - started:.0f}s] suite {name} {v} {mode}: '
                        f'{value.get("summary", value)} ({value.get("seconds")}s)'
                    )
                elif kind == 'scenario':
                    log(
                        f'  [{done}/{len(jobs)} {time.monotonic() - started:.0f}s] '
                        f'scenario {name} {v} {mode}: rc {value.get("rc")} ({value.get("seconds")}s)'
                    )
                elif done % 50 == 0:
                    log(f'  [{done}/{len(jobs)} {time.monotonic() - started:.0f}s]')
        shutil.rmtree(outdir, ignore_errors=True)

        with open(raw_path, 'w') as f:
            json.dump({'results': results, 'records': records, 'lazy_codec': git}, f)

    # -- compare
    report = {
        'date': datetime.date.today().isoformat(),
        'lazy_codec': git,
        'ci': args.ci,
        'versions': {},
        'corpus': {n: packages[n]['pin'] for n in names},
        'suites': suites,
        'scenarios': scenarios,
    }
    total_counted = 0
    for v in versions:
        vr = {
            'python': interpreters[v],
            'install_failed': records[v]['install_failed'],
            'packages': {},
            'pip': {},
            'suites': {},
            'scenarios': {},
        }
        for name in names:
            mine = results['probe'].get(v, {}).get(name)
            oracle = results['probe'].get(ORACLE, {}).get(name)
            if mine is None:
                vr['packages'][name] = {'status': 'skipped', 'why': f'does not install on {v}'}
                continue
            if oracle is None:
                vr['packages'][name] = {'status': 'skipped', 'why': f'does not install on {ORACLE}'}
                continue
            if 'crashed' in oracle['all'] or 'crashed' in oracle['normal']:
                vr['packages'][name] = {
                    'status': 'skipped',
                    'why': f'probe crashed on {ORACLE}',
                    'notes': [str(oracle)[:2000]],
                }
                continue
            counted, notes, documented = compare_package(
                mine['normal'], mine['all'], oracle['normal'], oracle['all'], v
            )
            modules = len(mine['all'].get('modules', {}))
            if all(m.get('import') for m in mine['normal'].get('modules', {}).values()) and mine[
                'normal'
            ].get('modules'):
                vr['packages'][name] = {
                    'status': 'skipped',
                    'why': f'does not import eagerly on {v}',
                    'notes': notes[:20],
                }
                continue
            vr['packages'][name] = {
                'status': 'different' if counted else 'alike',
                'modules': modules,
                'differences': counted,
                'documented': documented,
                'notes': notes[:50],
            }
        if not args.no_pip:
            for command in PIP_COMMANDS:
                mine = results['pip'][v][command]
                oracle = results['pip'][ORACLE][command]
                if mine['all'] == oracle['all']:
                    status = 'alike'
                elif mine['all'] == mine['normal'] and oracle['all'] != oracle['normal']:
                    status = '3.15-fails'  # 3.15 itself fails in mode "all": recorded, not counted
                elif mine['all'] == mine['normal']:
                    status = 'version-specific'  # this version's pip differs from 3.15's, eagerly too
                else:
                    status = 'different'
                entry = {'status': status}
                if status != 'alike':
                    entry.update(
                        {'here_all': mine['all'], 'here_eager': mine['normal'], 'oracle_all': oracle['all']}
                    )
                vr['pip'][command] = entry
        for name in suites:
            counted, notes = compare_suite({k: results['suite'][k][name] for k in (v, ORACLE)}, v)
            vr['suites'][name] = {
                'status': 'different' if counted else 'alike',
                'differences': counted,
                'notes': notes[:50],
                'summary': {
                    var: results['suite'][v][name][var]['summary'] for var in ('eager', 'all', 'lazysrc')
                },
                'lazified': results['suite'][v][name]['lazysrc']['lazified'],
            }
        for name in scenarios:
            mine = results.get('scenario', {}).get(v, {}).get(name)
            oracle = results.get('scenario', {}).get(ORACLE, {}).get(name)
            if mine is None or oracle is None:
                where = v if mine is None else ORACLE
                vr['scenarios'][name] = {
                    'status': 'skipped',
                    'why': f'a package it needs does not install on {where}',
                }
                continue
            counted, notes, documented = compare_scenario({v: mine, ORACLE: oracle}, v, name, args.pure)
            vr['scenarios'][name] = {
                'status': 'different' if counted else 'alike',
                'differences': counted,
                'documented': documented,
                'notes': notes,
                'rc': {var: mine[var]['rc'] for var in ('eager', 'all', 'lazysrc')},
                'lazy': {var: _split_lazy(mine[var]['stdout'])[1] for var in ('eager', 'all', 'lazysrc')},
            }
        counted_v = (
            sum(p['status'] == 'different' for p in vr['packages'].values())
            + sum(p['status'] == 'different' for p in vr['pip'].values())
            + sum(s['status'] == 'different' for s in vr['suites'].values())
            + sum(s['status'] == 'different' for s in vr['scenarios'].values())
        )
        total_counted += counted_v
        report['versions'][v] = vr
    report['oracle'] = {
        'python': interpreters[ORACLE],
        'install_failed': records[ORACLE]['install_failed'],
        'suites': {
            name: {
                var: {k: results['suite'][ORACLE][name][var][k] for k in ('summary', 'counts')}
                for var in ('eager', 'all', 'lazysrc')
            }
            for name in suites
        },
        'packages_failing_in_mode_all': {
            name: sorted(fmt_item(i) for i in probe_items(results['probe'][ORACLE][name]['all'], ORACLE)[0])[
                :30
            ]
            for name in names
            if name in results['probe'].get(ORACLE, {})
            and probe_items(results['probe'][ORACLE][name]['all'], ORACLE)[0]
        },
    }
    report['oracle']['scenarios'] = {
        name: {
            var: {k: results['scenario'][ORACLE][name][var][k] for k in ('rc', 'stdout')}
            for var in ('eager', 'all', 'lazysrc')
        }
        for name in scenarios
        if name in results.get('scenario', {}).get(ORACLE, {})
    }
    report['seconds'] = round(time.monotonic() - started)

    # -- print
    for v, vr in report['versions'].items():
        for name, p in vr['packages'].items():
            for d in p.get('differences', []):
                log(f'DIFF {v} package {name}: {d}')
            for d in p.get('documented', []):
                log(f'documented {v} package {name}: {d}')
        for command, p in vr['pip'].items():
            if p['status'] == 'different':
                log(f'DIFF {v} pip {command}: here {p["here_all"]} / 3.15 {p["oracle_all"]}')
            elif p['status'] == '3.15-fails':
                log(
                    f'note {v} pip {command}: 3.15 fails in mode all, {v} works: '
                    f'{p["oracle_all"]["stderr"].splitlines()[-1:]}'
                )
        for name, s in vr['suites'].items():
            for d in s['differences']:
                log(f'DIFF {v} suite {name}: {d}')
        for name, s in vr['scenarios'].items():
            for d in s.get('differences', []):
                log(f'DIFF {v} scenario {name}: {d}')
            for d in s.get('documented', []):
                log(f'documented {v} scenario {name}: {d}')
            for d in s.get('notes', []):
                if 'documented but not seen' in d:
                    log(f'note {v} scenario {name}: {d}')
    log('')
    header = (
        f'{"version":8} {"packages alike/different/skipped (documented)":46} {"pip alike/different":20} '
        f'{"suites alike/different":22} {"scenarios alike/different/skipped (documented)":22}'
    )
    log(header)
    log('-' * len(header))
    for v, vr in report['versions'].items():
        st = [p['status'] for p in vr['packages'].values()]
        pip = [p['status'] for p in vr['pip'].values()]
        su = [s['status'] for s in vr['suites'].values()]
        pd = sum(len(p.get('documented', [])) for p in vr['packages'].values())
        pk = f'{st.count("alike")}/{st.count("different")}/{st.count("skipped")} ({pd})'
        pp = (
            (
                f'{pip.count("alike") + pip.count("version-specific")}/{pip.count("different")}'
                + (f' (3.15 fails: {pip.count("3.15-fails")})' if pip.count('3.15-fails') else '')
            )
            if pip
            else '-'
        )
        ss = f'{su.count("alike")}/{su.count("different")}' if su else '-'
        sc = [s['status'] for s in vr['scenarios'].values()]
        sd = sum(len(s.get('documented', [])) for s in vr['scenarios'].values())
        sn = f'{sc.count("alike")}/{sc.count("different")}/{sc.count("skipped")} ({sd})' if sc else '-'
        log(f'{v:8} {pk:46} {pp:20} {ss:22} {sn}')
    for name in suites:
        o = report['oracle']['suites'][name]
        log(
            f'3.15 suite {name}: eager {o["eager"]["summary"]}; all {o["all"]["summary"]}; '
            f'lazified {o["lazysrc"]["summary"]}'
        )
    out = args.out or os.path.join(HERE, 'results', f'{report["date"]}{tag}.json')
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, 'w') as f:
        json.dump(report, f, indent=1, sort_keys=True)
        f.write('\n')
    where = os.path.relpath(out, ROOT)
    log(f'{total_counted} difference(s) counted; {report["seconds"]}s; results in {where}')
    return 1 if total_counted else 0


if __name__ == '__main__':
    sys.exit(main())
