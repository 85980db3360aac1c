"""What laziness did, shown at exit: `LAZY_CODEC_REPORT=1` or
`python -m lazy_codec report [--json] (SCRIPT | -m MODULE) [ARGS...]`.

The runtime tells the recorder about every lazy binding it makes and every
one it resolves (where it was first used, how long its import took, which
modules that import loaded); at exit the recorder prints a table to stderr,
or JSON with --json (to stdout, or to the file LAZY_CODEC_REPORT names when
it is not '1').
"""

from __future__ import annotations

import os
import sys
import time

from lazy_codec.runtime import state

# json and shutil are imported at exit only: the report must not load
# modules that the program it watches would load lazily


class Recorder:
    def __init__(self) -> None:
        self.entries: dict[int, dict] = {}  # id(lazy object) -> its record
        # the lazy objects, kept alive: a resolved one may be freed, and its id
        # given to a later one, whose record would then replace its own
        self.lazy_objects: list = []
        self.depth = 0  # nesting of resolutions now in progress
        self.started = 0  # resolutions started so far
        self.cwd = os.getcwd()  # what relative file names in `file` are relative to

    def created(self, lazy, bound: str, importer: str) -> None:
        self.lazy_objects.append(lazy)
        self.entries[id(lazy)] = {
            'name': lazy._name,
            'bound_as': bound,
            'importer': importer,
            'declared': f'{_short(lazy._filename)}:{lazy._lineno}',
            'file': lazy._filename,
            'line': lazy._lineno,  # as the code object has them
            'used': False,
            'first_use': None,
            'import_ms': None,
            'modules_loaded': 0,
            'depth': 0,
            'order': None,
            'failed': 0,
        }

    def start(self, lazy):
        # numbered as they start, so that one resolved inside another's
        # import follows it, indented: a tree like -X importtime's
        self.started += 1
        entry = self.entries.get(id(lazy))
        if entry is not None and not entry['used']:
            entry['order'], entry['depth'] = self.started, self.depth
        self.depth += 1
        return time.perf_counter(), len(sys.modules)

    def finish(self, lazy, started, ok: bool, frame) -> None:
        self.depth -= 1
        entry = self.entries.get(id(lazy))
        if entry is None or entry['used']:
            return
        t0, modules = started
        if not ok:
            entry['failed'] += 1
            return
        entry.update(
            used=True,
            import_ms=(time.perf_counter() - t0) * 1000,
            modules_loaded=max(len(sys.modules) - modules, 0),
            first_use=_where(frame),
        )

    def as_json(self) -> dict:
        entries = list(self.entries.values())
        used = [e for e in entries if e['used']]
        return {
            'lazy_imports': len(entries),
            'used': len(used),
            'never_used': len(entries) - len(used),
            'deferred_ms': sum(e['import_ms'] for e in used),
            'cwd': self.cwd,
            'entries': entries,
        }

    def table(self, width: int) -> str:
        data = self.as_json()
        lines = [
            f'lazy_codec report: {data["lazy_imports"]} lazy imports, {data["used"]} used, '
            f'{data["never_used"]} never used',
        ]
        used = sorted((e for e in data['entries'] if e['used']), key=lambda e: e['order'])
        if used:
            lines.append(f'  {"import ms":>9}  {"modules":>7}  lazy import (first use; declared)')
            for e in used:
                text = (
                    f'{e["import_ms"]:9.2f}  {e["modules_loaded"]:7d}  {"  " * e["depth"]}'
                    f'{e["name"]} ({e["first_use"]}; {e["declared"]})'
                )
                lines.append('  ' + _fit(text, width - 2))
        never = [e for e in data['entries'] if not e['used']]
        if never:
            lines.append('  never used, never imported:')
            for e in never:
                failed = f', failed {e["failed"]}x' if e['failed'] else ''
                lines.append('    ' + _fit(f'{e["name"]} ({e["declared"]}{failed})', width - 4))
        lines.append(
            f'  {data["deferred_ms"]:.2f} ms of imports ran at first use instead of at start-up; '
            f'{data["never_used"]} never ran',
        )
        return '\n'.join(lines) + '\n'


def _short(path: str) -> str:
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith('..' + os.sep + '..') else relative


def _where(frame) -> str | None:
    if frame is None:
        return None
    return f'{_short(frame.f_code.co_filename)}:{frame.f_lineno} in {frame.f_code.co_name}'


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 10)] + '…'


def enable(destination: str = '1') -> Recorder:
    """record from now on; print the report at exit"""
    import atexit

    recorder = Recorder()
    state.controls.recorder = recorder

    def at_exit() -> None:
        import json
        import shutil

        if destination == 'json':
            json.dump(recorder.as_json(), sys.stdout, indent=1)
            sys.stdout.write('\n')
        elif destination not in ('1', 'table'):
            with open(destination, 'w') as f:
                json.dump(recorder.as_json(), f, indent=1)
        else:
            sys.stderr.write(recorder.table(shutil.get_terminal_size((100, 24)).columns))

    atexit.register(at_exit)
    return recorder
