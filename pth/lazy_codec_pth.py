# The source of lazy_codec.pth's one line (python pth/make_pth.py writes it).
# It runs at every interpreter start in the environment, so it imports
# nothing: `codecs`, `os`, `sys` and `builtins` are loaded by then.  It
# registers the `lazy` codec, whose module is imported only when a file with
# the cookie is decoded; on 3.9-3.14 it also puts 3.15's sys API in place as
# stubs that load the runtime when first called, and reads
# -X lazy_imports / PYTHON_LAZY_IMPORTS / LAZY_CODEC_LAZY_MODULES /
# LAZY_CODEC_REPORT, which are rare, through a module.
import builtins, os, sys


def search(name):
    if name != 'lazy':
        return None
    try:
        from lazy_codec._codec import search
    except ImportError as exc:
        raise LookupError(
            f'unknown encoding: lazy (the lazy_codec package that registers it is not '
            f'importable: {exc}; reinstall it: pip install lazy_codec)'
        ) from None
    return search(name)


# in a venv, site can process site-packages twice: once is enough
if sys.version_info >= (3, 15):
    codecs.register(search)
elif not hasattr(sys, 'set_lazy_imports'):
    codecs.register(search)

    def api(name):
        def call(*args, **kwargs):
            from lazy_codec import _runtime
            return getattr(_runtime, name)(*args, **kwargs)
        call.__name__ = call.__qualname__ = name
        return call

    for name in ('set_lazy_imports', 'get_lazy_imports', 'set_lazy_imports_filter',
                 'get_lazy_imports_filter'):
        setattr(sys, name, api(name))
    sys.lazy_modules = set()
    builtins.__lazy_import__ = api('__lazy_import__')
    mode = (sys._xoptions.get('lazy_imports'), os.environ.get('PYTHON_LAZY_IMPORTS') or None,
            os.environ.get('LAZY_CODEC_LAZY_MODULES'), os.environ.get('LAZY_CODEC_REPORT'))
    if mode != (None, None, None, None):
        try:
            from lazy_codec._startup import apply
        except ImportError:
            pass
        else:
            apply(*mode)
