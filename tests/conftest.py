import glob
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope='session')
def wheels(tmp_path_factory):
    """a directory holding lazy_codec's wheel, its dependencies' and the
    example package's (examples/lazy_example_pkg), built once per session:
    installers take them from there, offline (`--no-index --find-links`)"""
    from test_install import REPO, check, isolation_args
    out = tmp_path_factory.mktemp('wheels')
    # with its dependencies' wheels, for installs that resolve them offline
    check([sys.executable, '-m', 'pip', 'wheel', '-q',
           *isolation_args(sys.executable), '-w', out, REPO])
    # the example's build gets setuptools in pip's isolated environment
    check([sys.executable, '-m', 'pip', 'wheel', '-q', '--no-deps', '-w', out,
           os.path.join(REPO, 'examples', 'lazy_example_pkg')])
    assert len(glob.glob(os.path.join(out, 'lazy_*.whl'))) == 2, os.listdir(out)
    return out
