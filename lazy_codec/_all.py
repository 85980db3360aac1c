"""Mode "all": every eligible module-level import of every module imported
from then on is potentially lazy, as with 3.15's `-X lazy_imports=all`.

A meta path finder, installed only while the mode is "all", hands source
modules that the path finder finds to a loader that rewrites their plain
imports (`_rewrite.rewrite(..., every_import=True)`) before compiling.  Their
bytecode goes to its own cache file (optimization tag `lazyall`), so that a
run in mode "normal", or without lazy_codec, never loads it.
"""
from __future__ import annotations

import sys
from importlib import _bootstrap_external
from importlib.machinery import PathFinder, SourceFileLoader
from importlib.util import cache_from_source, decode_source

from lazy_codec._rewrite import COOKIE, rewrite

# the bytecode of rewritten modules, beside (never instead of) the usual one
OPTIMIZATION_TAG = 'lazyall'


class AllImportsLoader(SourceFileLoader):
    """a source file loader whose modules' plain imports may be lazy"""

    def source_to_code(self, data, path, *, _optimize=-1):
        match = COOKIE.search(b'\n'.join(data.split(b'\n', 2)[:2]))
        if match is None or data[match.end(1):match.end()].lower() in (b'lazy', b'utf-8', b'utf8'):
            # read as UTF-8 ourselves: the codec would rewrite lazy
            # statements into imports that this rewrite would then touch
            text = data.decode('utf-8')
        else:
            text = decode_source(data)
        code_text = rewrite(text, every_import=True)
        return compile(code_text, path, 'exec', dont_inherit=True, optimize=_optimize)

    def get_code(self, fullname):
        # SourceLoader.get_code, with the bytecode path of our own tag
        source_path = self.get_filename(fullname)
        tag = OPTIMIZATION_TAG + (str(sys.flags.optimize) if sys.flags.optimize else '')
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


class AllImportsFinder:
    """finds what the path finder finds; source modules get AllImportsLoader"""

    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name.partition('.')[0] == 'lazy_codec':
            return None  # the runtime itself: its imports are what lazy imports call
        spec = PathFinder.find_spec(name, path, target)
        if spec is not None and type(spec.loader) is SourceFileLoader:
            spec.loader = AllImportsLoader(spec.loader.name, spec.loader.path)
        return spec

    @classmethod
    def invalidate_caches(cls):
        pass


def install() -> None:
    if AllImportsFinder not in sys.meta_path:
        index = sys.meta_path.index(PathFinder) if PathFinder in sys.meta_path else len(sys.meta_path)
        sys.meta_path.insert(index, AllImportsFinder)


def uninstall() -> None:
    while AllImportsFinder in sys.meta_path:
        sys.meta_path.remove(AllImportsFinder)
