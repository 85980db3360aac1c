"""attrs/cattrs: attrs.define classes with string annotations, attrs.resolve_types,
cattrs.structure/unstructure."""

import warnings

from _common import lazy_state, show, show_warnings, type_name

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    import app

    show('annotations', app.Shape.__annotations__)
    show('types', {k: type_name(v) for k, v in app.resolve().items()})
    c = app.converter()
    raw = {
        'name': 'tri',
        'kind': 'polygon',
        'points': [{'x': 0}, {'x': 1, 'y': '2'}, {'x': 2, 'y': 0}],
        'created': '2024-02-29',
        'weight': 2.5,
        'meta': {'area': 1},
    }
    shape = c.structure(raw, app.Shape)
    show('shape', shape)
    show('unstructured', c.unstructure(shape))
    show('asdict', app.attrs.asdict(shape, recurse=True))
    show('evolve', app.attrs.evolve(shape, name='quad').name)
    show('tag', c.structure({'label': 'x'}, app.Tag))
    try:
        c.structure({'name': 'bad', 'kind': 'circle'}, app.Shape)
    except Exception as exc:
        show('bad', (type(exc).__name__, [type(e).__name__ for e in getattr(exc, 'exceptions', [])]))
    try:
        app.Tag('')
    except ValueError as exc:
        show('empty tag', type(exc).__name__)
    show('fields', [f.name for f in app.attrs.fields(app.Shape)])
    show('has', (app.attrs.has(app.Shape), app.attrs.has(dict)))
show_warnings('run', caught)
lazy_state(app)
