"""`%load_ext lazy_codec`: PEP 810's lazy statements in IPython/Jupyter cells.

A cell is compiled from a str, which no codec sees, so the extension adds an
input transformer (run after IPython's own, which turn `%magic` and `!cmd`
lines into Python) that passes the cell's text through the rewrite.  A lazy
statement becomes the runtime call that binds the name lazily in the user
namespace; a later cell that loads the name imports the module.  A cell whose
lazy syntax 3.15 rejects raises that SyntaxError before any of it runs, as a
cell that does not compile does.

IPython keeps the text it compiled for tracebacks, `inspect` and `pdb`
(linecache); for a rewritten cell the extension puts the cell as written
there instead, as the codec does for files.

On 3.15 and later the interpreter parses `lazy` itself: loading the extension
does nothing.
"""

from __future__ import annotations

import linecache
import sys
from typing import Any

_NATIVE = sys.version_info >= (3, 15)
_SOURCES_KEPT = 64  # rewritten cell -> the cell as written, for linecache


class _Extension:
    """what the extension added to one shell, so that unloading removes it"""

    def __init__(self, shell) -> None:
        self.shell = shell
        self.sources: dict[str, str] = {}  # rewritten text -> text as written
        self.compiler: Any = None
        self.cache: Any = None  # the compiler's own `cache`, wrapped

    # -- the input transformer --------------------------------------------

    def transform(self, lines: list[str]) -> list[str]:
        from lazy_codec.rewrite.emitter import raises, rewrite

        text = ''.join(lines)
        out = rewrite(text)
        if out == text:
            return lines
        if raises(text, out):
            raise self._syntax_error(text, out)
        if len(self.sources) >= _SOURCES_KEPT:
            self.sources.pop(next(iter(self.sources)))
        self.sources[out] = text
        return out.splitlines(keepends=True)

    def _syntax_error(self, text: str, out: str) -> SyntaxError:
        """the SyntaxError of the rewrite's raising module, its file the cell
        (IPython shows `Cell In[n], line m` and the line as written)"""
        name = None
        try:  # IPython's name for this cell, as it names cells it compiles
            name = self.shell.compile.cache(text, self.shell.execution_count)
        except Exception:
            pass
        if not isinstance(name, str):
            name = '<ipython-input>'
        code = compile(out, name, 'exec', dont_inherit=True)
        try:
            # every line but the one raise is blank: nothing else runs
            exec(code, {'__name__': 'lazy_codec._ipython_cell'})
        except SyntaxError as exc:
            if exc.lineno is not None and not exc.text:
                lines = text.splitlines(keepends=True)
                if 0 < exc.lineno <= len(lines):
                    exc.text = lines[exc.lineno - 1]
            exc.__traceback__ = None
            return exc
        raise AssertionError('the rewrite of a rejected cell did not raise')

    # -- linecache: the cell as written ---------------------------------------

    def _wrap_cache(self) -> None:
        compiler = getattr(self.shell, 'compile', None)
        original = getattr(compiler, 'cache', None)
        if original is None:
            return
        sources = self.sources

        def cache(transformed_code, *args, **kwargs):
            name = original(transformed_code, *args, **kwargs)
            written = sources.get(transformed_code)
            entry = linecache.cache.get(name) if isinstance(name, str) else None
            if written is not None and entry is not None and len(entry) == 4:  # (not a lazy entry)
                # same lines, same count: only lazy statements differ
                lines = [line + '\n' for line in written.splitlines()]
                linecache.cache[name] = (len(written), entry[1], lines, entry[3])
            return name

        setattr(cache, '__wrapped__', original)
        setattr(compiler, 'cache', cache)
        self.compiler, self.cache = compiler, cache

    def _unwrap_cache(self) -> None:
        compiler, self.compiler = self.compiler, None
        if compiler is not None and compiler.__dict__.get('cache') is self.cache:
            del compiler.cache

    # -- loading -----------------------------------------------------------

    def load(self) -> None:
        transformers = getattr(self.shell, 'input_transformers_post', None)
        if transformers is None:
            raise ImportError(
                "lazy_codec's IPython extension needs IPython 7 or later "
                '(InteractiveShell.input_transformers_post)'
            )
        transformers.append(self.transform)
        self._wrap_cache()

    def unload(self) -> None:
        transformers = getattr(self.shell, 'input_transformers_post', [])
        while self.transform in transformers:
            transformers.remove(self.transform)
        self._unwrap_cache()


_loaded: dict[int, _Extension] = {}  # id(shell) -> its extension


def load_ipython_extension(ipython) -> None:
    if _NATIVE:
        return  # the interpreter parses `lazy`: nothing to do
    if id(ipython) in _loaded and _loaded[id(ipython)].shell is ipython:
        return
    extension = _Extension(ipython)
    extension.load()
    _loaded[id(ipython)] = extension


def unload_ipython_extension(ipython) -> None:
    extension = _loaded.pop(id(ipython), None)
    if extension is not None and extension.shell is ipython:
        extension.unload()
