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

The bytecode of the first two goes to the usual cache (that source does not
compile without lazy_codec), so that a later import loads it as any import
does.
"""

import sys

from lazy_codec.rewrite import sources

LAZY_MODULES_TAG = 'lazymods3'  # the optimization tag of __lazy_modules__ modules' bytecode


def every_import() -> bool:
    """is mode "all" on?  (Asked without loading the runtime: its hooks'
    module is loaded only once the mode is on)"""
    hooks = sys.modules.get('lazy_codec.runtime.mode_all')
    return hooks is not None and hooks.installed()


def rewritten_text(data: bytes):
    return sources.rewritten_text(data, every_import())


def source_of_lazy_syntax(data) -> 'str | None':
    return sources.source_of_lazy_syntax(data, every_import())


def lazy_modules_code(loader, fullname: str):
    """the code of a module that names __lazy_modules__: its plain imports
    ask the runtime whether they are lazy (as on 3.15, where the interpreter
    reads __lazy_modules__ at each import); its bytecode is cached under its
    own tag, so that an interpreter without lazy_codec never loads it"""
    from lazy_codec.runtime.mode_all import cached_code

    return cached_code(loader, fullname, LAZY_MODULES_TAG)
