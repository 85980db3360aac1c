"""SQLAlchemy ORM: declarative models, an in-memory SQLite session, queries."""

import sys
import warnings

from _common import lazy_state, show, show_warnings

# In mode "all", SQLAlchemy's own imports made lazy break it on 3.15 itself:
# sqlalchemy.sql's package init imports every module of `util.preloaded`'s registry
# (a set) while the `@preload_module` decorators of modules not imported yet add to
# it (RuntimeError: Set changed size during iteration), and its events need its
# modules imported in order. The filter keeps SQLAlchemy's imports of its own
# modules eager (PEP 810's way to leave out a package that mode "all" breaks); the
# application's and the standard library's stay lazy.
if hasattr(sys, 'set_lazy_imports_filter'):
    sys.set_lazy_imports_filter(lambda importer, name, fromlist: importer.partition('.')[0] != 'sqlalchemy')

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    import app

    show('tables', sorted(app.Base.metadata.tables))
    show('columns', [(c.name, str(c.type), c.nullable) for c in app.User.__table__.columns])
    session = app.make_session()
    app.seed(session)
    users, counts, loaded, left = app.queries(session)
    show('users', users)
    show('counts', counts)
    show('loaded', loaded)
    show('left', left)
    show('balance', [(u.name, u.balance) for u in users])
    show('mapper', sorted(app.User.__mapper__.relationships.keys()))
    session.close()
show_warnings('run', caught)
lazy_state(app)
