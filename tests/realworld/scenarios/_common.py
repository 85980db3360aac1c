"""Helpers shared by the scenarios (copied next to each scenario's main.py).

What a scenario prints must not depend on the interpreter's version: reprs are
normalized here (addresses, the venv's and the scenario's paths).
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def norm(value):
    text = value if isinstance(value, str) else repr(value)
    text = re.sub(r'0x[0-9a-fA-F]+', '0x?', text)
    text = re.sub(r'python3\.\d+', 'python3.X', text)
    return text


def show(label, value):
    print(f'{label}: {norm(value)}')


def where(filename, lineno):
    """file:line of a warning or frame: relative to site-packages or the scenario"""
    filename = filename or '?'
    marker = os.sep + 'site-packages' + os.sep
    if marker in filename:
        filename = filename.split(marker, 1)[1]
    elif os.path.dirname(os.path.abspath(filename)) == HERE:
        filename = os.path.basename(filename)
    elif filename.startswith(sys.base_prefix) or filename.startswith(sys.prefix):
        filename = '<stdlib>/' + os.path.basename(filename)
    return f'{filename}:{lineno}'


def type_name(t):
    """a type hint's name, the same on every version (3.14 draws Optional as `X | None`)"""
    import typing

    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is None:
        return getattr(t, '__qualname__', None) or norm(t)
    if origin is typing.Union or type(t).__name__ == 'UnionType':
        name = 'Union'
    else:
        name = getattr(origin, '__qualname__', None) or norm(origin)
    return f'{name}[{", ".join(type_name(a) for a in args)}]'


def show_warnings(label, caught):
    for w in caught:
        at = where(w.filename, w.lineno)
        print(
            f'{label}: warning {w.category.__name__} at {at}: {" ".join(norm(str(w.message)).split())[:100]}'
        )


def lazy_state(module):
    """the scenario's last lines: the names of the module still bound to lazy objects"""
    names = sorted(k for k, v in vars(module).items() if type(v).__name__ == 'lazy_import')
    print(f'lazy {module.__name__}: {" ".join(names) or "-"}')
