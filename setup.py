"""What pyproject.toml (which has the metadata) cannot say: the C
accelerator, an optional extension, and the start-up files.

The accelerator is built on CPython 3.9-3.14 with the GIL; where it cannot
be (no compiler, no headers), setuptools warns (`building extension
"lazy_codec.runtime._accel" failed`) and the install goes on with the
pure-Python runtime, which is complete.

pth/lazy_codec.pth is installed beside the package in site-packages, for
wheels, `pip install .` and `pip install -e .` alike: its import line
registers the codec when the interpreter starts.

PEP 829's pth/lazy_codec.start (an entry point that site runs at start in
place of the .pth's import line, 3.15+) is installed too when the building
interpreter is 3.18+, whose site ignores import lines in .pth files, or when
LAZY_CODEC_START_FILE=1: on 3.15.2 any .start file makes site import pkgutil
(and re, enum, ...) at every start, which took `python -c pass` from 38.5 to
62.0 million instructions, against a deprecation notice that only -v shows.
"""

import glob
import os
import platform
import sys
import sysconfig
import zipfile

from setuptools import Extension, setup
from setuptools.command.build_py import build_py
from setuptools.command.editable_wheel import editable_wheel  # (setuptools >= 64: PEP 660)

START_FILE_FROM = (3, 18)  # the first version whose site ignores .pth import lines
# what site-packages gets beside the package: the .pth, the module its line
# imports (top-level, so that loading it imports nothing of lazy_codec)
STARTUP_FILES = ('lazy_codec.pth', '_lazy_codec_pth.py') + (
    ('lazy_codec.start',)
    if sys.version_info >= START_FILE_FROM or os.environ.get('LAZY_CODEC_START_FILE') == '1'
    else ()
)


class build_py_with_pth(build_py):
    def run(self):
        super().run()
        for name in STARTUP_FILES:
            self.copy_file(os.path.join('pth', name), os.path.join(self.build_lib, name), preserve_mode=False)
        stale = os.path.join(self.build_lib, 'lazy_codec.start')
        if 'lazy_codec.start' not in STARTUP_FILES and os.path.exists(stale):
            os.remove(stale)  # an earlier build's, in the same build directory

    def get_outputs(self, include_bytecode=True):
        return super().get_outputs(include_bytecode) + [
            os.path.join(self.build_lib, name) for name in STARTUP_FILES
        ]


class editable_wheel_with_pth(editable_wheel):
    # The editable wheel holds only a path hook, not build_py's outputs:
    # add the .pth to it (pip installs, records and uninstalls it).
    def run(self):
        super().run()
        wheels = [
            os.path.join(self.dist_dir, name)
            for name in os.listdir(self.dist_dir)
            if name.endswith('.whl') and '-0.editable-' in name
        ]
        with zipfile.ZipFile(max(wheels, key=os.path.getmtime), 'a') as wheel:
            for name in STARTUP_FILES:
                wheel.write(os.path.join('pth', name), name)


# The accelerator: CPython 3.9-3.14 with the GIL (3.15+ has the feature
# built in; free-threaded builds use the pure runtime until it is proven
# there); LAZY_CODEC_PURE_BUILD=1 leaves it out
ACCELERATED = (
    platform.python_implementation() == 'CPython'
    and sys.version_info < (3, 15)
    and not sysconfig.get_config_var('Py_GIL_DISABLED')
    and os.environ.get('LAZY_CODEC_PURE_BUILD') != '1'
)
# its sources: the files of one folder (not `_accel/`, which without the
# built extension would import as a namespace package), accel.h their header
ACCEL_SOURCES = sorted(glob.glob('lazy_codec/runtime/_accel_c/*.c'))
ACCEL_HEADERS = sorted(glob.glob('lazy_codec/runtime/_accel_c/*.h'))
ext_modules = (
    [
        Extension('lazy_codec.runtime._accel', ACCEL_SOURCES, depends=ACCEL_HEADERS, optional=True),
    ]
    if ACCELERATED
    else []
)


setup(
    cmdclass={'build_py': build_py_with_pth, 'editable_wheel': editable_wheel_with_pth},
    ext_modules=ext_modules,
)
