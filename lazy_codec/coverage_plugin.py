"""coverage.py plugin: reports show files with the cookie as they are written.

    [run]
    plugins = lazy_codec.coverage_plugin

coverage.py reads a source file through the codec its cookie names, for
running it, for finding its statements and for showing it, all through one
function; so it measures a file with the cookie correctly (lines never move),
and without this plugin its reports (annotate, html, lcov) show the rewritten
lines.  With it, coverage's Python file reporter shows the file as written and
keeps analysing the rewritten text, which is what 3.9-3.14 can parse.  No
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
    it but not rewritten; None if it has no `lazy` cookie"""
    try:
        with open(filename, 'rb') as f:
            data = f.read()
    except OSError:
        return None
    try:
        encoding = tokenize.detect_encoding(iter(data.splitlines(True)).__next__)[0]
    except SyntaxError:
        return None
    if encoding != NAME:
        return None
    text = data.replace(b'\f', b' ').decode('utf-8', 'replace')
    return text if not text or text.endswith('\n') else text + '\n'


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
