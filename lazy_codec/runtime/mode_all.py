"""Import hooks for modules without the cookie.

Mode "all": every eligible module-level import of every module imported from
then on is potentially lazy, as with 3.15's `-X lazy_imports=all`.  While the
mode is "all", SourceFileLoader.get_code (the path finder's loader, and one
made by hand) rewrites a module's plain imports (`emitter.rewrite(...,
every_import=True)`) before compiling.  Its bytecode goes to its own cache
file (optimization tag `lazyall3`), so that a run in mode "normal", or
without lazy_codec, never loads it.  No finder of ours runs at an import: a
module's spec and loader are the path finder's, as on 3.15, and an import
pays one Python call over importlib's own (benchmarks/loader_cost.py).

`__lazy_modules__` without the cookie is lazy_codec/_loader.py's (the source
loaders' hook): `cached_code`, with its own tag, serves both.
"""

import sys

# importlib's own machinery, as the interpreter loaded it at start: the
# public modules (importlib.util, .machinery) import contextlib, collections,
# functools, ..., which a program in mode "all" would pay for at start
_bootstrap_external = sys.modules['_frozen_importlib_external']
PathFinder, SourceFileLoader = _bootstrap_external.PathFinder, _bootstrap_external.SourceFileLoader
cache_from_source, decode_source = _bootstrap_external.cache_from_source, _bootstrap_external.decode_source


# the bytecode of rewritten modules, beside (never instead of) the usual one
# (2: the rewrite reaches the runtime through builtins.__lazy_codec_abi1__,
# which lazy_codec 0.1's runtime lacks; its bytecode, tag `lazyall`, calls
# lazy_codec._abi1: venvs of one interpreter share the stdlib's caches;
# 3: the calls pass the statement's line, which 2's runtime does not take)
OPTIMIZATION_TAG = 'lazyall3'

# Threads rewriting a module now: the imports the rewrite itself makes (the
# rewrite, and tokenize where the lexer declines a text) load as usual, not
# through these hooks, which would find the module they import half made.
_rewriting: set[int] = set()
_get_ident = sys.modules['_thread'].get_ident


def rewritten_source(data: bytes) -> str:
    """the source of a module whose plain imports may be lazy"""
    me = _get_ident()
    _rewriting.add(me)
    try:
        from lazy_codec.rewrite.cookie import cookie_name  # not before a module needs them
        from lazy_codec.rewrite.emitter import rewrite

        if cookie_name(data) in (None, b'lazy', b'utf-8', b'utf8'):
            # read as UTF-8 ourselves: the codec would rewrite lazy
            # statements into imports that this rewrite would then touch
            text = data.decode('utf-8')
        else:
            text = decode_source(data)
        return rewrite(text, every_import=True)
    finally:
        _rewriting.discard(me)


def rewritten_source_bytes(data: bytes):
    """rewritten_source as bytes for a compiler that reads the cookie (UTF-8,
    the `lazy` cookie read as UTF-8: the same lines); None for a file in
    another encoding"""
    from lazy_codec.rewrite.cookie import cookie_name

    name = cookie_name(data)
    if name not in (None, b'lazy', b'utf-8', b'utf8'):
        return None
    text = rewritten_source(data)
    if name == b'lazy':
        head, newline, rest = text.partition('\n')
        second, newline2, rest = rest.partition('\n')

        def swap(line: str) -> str:
            return line.replace('lazy', 'utf-8', 1) if 'coding' in line else line

        text = swap(head) + newline + swap(second) + newline2 + rest
    return text.encode('utf-8')


def rewritten_code(data: bytes, path: str, optimize: int = -1):
    """the code of a source file whose plain imports may be lazy"""
    return compile(rewritten_source(data), path, 'exec', dont_inherit=True, optimize=optimize)


def cached_code(loader, fullname: str, tag: str):
    """SourceLoader.get_code for `loader`, rewriting as rewritten_code does,
    with the bytecode path of optimization tag `tag`"""
    source_path = loader.get_filename(fullname)
    tag = tag + (str(sys.flags.optimize) if sys.flags.optimize else '')
    bytecode_path = cache_from_source(source_path, optimization=tag)
    stats = loader.path_stats(source_path)
    mtime, size = int(stats['mtime']), stats['size']
    try:
        data = loader.get_data(bytecode_path)
    except OSError:
        data = None
    if data is not None:
        details = {'name': fullname, 'path': bytecode_path}
        try:
            _bootstrap_external._classify_pyc(data, fullname, details)
            _bootstrap_external._validate_timestamp_pyc(data, mtime, size, fullname, details)
        except (ImportError, EOFError):
            pass
        else:
            return _bootstrap_external._compile_bytecode(
                memoryview(data)[16:],
                name=fullname,
                bytecode_path=bytecode_path,
                source_path=source_path,
            )
    code = rewritten_code(loader.get_data(source_path), source_path)
    if not sys.dont_write_bytecode:
        data = _bootstrap_external._code_to_timestamp_pyc(code, mtime, size)
        try:
            loader._cache_bytecode(source_path, bytecode_path, data)
        except NotImplementedError:
            pass
    return code


# -- what mode "all" reaches -------------------------------------------------
# On 3.15 the mode is the interpreter's: every module-level import is
# eligible, wherever its code came from.  Here: a source file loaded by a
# plain SourceFileLoader (the path finder's, or one made by hand:
# importlib.util.spec_from_file_location + exec_module, plugin systems),
# runpy.run_path's files, the main script (opt-in, below) and pytest's test
# modules (see lazy_codec.runtime.pytest_plugin).  A loader class of a
# program's own, and `exec` of a string, stay out (on 3.15 `exec` has no
# loader to ask either).

# (SourceLoader's, looked up at each call: the .pth's hook, and the
# runtime's until `types` is imported, api._when_types_is_imported)
_SourceLoader = _bootstrap_external.SourceLoader


def _get_code(loader, fullname):
    """SourceFileLoader.get_code while mode "all" is on"""
    if type(loader) is SourceFileLoader and eligible(fullname):
        return cached_code(loader, fullname, OPTIMIZATION_TAG)
    return _SourceLoader.get_code(loader, fullname)


# The runtime's one standard-library module of source: the runtime may load
# after the hooks (mode "all" from start loads it at the first lazy import),
# and an import of `types` must not come back to it through them (`types`
# imports nothing at module level that laziness would change)
_RUNTIME_NEEDS = frozenset(('types',))


def eligible(fullname: str) -> bool:
    """may the imports of module `fullname` be lazy in mode "all"?"""
    return not (
        fullname in _RUNTIME_NEEDS
        or fullname.partition('.')[0] == 'lazy_codec'
        or (_rewriting and _get_ident() in _rewriting)
    )


def _reach_runpy(runpy) -> None:
    """runpy.run_path compiles a source file itself: rewrite it first"""
    plain = runpy._get_code_from_file
    if getattr(plain, '_lazy_codec', False):
        return

    def _get_code_from_file(*args):
        fname = args[-1]  # (3.9-3.11: run_name, fname -> code, fname; 3.12+: fname -> code)
        if SourceFileLoader.get_code is not _get_code or not str(fname).endswith('.py'):
            return plain(*args)
        with open(fname, 'rb') as f:
            code = rewritten_code(f.read(), fname)
        return (code, fname) if len(args) == 2 else code

    setattr(_get_code_from_file, '_lazy_codec', True)
    setattr(_get_code_from_file, '__wrapped__', plain)
    runpy._get_code_from_file = _get_code_from_file


TYPE_CHECKING = False  # (mypy reads `if TYPE_CHECKING:` blocks as true; importlib.abc is not imported)
if TYPE_CHECKING:
    from importlib.abc import Loader as _Loader  # (what a ModuleSpec's loader is typed as)
else:
    _Loader = object

# Until runpy is imported, mode "all" waits for it.  Where the interpreter
# has runpy frozen (3.11+), in FrozenImporter.exec_module, which no import
# of a source module calls; else (3.9, 3.10, -X frozen_modules=off) in a
# finder first on sys.meta_path, which each import calls until then (about
# 5 K instructions an import on 3.11, hence not everywhere).
_FrozenImporter = sys.modules['_frozen_importlib'].FrozenImporter
_frozen_exec_module = vars(_FrozenImporter)['exec_module']


def _exec_frozen(module):
    """FrozenImporter.exec_module until runpy is imported"""
    _frozen_exec_module.__func__(module)
    if module.__name__ == 'runpy':
        _stop_waiting_for_runpy()
        _reach_runpy(module)


class _RunpyLoader(_Loader):
    """runpy's own loader, then _reach_runpy"""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        _reach_runpy(module)


class RunpyFinder:
    """first on sys.meta_path until runpy is imported, where it is not
    frozen: finds runpy as the others do, with _RunpyLoader"""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name != 'runpy':
            return None
        for finder in sys.meta_path:
            if finder is not cls and hasattr(finder, 'find_spec'):
                spec = finder.find_spec(name, path, target)
                if spec is not None:
                    # (found: the import system's loop over sys.meta_path
                    # ends here, so leaving it cannot make that loop skip one)
                    _stop_waiting_for_runpy()
                    if spec.loader is not None and hasattr(spec.loader, 'exec_module'):
                        spec.loader = _RunpyLoader(spec.loader)
                    return spec
        return None

    @classmethod
    def invalidate_caches(cls):
        pass


# (its frame between importlib's claims importlib's file, as the .pth's
# loader hooks do, so that a traceback leaves it out with them)
_exec_frozen.__code__ = _exec_frozen.__code__.replace(
    co_filename=_frozen_exec_module.__func__.__code__.co_filename
)


def _wait_for_runpy() -> None:
    if sys.modules['_imp'].is_frozen('runpy'):
        _FrozenImporter.exec_module = staticmethod(_exec_frozen)
    elif RunpyFinder not in sys.meta_path:
        sys.meta_path.insert(0, RunpyFinder)


def _stop_waiting_for_runpy() -> None:
    if vars(_FrozenImporter)['exec_module'] is not _frozen_exec_module:
        _FrozenImporter.exec_module = _frozen_exec_module
    while RunpyFinder in sys.meta_path:
        sys.meta_path.remove(RunpyFinder)


def install() -> None:
    SourceFileLoader.get_code = _get_code
    if 'runpy' in sys.modules:
        _reach_runpy(sys.modules['runpy'])
    else:
        _wait_for_runpy()


def installed() -> bool:
    """is mode "all" on (SourceFileLoader.get_code ours)?  The mode's one
    state before the runtime is loaded: `-X lazy_imports=all` installs the
    hook at start, and the runtime, loaded later, reads its mode from here"""
    return vars(SourceFileLoader).get('get_code') is _get_code


def uninstall() -> None:
    if installed():
        del SourceFileLoader.get_code  # (SourceLoader's again)
    _stop_waiting_for_runpy()


# -- the main script ---------------------------------------------------------------
# `python app.py` compiles app.py in C, with no loader to ask (a script with
# the cookie is decoded, and rewritten by the codec: not this).  The one hook
# before it is the audit event cpython.run_file: in mode "all" from start,
# with LAZY_CODEC_MAIN_SCRIPT=1 (opt-in, for the cost below), an audit hook
# runs the rewritten script there and ends the run with its exit status, as
# the interpreter would.  An audit hook cannot be removed,
# and is called for every audited event after (16,000 in a small flask app:
# sys._getframe, id(), code attributes, ...): so the hook is a C function,
# a dict's `get`, and the script runs only when the dict compares its one
# key, whose hash is that event's (see _RunFileEvent).  What still differs,
# documented: each audited event builds its arguments for the hook; the
# script's frame has the hook's frame below it (f_back; tracebacks leave it
# out).


class _RunFileEvent(str):
    """the name of the audit event cpython.run_file, as the key of the hook's
    dict: a lookup of that event's name compares it, and the comparison runs
    the main script (once); other events' names miss the dict in C"""

    __slots__ = ()
    script = ''  # the main script's path, as the interpreter names it (absolute)
    pending = [True]

    def __eq__(self, other):
        equal = str.__eq__(self, other)
        if equal is True and self.pending:
            self.pending.clear()
            if SourceFileLoader.get_code is _get_code:  # (still mode "all")
                _run_main_script(_RunFileEvent.script)
        return equal

    __hash__ = str.__hash__


def reach_main_script() -> None:
    """(at start, mode "all") run the main script with its imports lazy"""
    program = sys.argv[0] if sys.argv else ''
    if sys.flags.inspect or program in ('', '-c', '-m', '-') or not program.endswith('.py'):
        return  # (a directory or zip file runs its __main__ through the finder)
    from os.path import abspath  # (os is loaded by then)

    _RunFileEvent.script = abspath(program)
    hook = {_RunFileEvent('cpython.run_file'): None}.get  # (called as hook(event, args))
    sys.addaudithook(hook)  # type: ignore[arg-type]


def _run_main_script(path) -> None:
    """run `path` as __main__ rewritten; raises SystemExit with its status.
    Its bytecode is cached beside it under the mode's tag (the interpreter
    compiles a main script at every run; rewriting it at every run would cost
    the rewrite's modules and work each time)"""
    main = sys.modules['__main__']
    namespace = main.__dict__
    namespace['__file__'] = path
    namespace['__cached__'] = None
    loader = SourceFileLoader('__main__', path)
    if namespace.get('__loader__') is None or type(namespace['__loader__']) is type:
        namespace['__loader__'] = loader
    code = None
    try:
        code = cached_code(loader, '__main__', OPTIMIZATION_TAG)
        exec(code, namespace)
    except SystemExit:
        raise
    except BaseException as exc:
        tb = exc.__traceback__
        while (
            tb is not None
            and tb.tb_frame.f_code is not code
            and tb.tb_frame.f_globals.get('__name__', '').startswith('lazy_codec.')
        ):
            tb = tb.tb_next  # (our frames: the hook's, the rewrite's)
        exc = exc.with_traceback(tb)
        sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, tb
        if sys.version_info >= (3, 12):
            sys.last_exc = exc
        sys.excepthook(type(exc), exc, tb)
        if isinstance(exc, KeyboardInterrupt):
            import os
            import signal

            signal.signal(signal.SIGINT, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGINT)
        raise SystemExit(1) from None
    finally:
        namespace.pop('__file__', None)
        namespace.pop('__cached__', None)
    raise SystemExit(0)
