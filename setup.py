"""Installs pth/lazy_codec.pth beside the package in site-packages, for
wheels, `pip install .` and `pip install -e .` alike: it is the line that
registers the codec when the interpreter starts."""
import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = 'lazy_codec.pth'


class build_py_with_pth(build_py):
    def run(self):
        super().run()
        target = os.path.join(self.build_lib, PTH)
        self.copy_file(os.path.join('pth', PTH), target, preserve_mode=False)

    def get_outputs(self, include_bytecode=True):
        return super().get_outputs(include_bytecode) + [os.path.join(self.build_lib, PTH)]


setup(cmdclass={'build_py': build_py_with_pth})
