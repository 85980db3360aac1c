"""The real-world corpus's comparison of package probes (realworld/run.py's
compare_package), on probe records made by hand: what is counted as a
difference, what is only a note."""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), 'realworld'))
import run as realworld  # noqa: E402  (tests/realworld/run.py)


def probe(names: dict, failed: dict | None = None) -> dict:
    """a probe.py record: each module's dir() names, and the (module, name)
    reads that failed"""
    modules = {module: {'failed': {}, 'all_names': sorted(dir_names)} for module, dir_names in names.items()}
    for (module, name), message in (failed or {}).items():
        modules[module]['failed'][name] = {'type': 'RuntimeError', 'message': message}
    return {'modules': modules}


EAGER = {'pkg': {'ARRAY'}, 'pkg.sql': {'annotation', 'base'}}
# mode "all" here: pkg.sql never imported its submodule `annotation`
HERE_ALL = {'pkg': {'ARRAY'}, 'pkg.sql': {'base'}}
FAILED = {('pkg', 'ARRAY'): 'Set changed size during iteration'}


def test_dir_difference_is_counted():
    counted, notes, _ = realworld.compare_package(
        probe(EAGER), probe(HERE_ALL), probe(EAGER), probe(EAGER), '3.9'
    )
    assert counted == ["pkg.sql: dir() lacks 'annotation' in mode all (3.15 all has it, 3.9 eager has it)"]


def test_dir_difference_after_the_oracle_failed_alone_is_a_note():
    """3.15's mode all failed part-way and this version's did not: what 3.15's
    process imported after that is no oracle for dir()"""
    counted, notes, _ = realworld.compare_package(
        probe(EAGER), probe(HERE_ALL), probe(EAGER), probe(EAGER, FAILED), '3.9'
    )
    assert counted == []
    assert any('3.15 mode all fails (not eagerly)' in note for note in notes)
    assert any(
        "dir() lacks 'annotation'" in note and 'not counted: 3.15 mode all failed first (pkg:ARRAY)' in note
        for note in notes
    )


@pytest.mark.parametrize('where', ['also eagerly', 'here too'])
def test_dir_difference_is_counted_when_the_failure_is_not_the_oracles_alone(where):
    """a failure 3.15 also has eagerly, or that this version's mode all shares,
    leaves the oracle's run as good as ours: still counted"""
    o_eager = probe(EAGER, FAILED if where == 'also eagerly' else None)
    here_all = probe(HERE_ALL, FAILED if where == 'here too' else None)
    counted, _, _ = realworld.compare_package(probe(EAGER), here_all, o_eager, probe(EAGER, FAILED), '3.9')
    assert "pkg.sql: dir() lacks 'annotation' in mode all (3.15 all has it, 3.9 eager has it)" in counted
