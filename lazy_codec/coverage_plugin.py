"""coverage.py plugin: reports show files with lazy syntax as they are written.

    [run]
    plugins = lazy_codec.coverage_plugin

coverage.py reads a source file through the codec its cookie names, for
running it, for finding its statements and for showing it, all through one
function; so it measures a file with the cookie correctly (lines never move),
and without this plugin its reports (annotate, html, lcov) show the rewritten
lines.  With it, coverage's Python file reporter shows the file as written and
keeps analysing the rewritten text, which is what 3.9-3.14 can parse; and a
file of 3.15 source without the cookie (read as UTF-8, which 3.9-3.14 cannot
parse) is analysed from its rewrite too, and shown as written.  No
file tracer: any core (ctrace, pytrace, sysmon) measures as usual.  On 3.15
and later the codec is plain UTF-8 and the plugin does nothing.
"""

from __future__ import annotations

import sys
import tokenize

from lazy_codec._codec import NAME

_PATCHED = '_lazy_codec_patched'


def _as_written(filename: str) -> str | None:
    """the file as written, as coverage.python.get_python_source would give
    it but not rewritten; None if it has no `lazy` cookie and no lazy syntax"""
    try:
        with open(filename, 'rb') as f:
            data = f.read()
    except OSError:
        return None
    try:
        encoding = tokenize.detect_encoding(iter(data.splitlines(True)).__next__)[0]
    except SyntaxError:
        return None
    if encoding != NAME and (encoding not in ('utf-8', 'utf-8-sig') or b'lazy' not in data):
        return None
    text = data.replace(b'\f', b' ').decode('utf-8', 'replace')
    return text if not text or text.endswith('\n') else text + '\n'


def _analysed(get_python_source):
    """coverage's get_python_source, which gives what coverage parses to find
    a file's statements, for 3.15 source without the cookie too: the rewrite
    when the text does not compile here because of its lazy syntax (with
    the cookie, the codec gives coverage the rewrite itself)"""

    def source(filename: str) -> str:
        text = get_python_source(filename)
        if 'lazy' not in text:
            return text
        from lazy_codec.rewrite.emitter import ONLY_AST, last_candidate, rewrite

        if last_candidate(text) < 0:
            return text
        try:
            compile(text, filename, 'exec', ONLY_AST, dont_inherit=True)
        except SyntaxError:
            return rewrite(text)
        return text

    setattr(source, _PATCHED, True)
    return source


def _patch_sources() -> None:
    import coverage.python

    if getattr(coverage.python.get_python_source, _PATCHED, False):
        return
    patched = _analysed(coverage.python.get_python_source)
    coverage.python.get_python_source = patched
    for name in ('coverage.execfile', 'coverage.sysmon'):  # (they import it by name)
        module = sys.modules.get(name)
        if module is not None and hasattr(module, 'get_python_source'):
            setattr(module, 'get_python_source', patched)


def _patch(reporter_class) -> None:
    rewritten_source = reporter_class.source  # coverage's: read through the codec

    def source(self) -> str:
        written = self.__dict__.get('_lazy_codec_source')
        if written is None:
            written = self._lazy_codec_source = _as_written(self.filename) or ''
        return written or rewritten_source(self)

    reporter_class.source = source
    if hasattr(reporter_class, 'code_regions'):  # coverage 7.5+: it parses the text
        from coverage.regions import code_regions

        def regions(self):
            return code_regions(rewritten_source(self))

        reporter_class.code_regions = regions
    setattr(reporter_class, _PATCHED, True)


def coverage_init(reg, options) -> None:
    if sys.version_info >= (3, 15):
        return
    from coverage.python import PythonFileReporter

    if not getattr(PythonFileReporter, _PATCHED, False):
        _patch(PythonFileReporter)
    _patch_sources()
