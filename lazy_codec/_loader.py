"""What importlib's source loaders compile, on 3.9-3.14: the work behind the
hooks that the .pth file puts on SourceLoader (_lazy_codec_pth.py: they test
cheaply, then call here).

- A file with the `lazy` cookie: its rewrite (`rewritten_text`), compiled as
  text, so that the codec's own decoding stays the file's exact text.
- A file without the cookie that does not compile (3.15 source: `lazy`
  statements and no cookie): compiled again through the rewrite when it has
  lazy syntax (`source_of_lazy_syntax`); a file that compiles never comes here.
- Code that names `__lazy_modules__` (valid on this interpreter, so it
  compiled): the rewrite in which its plain imports ask the runtime
  (`lazy_modules_code`), cached apart from its usual bytecode, which stays
  the plain code that runs without lazy_codec.

Their bytecode goes to the usual cache (the first two: that source does not
compile without lazy_codec), so that a later import loads it as any import
does.
"""

import sys

_BOM = b'\xef\xbb\xbf'
LAZY_MODULES_TAG = 'lazymods3'  # the optimization tag of __lazy_modules__ modules' bytecode


def _every_import() -> bool:
    hooks = sys.modules.get('lazy_codec.runtime.mode_all')
    return hooks is not None and hooks.installed()


def rewritten_text(data: bytes, path: str):
    """the source to compile for `data`, which has the `lazy` cookie: the
    rewrite, as text; bytes left to the codec where the interpreter reports
    an error of its own (a BOM before a cookie that is not UTF-8's)"""
    if data.startswith(_BOM):
        return data
    from lazy_codec.rewrite.emitter import rewrite, undecodable

    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError:
        return undecodable(data)
    return rewrite(_universal_newlines(text), 1, _every_import())


def _universal_newlines(text: str) -> str:
    # as importlib's decode_source reads source: the compiler of bytes does
    # the same, and a rewrite's columns count from each line's start
    if '\r' not in text:
        return text
    return text.replace('\r\n', '\n').replace('\r', '\n')


def source_of_lazy_syntax(data) -> 'str | None':
    """the rewrite of `data`, a module without the `lazy` cookie that failed
    to compile, if lazy syntax is why; else None (the error stands)"""
    if type(data) is not bytes or b'lazy' not in data:
        return None  # the cheap test: most SyntaxErrors stop here
    from lazy_codec.rewrite.cookie import cookie_name
    from lazy_codec.rewrite.emitter import last_candidate, rewrite

    name = cookie_name(data)
    try:
        if name in (None, b'utf-8', b'utf8') or data.startswith(_BOM):
            text = data.decode('utf-8-sig')
        else:
            text = data.decode(name.decode('ascii'))
    except (LookupError, UnicodeDecodeError):
        return None
    text = _universal_newlines(text)
    if last_candidate(text) < 0:
        return None
    out = rewrite(text, 1, _every_import())
    return None if out == text else out


def lazy_modules_code(loader, fullname: str):
    """the code of a module that names __lazy_modules__: its plain imports
    ask the runtime whether they are lazy (as on 3.15, where the interpreter
    reads __lazy_modules__ at each import); its bytecode is cached under its
    own tag, so that an interpreter without lazy_codec never loads it"""
    from lazy_codec.runtime.mode_all import cached_code

    return cached_code(loader, fullname, LAZY_MODULES_TAG)
