"""The codec glue: the `lazy` codec, UTF-8 whose decoder rewrites lazy syntax.

The import system decodes with `decode`; a script run directly, and
`linecache` (tracebacks, inspect, pdb), with the incremental decoder.
Readers that show the source to a person get it as written: see
`_reader` and `_DISPLAY_READERS`.  On 3.15 and later the interpreter parses `lazy` itself and
the codec is plain UTF-8.
"""

import codecs
import sys

from lazy_codec._entry import install_entry

TYPE_CHECKING = False  # (mypy reads it as true: `types` is not loaded at start, and need not be)
if TYPE_CHECKING:
    from types import FrameType

# what the rewritten code of a decoded file calls (made by the .pth, or here)
install_entry()

NAME = 'lazy'
_utf_8 = codecs.lookup('utf-8')
_NATIVE = sys.version_info >= (3, 15)

# modules whose reading of a source file is for showing it, not compiling it
_DISPLAY_READERS = frozenset(('linecache',))


_OWN_MODULES = frozenset((__name__, 'codecs'))
_SCRIPT = 'script'


def _reader(data) -> 'str | None':
    """who is decoding: 'display', 'script' (the interpreter's own reading
    of a script it runs) or None (a compiler: import, runpy, compile())"""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and frame.f_globals.get('__name__') in _OWN_MODULES:
        frame = frame.f_back
    if frame is None:
        # The interpreter itself: running a script, it reads on from the end
        # of the cookie's line (so the text starts with that line's newline);
        # printing a traceback (3.9-3.12), it reads the file from its start.
        return _SCRIPT if data[:1] in (b'\n', b'\r') else 'display'
    for _ in range(4):
        if frame is None:
            break
        if frame.f_globals.get('__name__') in _DISPLAY_READERS:
            return 'display'
        frame = frame.f_back
    return None


def _script_cookie_line() -> 'tuple[int, bytes]':
    """the line of the running script's cookie (its text starts there),
    and that line's bytes"""
    try:
        with open(sys.argv[0], 'rb') as f:
            first, second = f.readline(), f.readline()
    except (OSError, IndexError):
        return 1, b''
    from lazy_codec.rewrite.cookie import cookie_name

    return (1, first) if cookie_name(first) is not None else (2, second)


def decode(data, errors: str = 'strict') -> 'tuple[str, int]':
    reader = _reader(data)
    first_line = 1
    if reader == _SCRIPT:
        first_line, cookie_line = _script_cookie_line()
        try:
            cookie_line.decode('utf-8')
        except UnicodeDecodeError:
            # 3.9-3.13 check that line themselves (3.9 and 3.10 as latin-1)
            if sys.version_info >= (3, 14):
                return _undecodable_cookie_line(cookie_line, bytes(data), first_line), len(data)
    try:
        text, consumed = codecs.utf_8_decode(data, errors, True)
    except UnicodeDecodeError:
        if reader == 'display':
            return codecs.utf_8_decode(data, 'replace', True)
        from lazy_codec.rewrite.emitter import undecodable

        return undecodable(bytes(data), first_line), len(data)
    if _NATIVE or reader == 'display':
        return text, consumed
    from lazy_codec.rewrite.emitter import rewrite

    hooks = sys.modules.get('lazy_codec.runtime.mode_all')
    every_import = hooks is not None and hooks.installed()
    return rewrite(text, first_line, every_import), consumed


def _undecodable_cookie_line(cookie_line: bytes, data: bytes, first_line: int) -> str:
    """the SyntaxError of a script whose cookie line is not UTF-8 (3.14+
    read that line without checking it, and the codec gets the rest): its
    text starts with the cookie line's newline, so the raise goes one line down"""
    from lazy_codec.rewrite.emitter import undecodable

    source = undecodable(cookie_line.rstrip(b'\r\n') + data, first_line)
    raise_line, _, rest = source.partition('\n')
    return '\n' + raise_line + rest


class IncrementalDecoder(codecs.BufferedIncrementalDecoder):
    # the rewrite needs whole statements: decode once, at the end
    def _buffer_decode(self, input, errors, final):
        if not final:
            return '', 0
        return decode(input, errors)


class StreamReader(codecs.StreamReader):
    _text = None

    def _all(self):
        if self._text is None:
            import io

            self._text = io.StringIO(decode(self.stream.read(), self.errors)[0])
        return self._text

    def read(self, size=-1, chars=-1, firstline=False):
        return self._all().read(chars if chars >= 0 else -1)

    def readline(self, size=None, keepends=True):
        line = self._all().readline()
        return line if keepends else line.rstrip('\r\n')

    def reset(self):
        self._text = None


codec_info = codecs.CodecInfo(
    name=NAME,
    encode=_utf_8.encode,
    # plain UTF-8 on 3.15+, but for how a decoding error is reported: a
    # SyntaxError at its line, where the interpreter would say `line 0`
    decode=decode,
    incrementalencoder=_utf_8.incrementalencoder,
    incrementaldecoder=IncrementalDecoder,
    streamreader=StreamReader,
    streamwriter=_utf_8.streamwriter,
)


def search(name: str):
    return codec_info if name == NAME else None


def register() -> None:
    """register the codec in this process (what the .pth file does at start)"""
    codecs.register(search)
