"""The codec glue: the `lazy` codec, UTF-8 whose decoding for the compiler
rewrites lazy syntax.

Decoding a file as text (`bytes.decode`, `codecs.decode`, `open(...,
encoding='lazy')`, `tokenize.open`, incremental decoders) gives its exact
text, as UTF-8 would: formatters, linters, editors and linecache read and
write the user's source.  The rewrite goes only to the compiler, which asks
the codec in two ways (`_reader` tells them apart):
- the interpreter's reading of the script it runs (`python app.py`): the
  incremental decoder, with no Python frame below it;
- compile() of bytes (runpy.run_path, pdb, cProfile, pytest's assertion
  rewriting and pyflakes through ast.parse, exec of bytes, C's
  PyRun_String): `decode`, inside a compile that the audit hook below saw
  start (the audit event `compile`, raised before the source is decoded).
Modules imported through importlib's source loaders are rewritten before
they are compiled (lazy_codec/_loader.py), without the codec.  On 3.15 and
later the interpreter parses `lazy` itself and the codec is plain UTF-8.
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
_get_ident = sys.modules['_thread'].get_ident

_OWN_MODULES = frozenset((__name__, 'codecs'))
_SCRIPT, _DISPLAY, _COMPILE, _TEXT = 'script', 'display', 'compile', 'text'

# readers that decode text in order to compile it (and, for coverage.py, to
# find its statements, which must be the compiled ones): (module, function)
_COMPILING_READERS = frozenset((('coverage.python', 'get_python_source'),))

# -- compiles in progress: the audit event `compile` ---------------------------
# Thread -> (id of the frame that called the compiler, its instruction) of
# the compile last started on that thread.  A decode in that same call is the
# tokenizer's; any other call of the frame (a `.decode` after it) is at
# another instruction.  Ids, not frames: the record keeps nothing alive.
_compiles: dict = {}


class _CompileEvent(str):
    """the audit event `compile` as the key of the hook's dict: the hook is
    that dict's `get` (C, called with the event and its arguments), whose
    lookup compares this key only with an event whose name hashes alike: so
    every other audited event costs a C lookup that misses, and no Python"""

    __slots__ = ()

    def __eq__(self, other):
        equal = str.__eq__(self, other)
        if equal is True:
            try:
                caller = sys._getframe(1)
            except ValueError:  # compiled from C with no Python frame (the main script)
                _compiles.pop(_get_ident(), None)
            else:
                _compiles[_get_ident()] = (id(caller), caller.f_lasti)
        return equal

    __hash__ = str.__hash__


# Installed at the first decode that needs it (a stateless decode from Python
# code: compile() of bytes, or bytes.decode): a process whose only cookie file
# is its main script (read by the incremental decoder, no Python frame below)
# never installs it.  Once installed, every audited event of the process
# builds its arguments for it, and it cannot be removed.
_watching: list = []


def _watch_compiles() -> None:
    if not _watching:
        _watching.append(True)
        sys.addaudithook({_CompileEvent('compile'): None}.get)  # type: ignore[arg-type]


# callers that compile what they read (the first decode: see _looks_like_compile)
_COMPILING_MODULES = frozenset(
    (
        'ast',
        'runpy',
        'pdb',
        'cProfile',
        'profile',
        'trace',
        'zipimport',
        'py_compile',
        'doctest',
        'code',
        'codeop',
        # importlib's bootstrap: its name at start, and once `importlib` is imported
        '_frozen_importlib',
        '_frozen_importlib_external',
        'importlib._bootstrap',
        'importlib._bootstrap_external',
        '_pytest.assertion.rewrite',
    )
)


_COMPILERS = frozenset(('compile', 'exec', 'eval', 'parse'))
_TEXT_DECODERS = frozenset(('decode', 'str'))


def _looks_like_compile(frame: 'FrameType') -> bool:
    """is `frame` calling the compiler (not a text decoder) now?  Asked only
    for the first decode, before the audit hook could see a compile start:
    a module that compiles what it reads, or a call of `compile`, `exec` or
    `parse` (`.decode(...)`, `str(...)`: no)"""
    if frame.f_globals.get('__name__') in _COMPILING_MODULES:
        return True
    names = frame.f_code.co_names
    compiles = any(name in _COMPILERS for name in names)
    decodes = any(name in _TEXT_DECODERS for name in names)
    if compiles != decodes:
        return compiles  # (most code names one kind only: the call need not be read)
    try:
        from lazy_codec.runtime.access import callee_name

        return callee_name(frame) in _COMPILERS
    except Exception:
        return False  # where it cannot tell: text, which loses nothing


def _reader(data, stateless: bool) -> str:
    """who is decoding: _SCRIPT (the interpreter's own reading of a script it
    runs), _COMPILE (compile() of bytes, or a reader that compiles), _DISPLAY
    (the interpreter printing a traceback) or _TEXT (everyone else).
    `stateless`: the codec's decode function (the compiler's way, and
    bytes.decode's), not an incremental decoder or stream reader (a text
    reader's, or the interpreter's reading of its script)"""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and frame.f_globals.get('__name__') in _OWN_MODULES:
        frame = frame.f_back
    if frame is None:
        # The interpreter itself: running a script, it reads on from the end
        # of the cookie's line (so the text starts with that line's newline);
        # printing a traceback (3.9-3.12), it reads the file from its start.
        return _SCRIPT if data[:1] in (b'\n', b'\r') else _DISPLAY
    if not stateless:
        return _TEXT
    if (frame.f_globals.get('__name__'), frame.f_code.co_name) in _COMPILING_READERS:
        return _COMPILE
    if not _watching:
        # the first: a compile that is under way started before the hook was there
        _watch_compiles()
        return _COMPILE if _looks_like_compile(frame) else _TEXT
    return _COMPILE if _compiles.get(_get_ident()) == (id(frame), frame.f_lasti) else _TEXT


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
    return _decode(data, errors, True)


def _decode(data, errors: str, stateless: bool) -> 'tuple[str, int]':
    reader = _reader(data, stateless)
    if reader in (_TEXT, _DISPLAY):
        if reader == _DISPLAY:
            errors = 'replace'
        return codecs.utf_8_decode(data, errors, True)
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
        from lazy_codec.rewrite.emitter import undecodable

        return undecodable(bytes(data), first_line), len(data)
    if _NATIVE:
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
        return _decode(input, errors, False)


class StreamReader(codecs.StreamReader):
    _text = None

    def _all(self):
        if self._text is None:
            import io

            self._text = io.StringIO(_decode(self.stream.read(), self.errors, False)[0])
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
