"""A helper module that warns at import, naming its importer (stacklevel=2),
as deprecated modules of frameworks do."""

import warnings

warnings.warn('legacy_tools is deprecated', DeprecationWarning, stacklevel=2)


def shout(text):
    return text.upper()
