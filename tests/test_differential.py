"""Each differential case (harness.all_cases()), run with lazy_codec, prints what native 3.15 printed."""

import re
import sys

import pytest
from conftest import ACCELERATED, NATIVE
from harness import LAZY_COOKIE, NATIVE_COOKIE, all_cases, expected_path, run_case

CASES = all_cases()

# Behaviour the backport cannot have without changing the interpreter; listed
# in the README. Strict: a case that starts to pass must leave this list.
KNOWN_DIFFERENCES = {
    'sweep_completion_and_suggestions': (
        "3.9-3.14's rlcompleter and traceback suggestions read attributes with getattr, which "
        "resolves lazy names (3.15's own stdlib leaves them unresolved on purpose): an import "
        "made early, and a completion that shows a resolved callable's '('"
    ),
    'mode_all_main_script_by_default': (
        'in mode "all", the plain imports of a main script without the cookie are eager unless '
        'LAZY_CODEC_MAIN_SCRIPT=1 (reaching it costs every later audited event: see the README)'
    ),
    'mode_all_future_statement_binding': (
        'in mode "all" a future statement stays as written, for the compiler, which makes it '
        'import __future__ and bind the feature (3.15: a lazy binding; __future__ not imported)'
    ),
    'lazy_keys_are_str_subclass': (
        "a lazy name's key is a str subclass until the name's first use (the key is how a load "
        'is caught): type(k) is str is false, sys.intern raises TypeError and marshal ValueError '
        '(3.15: plain str keys)'
    ),
    'c_dict_readers_resolve_early': (
        'a C function that reads a module dict (itemgetter, format_map, %, string.Template, '
        'object.__getattribute__) is called from a frame whose instruction cannot tell it from '
        'getattr: a load, so it imports early and hands out the value (3.15: the lazy object)'
    ),
    'type_hints_leave_binding_lazy': (
        "typing's evaluation of a string annotation loads the name from the module dict, and a "
        "load here replaces the binding with the value (3.15's ForwardRef.evaluate resolves the "
        'object it reads and leaves the binding lazy): the same import, a different binding'
    ),
    'namespaces_plain_key_unseen_store': (
        'a lazy object taken out by a peek and stored under a plain key where no store of a name '
        'is seen (a dict display or dict(...) given to eval/exec/FunctionType, '
        "`vars(builtins)['x'] = ...`): no lookup reaches it, so a load hands it out (3.15 resolves it)"
    ),
    'builtins_import_hook_during_lazy': (
        'a replaced builtins.__import__ sees a dotted name reified one package at a '
        'time (3.15: one call with the whole name)'
    ),
    'lazy_submodule_attached_to_package': (
        'a lazy statement naming a submodule of an imported package binds a lazy object under '
        "the submodule's name in the package's dict, which is how `pkg.sub` imports it, so dir() "
        "and vars() list it until its first use (3.15's module attribute lookup needs no binding)"
    ),
}


# Behaviour only the C accelerator has (listed in the README): the pure
# runtime resolves a first use in Python frames of its own, which warnings,
# profilers and sys._getframe see. Strict, as above, under the pure runtime.
PURE_DIFFERENCES = {
    name: (
        "the pure runtime's first use that imports runs its own Python frames (one at the lazy "
        'line): a stacklevel=2 warning and sys._getframe(1) name that line, a profiler sees '
        'its calls (3.15 and the accelerator: the using frame)'
    )
    for name in (
        'first_use_frames_lazy_statements',
        'first_use_frames_mode_all',
        'first_use_module_getattr',
        'first_use_module_getattr_mode_all',
        'first_use_frames_submodule_attribute',
        'first_use_frames_module_attribute',
        'first_use_frames_module_attribute_mode_all',
    )
} | {
    name: (
        "the pure runtime cannot change a dict's entry where it stands: a first use deletes the "
        'lazy key and inserts a plain one, so the name moves to the end of the dict and an '
        'iteration of that dict in another frame sees it again (3.15 and the accelerator: in place)'
    )
    for name in (
        'first_use_keeps_dict_order',
        'first_use_under_iteration_in_caller',
        'first_use_under_iteration_in_caller_compact',
        'first_use_under_iteration_in_caller_mode_all',
    )
}


def _params():
    for name in sorted(CASES):
        reason = KNOWN_DIFFERENCES.get(name) or (None if ACCELERATED else PURE_DIFFERENCES.get(name))
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason and not NATIVE else []
        yield pytest.param(name, marks=marks, id=name)


def _for_this_version(expected: str) -> str:
    if sys.version_info < (3, 10):  # SyntaxError has no end position before 3.10
        expected = re.sub(
            r'^(  syntax: .*? \S+\.py -?\d+ -?\d+) -?\d+ -?\d+ ',
            r'\1 n/a n/a ',
            expected,
            flags=re.M,
        )
    return expected


@pytest.mark.parametrize('name', list(_params()))
def test_case(name):
    case = CASES[name]
    if sys.version_info < case['min_version']:
        pytest.skip(case['before_min'])
    actual = run_case(case, sys.executable, LAZY_COOKIE)
    if case['oracle'] == 'eager':
        # the interpreter's own error: this interpreter, the eager program
        expected = run_case(case, sys.executable, NATIVE_COOKIE, eager=not NATIVE)
    else:
        with open(expected_path(name), encoding='utf-8') as f:
            expected = _for_this_version(f.read())
    assert actual == expected
