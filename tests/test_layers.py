"""The package's layers, from the AST of its modules: which part may import
which (every import, at module level or in a function, is read).

    rewrite   imports nothing else of lazy_codec
    runtime   the rewrite, and itself
    tools     the rewrite and the runtime
    the top   (lazy_codec/*.py: the entry ABI, the codec glue, _startup,
              _abi1, coverage_plugin, __main__) anything

and, inside the runtime, one way only: each module imports only modules
below it in RUNTIME_ORDER (imports under `if TYPE_CHECKING:` are mypy's, not
the interpreter's, and are not counted).
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


# the runtime, bottom first: state (all its mutable state) is a leaf; the
# lazy object and the key are types; lookup and resolution complete them
RUNTIME_ORDER = (
    'lazy_codec.runtime.state',
    'lazy_codec.runtime.accelerator',
    'lazy_codec.runtime.opcodes',
    'lazy_codec.runtime.access',
    'lazy_codec.runtime.lazy',
    'lazy_codec.runtime.binding',
    'lazy_codec.runtime.rebuilder',
    'lazy_codec.runtime.resolution',
    'lazy_codec.runtime.lookup',
    'lazy_codec.runtime.mode_all',  # (the import hooks: the rewrite only)
    'lazy_codec.runtime.pytest_plugin',
    'lazy_codec.runtime.api',
)


def _run_time_nodes(tree: ast.AST):
    """the nodes of `tree`, without the bodies of `if TYPE_CHECKING:`"""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == 'TYPE_CHECKING':
            for child in node.orelse:
                yield child
                yield from _run_time_nodes(child)
            continue
        yield node
        yield from _run_time_nodes(node)


def imported(path: str) -> set:
    """the lazy_codec modules that the module at `path` names in its imports"""
    with open(path, encoding='utf-8') as f:
        tree = ast.parse(f.read())
    found = set()
    for node in _run_time_nodes(tree):
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


def runtime_imports(module: str) -> set:
    """the runtime modules `module` imports (a package's `from lazy_codec.runtime
    import x` counts as x)"""
    return {
        name
        for name in imported(ALL[module])
        if name in ALL and name != 'lazy_codec.runtime' and name.startswith('lazy_codec.runtime.')
    } - {module}


def test_the_runtime_order_names_every_runtime_module():
    runtime = {name for name in ALL if part_of(name) == 'runtime' and name != 'lazy_codec.runtime'}
    assert set(RUNTIME_ORDER) == runtime


@pytest.mark.parametrize('module', RUNTIME_ORDER)
def test_the_runtime_imports_one_way(module):
    below = set(RUNTIME_ORDER[: RUNTIME_ORDER.index(module)])
    above = sorted(runtime_imports(module) - below)
    assert above == [], f'{module} imports {above}, which are not below it'


def test_the_state_is_a_leaf():
    assert runtime_imports('lazy_codec.runtime.state') == set()


def test_the_runtime_has_no_import_at_the_bottom():
    # (the old circle's sign: imports put last, marked noqa: E402)
    for module in RUNTIME_ORDER:
        with open(ALL[module], encoding='utf-8') as f:
            assert 'E402' not in f.read(), module


def test_the_order_test_sees_the_chain():
    # (the test above cannot pass by reading nothing)
    assert {'lazy_codec.runtime.binding', 'lazy_codec.runtime.resolution'} <= runtime_imports(
        'lazy_codec.runtime.lookup'
    )
    assert 'lazy_codec.runtime.binding' not in imported(
        ALL['lazy_codec.runtime.lazy']
    )  # (TYPE_CHECKING only)


def test_the_runtime_loads_in_the_order_held_here():
    # lazy_codec.runtime.load() runs LOADED_AT_START in its order: bottom first
    with open(ALL['lazy_codec.runtime'], encoding='utf-8') as f:
        tree = ast.parse(f.read())
    listed = next(
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign) and getattr(node.targets[0], 'id', None) == 'LOADED_AT_START'
    )
    loaded = [f'lazy_codec.runtime.{name}' for name in listed]
    assert loaded == [name for name in RUNTIME_ORDER if name in loaded]
    assert set(RUNTIME_ORDER) - set(loaded) == {
        'lazy_codec.runtime.accelerator',  # (the tools' view of state.accel)
        'lazy_codec.runtime.mode_all',
        'lazy_codec.runtime.pytest_plugin',
    }


MAX_LINES = 500
SOURCE_SUFFIXES = ('.py', '.c', '.h')


def source_files():
    """every Python and C source file of lazy_codec/ (the accelerator's
    folder too), relative to it"""
    for directory, subdirectories, names in os.walk(ROOT):
        subdirectories[:] = sorted(name for name in subdirectories if name != '__pycache__')
        for name in sorted(names):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.relpath(os.path.join(directory, name), ROOT)


def test_no_source_file_is_over_500_lines():
    long = {}
    for relative in source_files():
        with open(os.path.join(ROOT, relative), encoding='utf-8') as f:
            count = sum(1 for _ in f)
        if count > MAX_LINES:
            long[relative] = count
    assert long == {}, f'over {MAX_LINES} lines (split them by topic): {long}'


def test_the_length_test_sees_the_c_files():
    # (the test above cannot pass by reading nothing)
    found = set(source_files())
    assert os.path.join('runtime', '_accel_c', 'accel.h') in found
    assert os.path.join('runtime', '_accel_c', 'first_use.c') in found
    assert os.path.join('runtime', 'api.py') in found
