"""The package's layers, from the AST of its modules: which part may import
which (every import, at module level or in a function, is read).

    rewrite   imports nothing else of lazy_codec
    runtime   the rewrite, and itself
    tools     the rewrite and the runtime
    the top   (lazy_codec/*.py: the entry ABI, the codec glue, _startup,
              _abi1, coverage_plugin, __main__) anything
"""

import ast
import os

import pytest

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'lazy_codec')
PARTS = ('rewrite', 'runtime', 'tools')
MAY_IMPORT = {
    'rewrite': {'rewrite'},
    'runtime': {'rewrite', 'runtime'},
    'tools': {'rewrite', 'runtime', 'tools'},
}


def part_of(module: str) -> str:
    """'rewrite', 'runtime', 'tools' or 'top' for a lazy_codec module name"""
    pieces = module.split('.')
    return pieces[1] if len(pieces) > 1 and pieces[1] in PARTS else 'top'


def modules():
    for directory, _, names in os.walk(ROOT):
        for name in sorted(names):
            if name.endswith('.py'):
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, os.path.dirname(ROOT))[:-3].replace(os.sep, '.')
                yield (
                    relative.removesuffix('.__init__')
                    if hasattr(str, 'removesuffix')
                    else (relative[: -len('.__init__')] if relative.endswith('.__init__') else relative),
                    path,
                )


def imported(path: str) -> set:
    """the lazy_codec modules that the module at `path` names in its imports"""
    with open(path, encoding='utf-8') as f:
        tree = ast.parse(f.read())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f'{node.module}.{alias.name}' for alias in node.names)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, 'attr', None) == '_gcd_import'
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            found.add(node.args[0].value)  # (the entry's import of the runtime, without `import`)
    return {name for name in found if name == 'lazy_codec' or name.startswith('lazy_codec.')}


ALL = dict(modules())


def test_the_parts_are_there():
    assert {part_of(name) for name in ALL} == {'top', *PARTS}


@pytest.mark.parametrize('module', sorted(name for name in ALL if part_of(name) != 'top'))
def test_imports_stay_within_the_layers(module):
    allowed = MAY_IMPORT[part_of(module)]
    wrong = sorted(name for name in imported(ALL[module]) if name in ALL and part_of(name) not in allowed)
    assert wrong == [], f'{module} ({part_of(module)}) imports {wrong}'


def test_the_layer_test_sees_an_import():
    # (the test above cannot pass by reading nothing)
    assert 'lazy_codec.rewrite.lexer' in imported(ALL['lazy_codec.rewrite.statements'])
    assert 'lazy_codec.runtime.binding' in imported(ALL['lazy_codec.runtime.api'])
