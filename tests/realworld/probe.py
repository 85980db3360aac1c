"""Import a package and every one of its submodules, read every public name.

    python probe.py OUT.json IMPORT_NAME [IMPORT_NAME...]

Run inside a corpus venv (by run.py), eagerly or with PYTHON_LAZY_IMPORTS=all.
For each top-level import name: import it, then walk its submodules in sorted
order (pkgutil.iter_modules on each package's __path__, skipping __main__ and
test modules), import each, and getattr every public name (`__all__` if the
module has one, else the `dir()` names not starting with `_`).  Writes, for
each module, whether it imported (else the exception) and which names failed
(exception type and message).  Nothing here may need Python > 3.9.

A `dir()` name bound in the module's dict to a lazy object that lazy_codec
attached there (a submodule `MODULE.NAME` that a lazy statement named, which
3.15 does not bind: tests/test_differential.py's
lazy_submodule_attached_to_package) is recorded (`attached`) and, unless
`__all__` names it, not read while it is still attached (`unread`): 3.15's
dir() does not list it, so 3.15 never reads it, and reading it here would
import the submodule (one that the reads of the other names imported is read
after them).
"""

import importlib
import json
import os
import pkgutil
import sys
import warnings

SKIP_PARTS = {'__main__', 'tests', 'test', 'testing', 'conftest', '_tests'}


def describe(exc):
    return {'type': type(exc).__name__, 'message': str(exc)[:500]}


def attached_names(mod):
    """the public dir() names bound in mod's dict to a lazy object of lazy_codec's that
    stands for the submodule of that name, attached to the package (its `_attached`
    slot; a peek at the dict, which resolves nothing)"""
    namespace = getattr(mod, '__dict__', None)
    if type(namespace) is not dict:
        return []
    out = []
    for name in dir(mod):
        if name.startswith('_'):
            continue
        value = namespace.get(name)
        if (
            type(value).__name__ == 'lazy_import'
            and getattr(value, '_attached', False) is True
            and repr(value) == f"<lazy_import '{mod.__name__}.{name}'>"
        ):
            out.append(name)
    return sorted(out)


def probe_module(mod):
    names = getattr(mod, '__all__', None)
    source = '__all__'
    try:
        names = sorted({str(n) for n in names}) if names is not None else None
    except Exception:  # an __all__ that is not iterable
        names = None
    if names is None:
        source = 'dir'
        names = sorted(n for n in dir(mod) if not n.startswith('_'))
    skip = set(attached_names(mod)) & set(names) if source == 'dir' else set()
    failed = {}

    def read(names):
        for name in names:
            try:
                getattr(mod, name)
            except BaseException as exc:  # noqa: B902 - SystemExit, KeyboardInterrupt too
                failed[name] = describe(exc)

    read(n for n in names if n not in skip)
    # a skipped name that the reads of the others imported (no longer attached) is read now
    unread = sorted(skip & set(attached_names(mod)))
    read(sorted(skip - set(unread)))
    names = [n for n in names if n not in unread]
    public = sorted(n for n in dir(mod) if not n.startswith('_'))
    # (after the reads, as `all_names`)
    attached = attached_names(mod)
    return {
        'names': len(names),
        'source': source,
        'failed': failed,
        'all_names': public,
        'attached': attached,
        'unread': unread,
    }


def skipped(name):
    return any(part in SKIP_PARTS or part.startswith('test_') for part in name.split('.'))


def walk(top, results, limit=3000):
    queue = [top]
    while queue and len(results) < limit:
        name = queue.pop(0)
        try:
            mod = importlib.import_module(name)
        except BaseException as exc:  # noqa: B902
            results[name] = {'import': describe(exc)}
            continue
        try:
            results[name] = probe_module(mod)
        except BaseException as exc:  # noqa: B902
            results[name] = {'probe': describe(exc)}
        path = getattr(mod, '__path__', None)
        if path is None:
            continue
        try:
            subs = sorted({info.name for info in pkgutil.iter_modules(list(path))})
        except BaseException as exc:  # noqa: B902
            results[name + '.<iter_modules>'] = {'import': describe(exc)}
            continue
        queue[0:0] = [f'{name}.{sub}' for sub in subs if not skipped(f'{name}.{sub}')]


def main():
    out, tops = sys.argv[1], sys.argv[2:]
    warnings.simplefilter('ignore')
    # a module that reads stdin at import time must not block the probe
    sys.stdin = open(os.devnull)
    results = {}
    before = set(sys.modules)
    for top in tops:
        walk(top, results)
    data = {
        'python': sys.version.split()[0],
        'lazy_imports': getattr(sys, 'get_lazy_imports', lambda: None)(),
        'modules': results,
        'sys_modules_added': len(set(sys.modules) - before),
    }
    with open(out, 'w') as f:
        json.dump(data, f, indent=1, sort_keys=True)
    sys.stdout.flush()
    # skip atexit handlers and thread joins of what was imported
    os._exit(0)


if __name__ == '__main__':
    main()
