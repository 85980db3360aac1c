"""The scenarios' documented differences: what each scenario is known to show
against native 3.15, each tied to a case of tests/test_differential.py's
KNOWN_DIFFERENCES (or PURE_DIFFERENCES, under the pure runtime only), where the
difference is reduced and explained.

An entry is precise: the exact names of a `lazy MODULE:` line that 3.15 leaves
lazy and the backport does not (per variant, and version where it matters), or
the exact output line whose location names the runtime's file. Whatever an entry
does not describe still counts; an entry that a run does not show is reported
(a note: "documented but not seen"), so that the list cannot go stale silently.
"""

import ast
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
DIFFERENTIAL = os.path.join(os.path.dirname(HERE), 'test_differential.py')
BEFORE_314 = ('3.9', '3.10', '3.11', '3.12', '3.13')


def case_names(path=DIFFERENTIAL):
    """{'KNOWN_DIFFERENCES': names, 'PURE_DIFFERENCES': names}, read from the test's source:
    a dict's string keys, and the strings of a tuple a dict comprehension runs over"""
    with open(path, encoding='utf-8') as f:
        tree = ast.parse(f.read(), path)
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            target = node.targets[0].id
            if target not in ('KNOWN_DIFFERENCES', 'PURE_DIFFERENCES'):
                continue
            names = set()
            for sub in ast.walk(node.value):
                if isinstance(sub, ast.Dict):
                    names.update(k.value for k in sub.keys if isinstance(k, ast.Constant))
                elif isinstance(sub, ast.comprehension) and isinstance(sub.iter, (ast.Tuple, ast.List)):
                    names.update(e.value for e in sub.iter.elts if isinstance(e, ast.Constant))
            found[target] = {n for n in names if isinstance(n, str)}
    missing = {'KNOWN_DIFFERENCES', 'PURE_DIFFERENCES'} - set(found)
    if missing:
        raise SystemExit(f'{path}: no {", ".join(sorted(missing))}')
    return found


def lazy(case, variants, module, names, versions=None, pure=False):
    """`lazy MODULE:` names that 3.15 shows lazy and the backport has resolved"""
    return {
        'kind': 'lazy',
        'case': case,
        'variants': variants,
        'module': module,
        'names': tuple(names.split()),
        'versions': versions,
        'pure': pure,
    }


def line(case, variants, oracle, here, versions=None, pure=False):
    """an output line that reads `here` on the backport where 3.15 prints `oracle`
    (`:NN:` in `here`: a line number of the runtime's own file)"""
    return {
        'kind': 'line',
        'case': case,
        'variants': variants,
        'oracle': oracle,
        'here': here,
        'versions': versions,
        'pure': pure,
    }


_HINTS = 'type_hints_leave_binding_lazy'  # typing evaluates a string annotation: a load
_FUTURE = 'mode_all_future_statement_binding'  # `from __future__ import annotations`, mode all
_LEGACY = 'run: warning DeprecationWarning at app.py:{}: legacy_tools is deprecated'
_HTTP_422 = (
    "run: warning DeprecationWarning at {}: 'HTTP_422_UNPROCESSABLE_ENTITY' is deprecated. "
    "Use 'HTTP_422_UNPROCESSABLE_CONTENT' instead."
)

# The probes' one documented difference, a rule rather than a list: a public name
# that dir() gains in mode all here and not on 3.15, which the probe saw bound in the
# module's dict to a lazy object lazy_codec attached for the submodule of that name
# (probe.py: `attached`); the probe does not read such a name (`unread`), which 3.15's
# dir() does not list (run.compare_package)
PROBE_ATTACHED = 'lazy_submodule_attached_to_package'

# scenario -> its documented differences
DOCUMENTED = {
    'pydantic_models': [
        lazy(_HINTS, ('all', 'lazysrc'), 'app', 'UUID'),
        lazy(_FUTURE, ('all',), 'app', 'annotations'),
    ],
    'fastapi_app': [
        lazy(_HINTS, ('all', 'lazysrc'), 'app', 'Decimal'),
        lazy(_FUTURE, ('all',), 'app', 'annotations'),
        # legacy_tools warns at import with stacklevel=2: the pure runtime's first use
        # names the lazy line (12), 3.15 the use (67)
        line(
            'first_use_frames_lazy_statements',
            ('lazysrc',),
            _LEGACY.format(67),
            _LEGACY.format(12),
            pure=True,
        ),
        line('first_use_frames_mode_all', ('all',), _LEGACY.format(67), _LEGACY.format(12), pure=True),
        # starlette's status module warns from its __getattr__ with stacklevel=3
        line(
            'first_use_module_getattr',
            ('all', 'lazysrc'),
            _HTTP_422.format('anyio/_backends/_asyncio.py:986'),
            _HTTP_422.format('lazy_codec/runtime/resolution.py:NN'),
            pure=True,
        ),
    ],
    'attrs_cattrs': [
        # attrs.resolve_types: typing.get_type_hints, whose 3.14 evaluation leaves the binding
        lazy(_HINTS, ('all', 'lazysrc'), 'app', 'Dict List Optional datetime', versions=BEFORE_314),
        lazy(_FUTURE, ('all',), 'app', 'annotations'),
    ],
    'sqlalchemy_orm': [
        lazy(_FUTURE, ('all',), 'app', 'annotations'),
    ],
    'django_site': [],
}


def check(cases=None):
    """every entry names a case of its list: KNOWN_DIFFERENCES, or PURE_DIFFERENCES if pure"""
    cases = cases or case_names()
    bad = []
    if PROBE_ATTACHED not in cases['KNOWN_DIFFERENCES']:
        bad.append(f'probes: {PROBE_ATTACHED!r} is not in test_differential.KNOWN_DIFFERENCES')
    for scenario, entries in DOCUMENTED.items():
        for e in entries:
            where = 'PURE_DIFFERENCES' if e['pure'] else 'KNOWN_DIFFERENCES'
            if e['case'] not in cases[where]:
                bad.append(f'{scenario}: {e["case"]!r} is not in test_differential.{where}')
    if bad:
        raise SystemExit('documented differences:\n  ' + '\n  '.join(bad))


def entries_for(scenario, version, variant, pure):
    return [
        e
        for e in DOCUMENTED.get(scenario, ())
        if variant in e['variants']
        and (not e['pure'] or pure)
        and (e['versions'] is None or version in e['versions'])
    ]


def _lazy_names(lines):
    """{module: set of names} from `lazy MODULE: a b c` lines ('-': none)"""
    out = {}
    for x in lines:
        head, _, rest = x.partition(': ')
        out[head[len('lazy ') :]] = set(rest.split()) - {'-'}
    return out


def _describe(e):
    if e['kind'] == 'lazy':
        return f'lazy {e["module"]}: {" ".join(e["names"])} lazy on 3.15, resolved here'
    here, there = e['here'], e['oracle']
    start = len(os.path.commonprefix([here, there]))
    end = len(os.path.commonprefix([here[start:][::-1], there[start:][::-1]]))
    return f'{here[:start]}[{here[start : len(here) - end]}] (3.15: [{there[start : len(there) - end]}])...'


def apply(scenario, version, variant, pure, here, oracle):
    """here, oracle: (value lines, lazy lines) of one variant. Returns (values, lazy lines,
    documented, not seen): this version's output with what the entries describe put as
    3.15 has it, so that only the rest is compared; documented: 'case: what' for each
    entry seen, not seen: the same for each entry that was not"""
    (here_values, here_lazy), (oracle_values, oracle_lazy) = here, oracle
    documented, unseen = [], []
    values = list(here_values)
    lazy_here, lazy_there = _lazy_names(here_lazy), _lazy_names(oracle_lazy)
    for e in entries_for(scenario, version, variant, pure):
        seen = False
        if e['kind'] == 'lazy':
            names = set(e['names'])
            mine, theirs = lazy_here.get(e['module']), lazy_there.get(e['module'])
            # all the entry's names lazy on 3.15 and none here: seen
            if mine is not None and theirs is not None and names <= theirs and not names & mine:
                lazy_here[e['module']] = mine | names
                seen = True
        else:
            pattern = re.escape(e['here']).replace(':NN:', r':\d+:')
            for i, x in enumerate(values):
                if re.fullmatch(pattern, x) and e['oracle'] in oracle_values:
                    values[i] = e['oracle']
                    seen = True
        (documented if seen else unseen).append(f'{e["case"]}: {_describe(e)}')
    # as _common.lazy_state prints them, in this version's order
    lines = [f'lazy {m}: {" ".join(sorted(lazy_here[m])) or "-"}' for m in _lazy_names(here_lazy)]
    return values, lines, documented, unseen
