"""Import hooks for modules without the cookie.

Mode "all": every eligible module-level import of every module imported from
then on is potentially lazy, as with 3.15's `-X lazy_imports=all`.  A meta
path finder, installed only while the mode is "all", hands source modules
that the path finder finds to a loader that rewrites their plain imports
(`_rewrite.rewrite(..., every_import=True)`) before compiling.  Their
bytecode goes to its own cache file (optimization tag `lazyall3`), so that a
run in mode "normal", or without lazy_codec, never loads it.

`__lazy_modules__` without the cookie (opt-in: LAZY_CODEC_LAZY_MODULES=1, as
it reads every imported module's source): a module whose source names
`__lazy_modules__` is rewritten the same way, and only its listed imports
become lazy (tag `lazymods3`); other modules load as usual.
"""

import sys

# importlib's own machinery, as the interpreter loaded it at start: the
# public modules (importlib.util, .machinery) import contextlib, collections,
# functools, ..., which a program in mode "all" would pay for at start
_bootstrap_external = sys.modules['_frozen_importlib_external']
PathFinder, SourceFileLoader = _bootstrap_external.PathFinder, _bootstrap_external.SourceFileLoader
cache_from_source, decode_source = _bootstrap_external.cache_from_source, _bootstrap_external.decode_source

# Modules whose attributes C code reads (the C warnings module reads
# warnings._showwarnmsg, filters, ...: a C getattr of a lazy name gets the
# lazy object here, not on 3.15): their own imports stay eager in mode "all"
READ_FROM_C = frozenset(('warnings',))

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


class AllImportsLoader(SourceFileLoader):
    """a source file loader whose modules' plain imports may be lazy"""
    tag = OPTIMIZATION_TAG

    def source_to_code(self, data, path, *, _optimize=-1):
        me = _get_ident()
        _rewriting.add(me)
        try:
            from lazy_codec._rewrite import cookie_name, rewrite  # not before a module needs it
            if cookie_name(data) in (None, b'lazy', b'utf-8', b'utf8'):
                # read as UTF-8 ourselves: the codec would rewrite lazy
                # statements into imports that this rewrite would then touch
                text = data.decode('utf-8')
            else:
                text = decode_source(data)
            code_text = rewrite(text, every_import=True)
        finally:
            _rewriting.discard(me)
        return compile(code_text, path, 'exec', dont_inherit=True, optimize=_optimize)

    def get_code(self, fullname):
        # SourceLoader.get_code, with the bytecode path of our own tag
        source_path = self.get_filename(fullname)
        tag = self.tag + (str(sys.flags.optimize) if sys.flags.optimize else '')
        bytecode_path = cache_from_source(source_path, optimization=tag)
        stats = self.path_stats(source_path)
        mtime, size = int(stats['mtime']), stats['size']
        try:
            data = self.get_data(bytecode_path)
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
                    memoryview(data)[16:], name=fullname, bytecode_path=bytecode_path,
                    source_path=source_path,
                )
        code = self.source_to_code(self.get_data(source_path), source_path)
        if not sys.dont_write_bytecode:
            data = _bootstrap_external._code_to_timestamp_pyc(code, mtime, size)
            try:
                self._cache_bytecode(source_path, bytecode_path, data)
            except NotImplementedError:
                pass
        return code


class LazyModulesLoader(AllImportsLoader):
    """as a source file loader, unless the source names __lazy_modules__"""
    tag = 'lazymods3'

    def get_code(self, fullname):
        with open(self.get_filename(fullname), 'rb') as f:
            if b'__lazy_modules__' not in f.read():
                return SourceFileLoader.get_code(self, fullname)
        return super().get_code(fullname)


class AllImportsFinder:
    """finds what the path finder finds; source modules get `loader`"""
    loader = AllImportsLoader

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name.partition('.')[0] == 'lazy_codec' or name in READ_FROM_C or (
                _rewriting and _get_ident() in _rewriting):
            return None  # the runtime itself: its imports are what lazy imports call
        spec = PathFinder.find_spec(name, path, target)
        if spec is not None and type(spec.loader) is SourceFileLoader:
            spec.loader = cls.loader(spec.loader.name, spec.loader.path)
        return spec

    @classmethod
    def invalidate_caches(cls):
        pass


class LazyModulesFinder(AllImportsFinder):
    loader = LazyModulesLoader


def install(finder=AllImportsFinder) -> None:
    if finder not in sys.meta_path:
        # before the path finder, and before the __lazy_modules__ finder
        index = len(sys.meta_path)
        for other in (LazyModulesFinder, PathFinder):
            if other in sys.meta_path:
                index = min(index, sys.meta_path.index(other))
        sys.meta_path.insert(index, finder)


def uninstall(finder=AllImportsFinder) -> None:
    while finder in sys.meta_path:
        sys.meta_path.remove(finder)
