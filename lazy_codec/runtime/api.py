"""The runtime that rewritten code calls: its entry points, 3.15's controls
(the mode, the filter, `__lazy_import__`) and the names it gives `sys`,
`types` and `builtins` when it loads.

Each entry point decides, as 3.15 does, whether a statement binds lazily;
a lazy binding is made by lazy_codec.runtime.binding, resolved by
lazy_codec.runtime.resolution when lazy_codec.runtime.lookup sees a load, and
the submodules it names are attached by lazy_codec.runtime.resolution.  This
module loads the whole runtime (lookup, resolution: they complete the key
and lazy object types), except with the C accelerator, which loads lookup,
resolution and the rebuilder at their first need (lazy_codec.runtime.on_demand).
"""

import sys
from _operator import index as _index

from lazy_codec.rewrite import ENTRY_NAME, ENTRY_POINTS
from lazy_codec.runtime import lazy as lazy_objects
from lazy_codec.runtime import load_on_demand, on_demand, state
from lazy_codec.runtime.access import at_module_level
from lazy_codec.runtime.binding import DoneWatch, EscapedName, LazyName, bind, bind_where_stored
from lazy_codec.runtime.lazy import (
    DUNDER,
    FROM,
    IMPORT,
    ORIGIN,
    LazyImportType,
    import_from,
    new_lazy,
    projection,
)
from lazy_codec.runtime.state import accel, controls, initializing, lazy_modules, loaded

if accel is None:
    # the pure runtime: lookup gives the keys their compare and hash as it
    # loads, and loads resolution, which completes the lazy object type
    from lazy_codec.runtime import lookup  # noqa: F401
lazy_objects.load_on_demand = load_on_demand

_getframe = sys._getframe
_MISSING = object()

# the .pth's builtins.__lazy_import__ (its `entry` bound to the entry object,
# see lazy_codec._entry_point), which loads this module at its first call and
# calls dunder_lazy_import; replaced by ours then (see _install_api)
_PTH_LAZY_IMPORT = vars(__import__('builtins')).get('__lazy_import__')
if getattr(_PTH_LAZY_IMPORT, '__self__', None) is not vars(__import__('builtins')).get(ENTRY_NAME):
    _PTH_LAZY_IMPORT = _MISSING
_NATIVE_LAZY_IMPORT = (
    vars(__import__('builtins')).get('__lazy_import__', _MISSING) if sys.version_info >= (3, 15) else _MISSING
)  # the interpreter's own

# -- the mode and the filter (3.15's sys.set_lazy_imports and _filter) --------

# (state.controls holds them) mode "all" from start installed its hooks
# before this module loaded
if getattr(sys.modules.get('lazy_codec.runtime.mode_all'), 'installed', bool)():
    controls.mode = 'all'


def set_lazy_imports(*args):
    if len(args) != 1:
        raise TypeError("set_lazy_imports() missing required argument 'mode' (pos 1)")
    (mode,) = args
    if not isinstance(mode, str):
        raise TypeError("mode must be a string: 'normal' or 'all'")
    if mode not in ('normal', 'all'):
        raise ValueError("mode must be 'normal' or 'all'")
    controls.mode = mode
    from lazy_codec.runtime import mode_all

    if mode == 'all':
        mode_all.install()
    else:
        mode_all.uninstall()


def get_lazy_imports() -> str:
    return controls.mode


def set_lazy_imports_filter(*args):
    if len(args) != 1:
        raise TypeError("set_lazy_imports_filter() missing required argument 'filter' (pos 1)")
    (func,) = args
    if func is not None and not callable(func):
        raise ValueError('filter provided but is not callable')
    controls.filter = func


def get_lazy_imports_filter():
    return controls.filter


def _lazy_here(frame, name: str, fromlist, explicit: bool) -> bool:
    """does this import statement bind lazily, as 3.15 decides?"""
    if not explicit and controls.mode != 'all':
        listed = frame.f_globals.get('__lazy_modules__')
        if listed is None or name not in listed:
            return False
    filter_ = controls.filter
    if filter_ is not None and not filter_(frame.f_globals.get('__name__'), name, fromlist):
        return False
    return True


def _eager(frame, statement: str, line: int) -> None:
    """run `statement` as the plain import it is, where it is written"""
    code = load_on_demand('resolution').statement_code(statement, frame.f_code.co_filename, line)
    exec(code, frame.f_globals, frame.f_locals)


# -- the entry points (lazy_codec._abi1 gives them their stable names) --------
# `line`: the statement's line, as the rewrite knows it (bytecode cached
# before the rewrite passed it gives none: 0, the frame's line is read then)


def lazy_import(*aliases: 'tuple[str, str | None]', line: int = 0) -> None:
    """`lazy import a.b.c as d, e` on line 7 -> lazy_import(('a.b.c', 'd'), ('e', None), line=7)"""
    _import(_getframe(1), aliases, True, line)


def maybe_lazy_import(*aliases: 'tuple[str, str | None]', line: int = 0) -> None:
    """a plain `import` that `__lazy_modules__` or mode "all" can make lazy"""
    _import(_getframe(1), aliases, False, line)


def lazy_from(module: str, level: int, *aliases: 'tuple[str, str | None]', line: int = 0) -> None:
    """`lazy from ..m import x as y, z` on line 7 -> lazy_from('m', 2, ('x', 'y'), ('z', None), line=7)"""
    _from(_getframe(1), module, level, aliases, True, line)


def maybe_lazy_from(module: str, level: int, *aliases: 'tuple[str, str | None]', line: int = 0) -> None:
    """a plain `from ... import` that `__lazy_modules__` or mode "all" can make lazy"""
    _from(_getframe(1), module, level, aliases, False, line)


def _import(frame, aliases, explicit: bool, line: int) -> None:
    namespace = frame.f_locals
    namespace.pop(ENTRY_NAME, None)
    hook = _replaced_lazy_import(frame) if explicit else None
    filename, line = frame.f_code.co_filename, line or frame.f_lineno
    for dotted, asname in aliases:
        if hook is not None:  # 3.15 calls it at each lazy statement
            value = hook(dotted, frame.f_globals, namespace, None, 0)
            if asname is not None:
                for attr in dotted.split('.')[1:]:
                    value = _project(value, attr, frame)
            _bind_value(namespace, asname or dotted.partition('.')[0], value)
            continue
        if not _lazy_here(frame, dotted, None, explicit):
            _eager(frame, f'import {dotted}' + (f' as {asname}' if asname else ''), line)
            continue
        if asname is None:
            top = dotted.partition('.')[0]
            lazy = new_lazy(
                IMPORT,
                dotted,
                f'import {top} as v',
                frame.f_globals,
                filename,
                line,
                submodule=dotted if top != dotted else None,
            )
            bound = top
        else:
            lazy = new_lazy(IMPORT, dotted, f'import {dotted} as v', frame.f_globals, filename, line)
            bound = asname
        if not loaded(dotted):
            lazy_modules.add(dotted)
            if '.' in dotted:
                load_on_demand('resolution').attach_submodules(dotted, lazy)
        bind(namespace, bound, lazy)


def _from(frame, module: str, level: int, aliases, explicit: bool, line: int) -> None:
    namespace = frame.f_locals
    namespace.pop(ENTRY_NAME, None)
    hook = _replaced_lazy_import(frame) if explicit else None
    if hook is not None:  # 3.15 calls it at each lazy statement
        value = hook(module, frame.f_globals, namespace, tuple(attr for attr, _ in aliases), level)
        for attr, asname in aliases:
            _bind_value(namespace, asname or attr, _project(value, attr, frame))
        return
    filename, line = frame.f_code.co_filename, line or frame.f_lineno
    base = _absolute(module, level, frame.f_globals)
    fromlist = (
        tuple([attr for attr, _ in aliases]) if controls.filter is not None else None
    )  # (only the filter reads it)
    if not _lazy_here(frame, base, fromlist, explicit):
        names = ', '.join([attr + (f' as {asname}' if asname else '') for attr, asname in aliases])
        _eager(frame, f'from {"." * level}{module} import {names}', line)
        return
    imported = sys.modules.get(base)
    if not loaded(base):
        lazy_modules.add(base)
        if '.' in base:
            origin = new_lazy(ORIGIN, base, '', frame.f_globals, filename, line)
            load_on_demand('resolution').attach_submodules(base, origin)
    # 3.15 binds at once what an imported module's dict already has (never
    # its module __getattr__, which could read names still being resolved)
    loaded_dict = getattr(imported, '__dict__', None) if imported is not None else None
    for attr, asname in aliases:
        bound = asname or attr
        full = f'{base}.{attr}'
        if type(loaded_dict) is dict:
            value = loaded_dict.get(attr, _MISSING)
            if value is not _MISSING and type(value) is not LazyImportType:
                namespace[bound] = value
                continue
            if (
                value is _MISSING
                and '__path__' in loaded_dict
                and sys.modules.get(full) is not None
                and not initializing(imported)
            ):
                # a submodule imported, then deleted from its package: 3.15
                # makes `pkg.sub` reach it again
                origin = new_lazy(ORIGIN, full, '', frame.f_globals, filename, line)
                load_on_demand('resolution').attach(imported, attr, full, origin)
        lazy = new_lazy(
            FROM,
            full,
            f'from {"." * level}{module} import {attr} as v',
            frame.f_globals,
            filename,
            line,
            base=base,
            level=level,
        )
        if not loaded(full):
            lazy_modules.add(full)
        bind(namespace, bound, lazy)


def __lazy_import__(*args, **kwargs):
    """Lazily imports a module.

    Returns either the module to be imported or a imp.lazy_module object
    which indicates the module to be lazily imported."""
    return dunder_lazy_import(_getframe(1), args, kwargs)


_DUNDER_PARAMETERS = ('name', 'globals', 'locals', 'fromlist', 'level')


def dunder_lazy_import(frame, args: tuple, kwargs: dict):
    """builtins.__lazy_import__ called from `frame`, with 3.15's checks and
    messages (the .pth's stub calls this too, until the runtime replaces it)"""
    if len(args) > 5:
        raise TypeError(f'__lazy_import__() takes at most 5 arguments ({len(args)} given)')
    bound = dict(zip(_DUNDER_PARAMETERS, args))
    for key, value in kwargs.items():
        if key not in _DUNDER_PARAMETERS:
            raise TypeError(f'__lazy_import__() got an unexpected keyword argument {key!r}')
        if key in bound:
            raise TypeError(
                f'argument for __lazy_import__() given by name ({key!r}) and position '
                f'({_DUNDER_PARAMETERS.index(key) + 1})'
            )
        bound[key] = value
    if 'name' not in bound:
        raise TypeError("__lazy_import__() missing required argument 'name' (pos 1)")
    name, globals_, locals_ = bound['name'], bound.get('globals'), bound.get('locals')
    fromlist, level = bound.get('fromlist'), _index(bound.get('level', 0))
    if not isinstance(name, str):
        raise TypeError(f'module name must be a string, got {type(name).__name__}')
    if level < 0:
        raise ValueError('level must be >= 0')
    if globals_ is not None and not isinstance(globals_, dict):
        raise TypeError(f'expect dict for globals, got {type(globals_).__name__}')
    if not name and level == 0:
        raise ValueError('Empty module name')
    if globals_ is None:
        globals_ = frame.f_globals
    base = _absolute(name, level, globals_)
    if not at_module_level(frame):
        raise SyntaxError("'lazy import' is only allowed at module level")
    if fromlist is not None and not isinstance(fromlist, (str, tuple)):
        raise TypeError('lazy_import: fromlist must be None, a string, or a tuple')
    for item in fromlist if isinstance(fromlist, tuple) else ():
        if not isinstance(item, str):
            raise TypeError(f"Item in ``from list'' must be str, not {type(item).__name__}")
    names = (fromlist,) if isinstance(fromlist, str) else fromlist
    if not _lazy_here(frame, base, names or None, True):
        return __import__(name, globals_, locals_, fromlist or (), level)
    # resolved as 3.15 resolves it: one call of the __import__ of these
    # globals' builtins, with the fromlist as given (a str made a tuple)
    lazy = new_lazy(
        DUNDER,
        base,
        f'v = __import__({base!r}, g, g, {names!r}, 0)',
        globals_,
        frame.f_code.co_filename,
        frame.f_lineno,
        submodule=base if not names and '.' in base else None,
    )
    if names:
        lazy._shown = base + '...'
    for module in (base, *(f'{base}.{item}' for item in names or ())):
        if not loaded(module):
            lazy_modules.add(module)
    if '.' in base:
        load_on_demand('resolution').attach_submodules(base, lazy)
    bind_where_stored(lazy, frame)
    return lazy


def _replaced_lazy_import(frame):
    """builtins.__lazy_import__ as `frame` sees it, when it is not ours (nor,
    on 3.15+, where only bytecode cached by 0.1 runs here, the interpreter's)"""
    builtins = frame.f_builtins
    hook = (
        builtins.get('__lazy_import__')
        if type(builtins) is dict
        else getattr(builtins, '__lazy_import__', None)
    )
    if hook is None or hook is __lazy_import__ or hook is _PTH_LAZY_IMPORT or hook is _NATIVE_LAZY_IMPORT:
        return None
    return hook


def _bind_value(namespace, name: str, value) -> None:
    """bind what a replaced __lazy_import__ gave: a lazy object as a lazy binding"""
    if type(value) is LazyImportType:
        bind(namespace, name, value)
    else:
        namespace[name] = value


def _project(value, attr: str, frame):
    """IMPORT_FROM on what a replaced __lazy_import__ gave"""
    if type(value) is LazyImportType:
        return projection(value, attr, frame)
    return import_from(value, attr)


def _absolute(module: str, level: int, globals_: dict) -> str:
    """the absolute name of a `from` import's module, as importlib finds it"""
    if level == 0:
        return module
    package = globals_.get('__package__')
    if package is None:
        spec = globals_.get('__spec__')
        if spec is not None:
            package = spec.parent
        else:
            package = globals_.get('__name__', '')
            if '__path__' not in globals_:
                package = package.rpartition('.')[0]
    if not package:
        raise ImportError('attempted relative import with no known parent package')
    bits = package.rsplit('.', level - 1)
    if len(bits) < level:
        raise ImportError('attempted relative import beyond top-level package')
    return f'{bits[0]}.{module}' if module else bits[0]


def syntax_error(
    msg: str, lineno: int, offset: int, end_lineno: int, end_offset: int, text: object = _MISSING
) -> SyntaxError:
    """the SyntaxError 3.15's compiler raises, for the module that calls
    this; its source line is the file's, unless `text` is given"""
    frame = _getframe(1)
    frame.f_locals.pop(ENTRY_NAME, None)
    filename = frame.f_code.co_filename
    if text is _MISSING:
        import linecache

        text = linecache.getline(filename, lineno) or None
    details = (filename, lineno, offset, text if isinstance(text, str) else None)
    if sys.version_info >= (3, 10):
        return SyntaxError(msg, details + (end_lineno, end_offset))
    error = SyntaxError(msg, details)
    error.end_lineno, error.end_offset = end_lineno, end_offset  # (3.9's has no fields for them)
    return error


def entry_point(name: str):
    """the function rewritten code calls as `__lazy_codec_abi1__.<name>`"""
    return _fill_entry()[name]


def _fill_entry() -> dict:
    """every entry point put on the builtin entry object, so that rewritten
    code finds them there (no import statement: a replaced __import__ sees
    none); done when this module loads, whatever loads it"""
    entry = vars(sys.modules['builtins']).get(ENTRY_NAME)
    functions = {point: globals()[point] for point in ENTRY_POINTS}
    if entry is not None:
        vars(entry).update(functions)
    return functions


def _install_api() -> None:
    """3.15's names for the feature, in place of the .pth's stubs"""
    if sys.version_info >= (3, 15):
        return  # the interpreter's own stand
    import builtins

    for name, value in (
        ('set_lazy_imports', set_lazy_imports),
        ('get_lazy_imports', get_lazy_imports),
        ('set_lazy_imports_filter', set_lazy_imports_filter),
        ('get_lazy_imports_filter', get_lazy_imports_filter),
    ):
        setattr(sys, name, value)
    types = sys.modules.get('types')
    if types is not None:
        setattr(types, 'LazyImportType', LazyImportType)
    else:
        _when_types_is_imported()
    if vars(builtins).get('__lazy_import__', _PTH_LAZY_IMPORT) is _PTH_LAZY_IMPORT:
        setattr(builtins, '__lazy_import__', __lazy_import__)  # (not one the program put there)


def _when_types_is_imported() -> None:
    """types.LazyImportType, put in `types` as it is imported: not imported
    now (3.15's runtime imports nothing, and `types` would cost the start
    0.9 M instructions on 3.14).  The source loader's get_code, wrapped until
    then: `types`'s module is in sys.modules when its code is asked for,
    before its body runs (which keeps the name).  Named as importlib's code,
    as the .pth's hooks are, so that an import's traceback leaves it out."""
    loader = sys.modules['_frozen_importlib_external'].SourceLoader
    plain = loader.get_code

    def get_code(self, fullname):
        if fullname == 'types':
            module = sys.modules.get(fullname)
            if module is not None:
                setattr(module, 'LazyImportType', LazyImportType)
                if loader.get_code is get_code:
                    loader.get_code = plain
        return plain(self, fullname)

    sys.modules['_imp']._fix_co_filename(get_code.__code__, plain.__code__.co_filename)
    loader.get_code = get_code


def _accelerate() -> None:
    """with the C accelerator: the entry points its (lazy_codec/runtime/_accel_c/),
    which do the common case and call these Python ones for the rest.  Its
    one contract: this namespace (setup fails on a missing or mistyped
    entry, and reads `controls` through its slots, never a global by name)"""
    global lazy_import, lazy_from, maybe_lazy_import, maybe_lazy_from
    from lazy_codec.runtime import access, opcodes

    accel.setup(
        {
            # the state (lazy_codec.runtime.state), as C changes or reads it
            'controls': state.controls,
            'binding_lock': state.binding_lock,
            'live_keys': state.live_keys,
            'lazy_modules': state.lazy_modules,
            'waiting_children': state.waiting_children,
            'waiting_origin': state.waiting_origin,
            'dirty': state.dirty,
            'lookup_codes': state.lookup_codes,
            # the types C makes or recognises
            'LazyName': LazyName,
            'EscapedName': EscapedName,
            'LazyImportType': LazyImportType,
            'LiveKeys': state.LiveKeys,
            'ModuleSpec': sys.modules['_frozen_importlib'].ModuleSpec,
            'DoneWatch': DoneWatch,
            # the Python twins C hands the rest to
            'lazy_import': lazy_import,
            'lazy_from': lazy_from,
            'maybe_lazy_import': maybe_lazy_import,
            'maybe_lazy_from': maybe_lazy_from,
            'bind': bind,
            'on_demand': on_demand,  # (key_eq, key_hash, rebuild_later, failed_first_use)
            # what C compares with
            'runtime_globals': state.runtime_globals,
            'our_hooks': (__lazy_import__, _PTH_LAZY_IMPORT, _NATIVE_LAZY_IMPORT),
            'builtin_import': __import__('builtins').__import__,
            'entry_name': ENTRY_NAME,
            'kinds': (IMPORT, FROM, ORIGIN),  # (the lazy objects C makes)
            'dict_iteration_names': access.DICT_ITERATION_NAMES,
            'comprehensions': access.COMPREHENSIONS,
            'simple_loads': access.NAME_LOADS,
            'plain_peeks': access.PLAIN_PEEKS,
            'attribute_loads': access.ATTRIBUTE_LOADS,
            'container_producers': access.CONTAINER_PRODUCERS,
            **opcodes.ACCELERATOR_TABLES,  # (what its decoder reads)
            # importlib's code whose calls meet a package's lazy keys: its
            # setattr of a submodule on the package (a store: the key stays,
            # lookup.key_eq does nothing) and _handle_fromlist's hasattr (a load)
            'child_store_code': sys.modules['_frozen_importlib']._find_and_load_unlocked.__code__,
            'fromlist_code': sys.modules['_frozen_importlib']._handle_fromlist.__code__,
        }
    )
    lazy_import, lazy_from = accel.lazy_import, accel.lazy_from
    maybe_lazy_import, maybe_lazy_from = accel.maybe_lazy_import, accel.maybe_lazy_from


if accel is not None:
    _accelerate()
_fill_entry()
_install_api()
