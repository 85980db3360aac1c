"""The source to compile for a module's bytes, from bytes (what importlib's
loaders and pytest's assertion rewriter hand over): a file with the `lazy`
cookie, and 3.15 source without it that failed to compile."""

from lazy_codec.rewrite.cookie import cookie_name
from lazy_codec.rewrite.emitter import last_candidate, rewrite, undecodable

_BOM = b'\xef\xbb\xbf'
UTF_8_COOKIES = (None, b'utf-8', b'utf8')  # cookie_name's for a file read as UTF-8 (None: no cookie)


def rewritten_text(data: bytes, every_import: bool = False):
    """the source to compile for `data`, which has the `lazy` cookie: the
    rewrite, as text; bytes left to the codec where the interpreter reports
    an error of its own (a BOM before a cookie that is not UTF-8's)"""
    if data.startswith(_BOM):
        return data
    try:
        text = data.decode('utf-8')
    except UnicodeDecodeError:
        return undecodable(data)
    return rewrite(_universal_newlines(text), 1, every_import)


def _universal_newlines(text: str) -> str:
    # as importlib's decode_source reads source: the compiler of bytes does
    # the same, and a rewrite's columns count from each line's start
    if '\r' not in text:
        return text
    return text.replace('\r\n', '\n').replace('\r', '\n')


def source_of_lazy_syntax(data, every_import: bool = False) -> 'str | None':
    """the rewrite of `data`, a module without the `lazy` cookie that failed
    to compile, if lazy syntax is why; else None (the error stands)"""
    if type(data) is not bytes or b'lazy' not in data:
        return None  # the cheap test: most SyntaxErrors stop here
    bom = data.startswith(_BOM)
    name = cookie_name(data[len(_BOM) :] if bom else data)
    if bom and name not in UTF_8_COOKIES:
        return None  # the interpreter's own error: a cookie that contradicts the BOM
    try:
        if name in UTF_8_COOKIES:
            text = data.decode('utf-8-sig')
        else:
            text = data.decode(name.decode('ascii'))
    except (LookupError, UnicodeDecodeError):
        return None
    text = _universal_newlines(text)
    if last_candidate(text) < 0:
        return None
    out = rewrite(text, 1, every_import)
    return None if out == text else out
