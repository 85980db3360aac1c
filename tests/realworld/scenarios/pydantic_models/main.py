"""pydantic: models with `from __future__ import annotations`, validators,
computed fields, JSON schema, forward references to lazily imported types."""

import warnings

from _common import lazy_state, show, show_warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    import app

    order = app.Order(
        id='12345678-1234-5678-1234-567812345678',
        when='2024-02-29',
        items=[{'name': '  widget ', 'price': '1.50', 'tags': ['a']}, {'name': 'gadget', 'price': 2}],
        extra={'x': '3'},
    )
    show('order', order)
    show('dump', order.model_dump(mode='json'))
    show('json', order.model_dump_json())
    show('total', order.total)
    nested = app.Order(id=order.id, when=order.when, items=order.items[:1], parent=order, kind='wholesale')
    show('nested', app.dumps(nested.model_dump()))
    try:
        app.Order(id='nope', when='2024-13-01', items=[{'name': 'x', 'price': 'p', 'tags': list('abcd')}])
    except Exception as exc:
        show('invalid', (app.is_error(exc), app.error_summary(exc)))
    try:
        app.Order(id=order.id, when=order.when, items=[])
    except Exception as exc:
        show('empty', (app.is_error(exc), app.error_summary(exc)))
    show('schema', app.dumps(app.Order.model_json_schema()))
    show('fields', sorted(app.Order.model_fields))
    Host = app.host_model()
    show('host', Host(addr='10.0.0.1'))
    show('host schema', app.dumps(Host.model_json_schema()))
    show('adapter', app.adapter().validate_python(['1.1', 2]))
    show('copy', order.model_copy(update={'kind': 'wholesale'}).kind)
show_warnings('run', caught)
lazy_state(app)
