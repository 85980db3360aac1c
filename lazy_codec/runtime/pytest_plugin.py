"""A pytest plugin (entry point `pytest11`): test modules and conftest.py
files that pytest's assertion rewriter loads are compiled as the source
loaders compile modules (lazy_codec/_loader.py): 3.15 source without the
cookie (which pytest's own compile rejects on 3.9-3.14) through the rewrite;
and in mode "all", their imports lazy too, as 3.15's interpreter-wide mode
gives them.

pytest reads and compiles those files itself (_pytest.assertion.rewrite:
_rewrite_test), so the finder of lazy_codec.runtime.mode_all never sees them.  Here that
function is given the file's source after lazy_codec's rewrite (the same
lines: the assertion rewriter's line table stays right), and the bytecode
pytest caches goes to a file of its own tag, apart from the eager one.  In
any other mode, and on 3.15+, pytest runs as without this plugin; loading
it imports nothing of the runtime.  (lazy_codec's docstring says
PYTEST_DONT_REWRITE: pytest would otherwise warn, in mode "all", that this
plugin's package was imported before it could rewrite its asserts.)
"""

import sys

# the tag added to pytest's own: a cache written in mode "all" is never read
# in another mode, nor the other way round
TAG = '-lazyall3'


def _mode_all() -> bool:
    hooks = sys.modules.get('lazy_codec.runtime.mode_all')
    return hooks is not None and hooks.installed()


def _reach_test_modules() -> None:
    """(when pytest loads this plugin: before conftest.py files are imported)"""
    if sys.version_info >= (3, 15):
        return
    try:
        from _pytest.assertion import rewrite
    except ImportError:
        return
    plain = getattr(rewrite, '_rewrite_test', None)
    if plain is None or getattr(plain, '_lazy_codec', False) or not hasattr(rewrite, 'PYC_TAIL'):
        return  # a pytest this plugin does not know: its modules stay eager

    # what the wrapper uses, imported now: pytest would otherwise rewrite and
    # import lazy_codec's own modules (it marks a plugin's package for its
    # rewrite) from inside the wrapper, which they would reach again
    import os
    from importlib.util import source_hash

    from lazy_codec.rewrite import cookie, emitter, lexer, statements, verdicts  # noqa: F401
    from lazy_codec.rewrite.sources import UTF_8_COOKIES, source_of_lazy_syntax
    from lazy_codec.runtime.mode_all import rewritten_source_bytes

    ours = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep

    def _rewrite_test(fn, config):
        if str(fn).startswith(ours):
            return plain(fn, config)
        if not _mode_all():
            try:
                return plain(fn, config)
            except SyntaxError:
                source = fn.read_bytes()
                # (pytest compiles the bytes it reads: the rewrite goes back as UTF-8)
                text = source_of_lazy_syntax(source) if cookie.cookie_name(source) in UTF_8_COOKIES else None
                if text is None:
                    raise
            lazy_source = text.encode('utf-8')
        else:
            source = fn.read_bytes()
            lazy_source = rewritten_source_bytes(source)
            if lazy_source is None:
                return plain(fn, config)

        # (fn's own class, whichever pathlib's it is, reading the rewrite)
        rewritten = type('_Rewritten', (type(fn),), {'read_bytes': lambda self: lazy_source})
        first, code = plain(rewritten(fn), config)
        if type(first) is bytes:  # pytest 8.4+: the source hash, of the file as it is
            first = source_hash(source)
        return first, code

    setattr(_rewrite_test, '_lazy_codec', True)
    setattr(_rewrite_test, '__wrapped__', plain)
    rewrite._rewrite_test = _rewrite_test
    if _mode_all() and not rewrite.PYC_TAIL.endswith(TAG + rewrite.PYC_EXT):
        rewrite.PYC_TAIL = rewrite.PYC_TAIL[: -len(rewrite.PYC_EXT)] + TAG + rewrite.PYC_EXT


_reach_test_modules()
