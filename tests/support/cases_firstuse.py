"""Differential cases for what an imported module sees of a first use that
imports it (issue 30, family 6; case_table.py has the format): 3.15 imports
from the frame that used the name, so `warnings.warn(..., stacklevel=2)` at
import names the line of the use, `sys._getframe(1)` past importlib's frames
is the using frame, and a profiler sees no call between the use and
importlib.  Each is used from a function and at module level, by `lazy
import` and `lazy from`, and in mode "all"."""

from case_table import CaseTable

CASES = CaseTable()
case = CASES.add

# modules that tell where their import came from: `warned` warns at import
# with stacklevel=2, `framed` prints the first frame past importlib's
_WARNED = "import warnings\nwarnings.warn(f'{__name__} imported', UserWarning, stacklevel=2)\nX = 1\n"
_FRAMED = (
    'import os, sys\n'
    'f = sys._getframe(1)\n'
    "while 'importlib' in f.f_code.co_filename and '_bootstrap' in f.f_code.co_filename:\n"
    '    f = f.f_back\n'
    "print(f'{__name__} imported from', os.path.basename(f.f_code.co_filename), f.f_code.co_name, f.f_lineno)\n"
    'X = 2\n'
)
_PROFILED = 'def helper():\n    return 3\nX = helper()\n'

FILES = {
    **{f'warned_{k}.py': _WARNED for k in ('f', 'm', 'from_f', 'from_m')},
    **{f'framed_{k}.py': _FRAMED for k in ('f', 'm', 'from_f', 'from_m')},
    **{f'profiled_{k}.py': _PROFILED for k in ('f', 'm')},
    'pkgw/__init__.py': '',
    'pkgw/leaf.py': _WARNED,
}

# what main.py runs after its imports (the same lines in each mode)
_BODY = """\
HERE = os.path.dirname(os.path.abspath(__file__))

def show(message, category, filename, lineno, file=None, line=None):
    print('  warning:', message, 'at', os.path.basename(filename), lineno)


warnings.showwarning = show
warnings.simplefilter('always')


def in_function():
    print('function:', warned_f.X, WFX)
    print('function:', framed_f.X, FFX)


in_function()
print('module:', warned_m.X)
print('module:', WMX)
print('module:', framed_m.X, FMX)


def watched(file):
    # the program's own files and the lazy runtime's: not the import
    # system's (importlib, a site's meta path finders, the backport's loader
    # hooks and mode "all"'s rewrite, which run for an eager import too)
    runtime = os.sep.join(('lazy_codec', 'runtime', ''))
    if file.startswith('<'):  # (frozen modules)
        return False
    return os.path.dirname(os.path.abspath(file)) == HERE or (runtime in file and not file.endswith('mode_all.py'))


def profiled(use):
    calls = []

    def profile(frame, event, arg):
        file = frame.f_code.co_filename
        if event == 'call' and watched(file):
            calls.append(frame.f_code.co_name + '@' + os.path.basename(file))

    sys.setprofile(profile)
    value = use()
    sys.setprofile(None)
    print('profiled:', value, calls)


profiled(lambda: profiled_f.X)
sys.setprofile(lambda frame, event, arg: None)
sys.setprofile(None)
print('unused:', type(globals()['heavy']).__name__)
"""

case(
    'first_use_frames_lazy_statements',
    """\
import os, sys, warnings
lazy import warned_f, warned_m, framed_f, framed_m, profiled_f, heavy
lazy from warned_from_f import X as WFX
lazy from warned_from_m import X as WMX
lazy from framed_from_f import X as FFX
lazy from framed_from_m import X as FMX
"""
    + _BODY,
    files=FILES,
)

case(
    'first_use_frames_mode_all',
    """\
import os, sys, warnings
import warned_f, warned_m, framed_f, framed_m, profiled_f, heavy
from warned_from_f import X as WFX
from warned_from_m import X as WMX
from framed_from_f import X as FFX
from framed_from_m import X as FMX
"""
    + _BODY,
    files=FILES,
    argv=['-X', 'lazy_imports=all', 'main.py'],
)

# the same first uses when the import fails: the error where the name was
# used, caused by an ImportError at the `lazy` line; tried again at the next
# use; inside an `except` block, a note instead
case(
    'first_use_import_fails',
    """\
import probe
lazy import broken, heavy
lazy from broken import x as bx
lazy import nosuch
def use_broken():
    return broken.x
for attempt in (1, 2):
    try:
        use_broken()
    except ZeroDivisionError as exc:
        print('attempt', attempt)
        probe.describe(exc)
try:
    bx
except ZeroDivisionError as exc:
    probe.describe(exc)
try:
    raise KeyError('handled')
except KeyError:
    try:
        nosuch
    except ImportError as exc:
        probe.describe(exc)
print(type(globals()['heavy']).__name__, probe.loaded())
""",
)

# a package's submodule reached as an attribute, bound by `lazy import
# pkgw.leaf`: on 3.15 too its import names the line of the use
case(
    'first_use_frames_submodule_attribute',
    """\
import os, warnings
lazy import pkgw.leaf
def show(message, category, filename, lineno, file=None, line=None):
    print('  warning:', message, 'at', os.path.basename(filename), lineno)
warnings.showwarning = show
warnings.simplefilter('always')
print('module:', pkgw.leaf.X)
""",
    files=FILES,
)

# a module's lazy name reached as its attribute (`mod.name`, `from mod import
# name`, a package's submodule by IMPORT_FROM): on 3.15 the import names the
# line of the use, as for a global
_REEXPORT = (
    '{COOKIE}\n'
    'lazy import warned_f, framed_f\n'
    'lazy from warned_from_f import X as WFX\n'
    'lazy from framed_from_f import X as FFX\n'
    'lazy import pkgw.leaf\n'
)
# the uses both modes make (the lazy statements in reexport.py, or its
# plain imports in mode "all")
_ATTRIBUTE_USES = """\
import os, warnings
import reexport
def show(message, category, filename, lineno, file=None, line=None):
    print('  warning:', message, 'at', os.path.basename(filename), lineno)
warnings.showwarning = show
warnings.simplefilter('always')
def in_function():
    print('function:', reexport.warned_f.X, reexport.WFX)
in_function()
print('module:', reexport.framed_f.X)
from reexport import FFX
print('from:', FFX)
"""
case(
    'first_use_frames_module_attribute',
    _ATTRIBUTE_USES
    + """\
from pkgw import leaf
print('submodule:', leaf.X)
import reexport2
lazy from reexport2 import FMX, WMX
def nested():
    return WMX
print('nested:', FMX, nested())
print('lazy:', sorted(k for k, v in vars(reexport).items() if type(v).__name__ == 'lazy_import'))
print('lazy:', sorted(k for k, v in vars(reexport2).items() if type(v).__name__ == 'lazy_import'))
""",
    files={
        **FILES,
        'reexport.py': _REEXPORT,
        'reexport2.py': '{COOKIE}\nlazy from framed_from_m import X as FMX\nlazy from warned_from_m import X as WMX\n',
    },
)
case(
    'first_use_frames_module_attribute_mode_all',
    _ATTRIBUTE_USES,
    files={
        **FILES,
        'reexport.py': 'import warned_f, framed_f\nfrom warned_from_f import X as WFX\n'
        'from framed_from_f import X as FFX\n',
    },
    argv=['-X', 'lazy_imports=all', 'main.py'],
)


# a name a module's __getattr__ gives (starlette's deprecated status codes,
# through FastAPI): a warning with a stacklevel names the using frames, as
# on 3.15, and its errors are 3.15's: an AttributeError is "cannot import
# name", another error is its own, chained to the `lazy` line
_HOOKED = (
    'import warnings\n'
    'def __getattr__(name):\n'
    "    if name == 'OLD':\n"
    "        warnings.warn('old name', DeprecationWarning, stacklevel=3)\n"
    '        return 1\n'
    "    if name == 'BAD':\n"
    "        raise KeyError('bad name')\n"
    '    raise AttributeError(name)\n'
)
_HOOK_BODY = """\
def show(message, category, filename, lineno, file=None, line=None):
    print('  warning:', message, 'at', os.path.basename(filename), lineno)
warnings.showwarning = show
warnings.simplefilter('always')
def use():
    return OLD
def caller():
    return use()
print(caller())
def bad():
    return BAD
for attempt in (1, 2):
    try:
        bad()
    except KeyError as exc:
        probe.describe(exc)
try:
    MISSING
except ImportError as exc:
    probe.describe(exc)
"""
case(
    'first_use_module_getattr',
    'import os, warnings, probe\n'
    'lazy from hooked import OLD\nlazy from hooked import BAD\nlazy from hooked import MISSING\n'
    + _HOOK_BODY,
    files={'hooked.py': _HOOKED},
)
case(
    'first_use_module_getattr_mode_all',
    'import os, warnings, probe\n'
    'from hooked import OLD\nfrom hooked import BAD\nfrom hooked import MISSING\n' + _HOOK_BODY,
    files={'hooked.py': _HOOKED},
    env={'PYTHON_LAZY_IMPORTS': 'all'},
)
