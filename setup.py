"""Installs pth/lazy_codec.pth beside the package in site-packages, for
wheels, `pip install .` and `pip install -e .` alike: it is the line that
registers the codec when the interpreter starts."""
import os
import zipfile

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


cmdclass = {'build_py': build_py_with_pth}

try:  # setuptools >= 64: PEP 660 editable installs
    from setuptools.command.editable_wheel import editable_wheel
except ImportError:
    pass
else:
    class editable_wheel_with_pth(editable_wheel):
        # The editable wheel holds only a path hook, not build_py's outputs:
        # add the .pth to it (pip installs, records and uninstalls it).
        def run(self):
            super().run()
            wheels = [os.path.join(self.dist_dir, name) for name in os.listdir(self.dist_dir)
                      if name.endswith('.whl') and '-0.editable-' in name]
            with zipfile.ZipFile(max(wheels, key=os.path.getmtime), 'a') as wheel:
                wheel.write(os.path.join('pth', PTH), PTH)

    cmdclass['editable_wheel'] = editable_wheel_with_pth


setup(cmdclass=cmdclass)
