"""SQLAlchemy ORM: declarative models, an in-memory SQLite session, queries."""

import warnings

from _common import lazy_state, show, show_warnings

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
