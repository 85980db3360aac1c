"""FastAPI: an app with routes and a pydantic body, called through its TestClient;
the warnings (category and the file:line they name) are part of the output."""

import json
import warnings

from _common import lazy_state, show, show_warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    import app

    with app.client() as client:
        show('started', app.STARTED)
        for method, url, body in [
            ('post', '/items', {'name': 'widget', 'price': '1.50', 'tags': ['a'], 'due': '2024-02-29'}),
            ('post', '/items', {'name': 'gadget', 'price': 2}),
            ('post', '/items', {'name': '', 'price': 'x'}),
            ('get', '/items/1', None),
            ('get', '/items/9', None),
            ('get', '/search?q=dget', None),
            ('get', '/search?q=toolong', None),
            ('get', '/legacy', None),
            ('get', '/status', None),
        ]:
            r = client.request(method, url, json=body)
            try:
                payload = r.json()
            except ValueError:
                payload = r.text
            if isinstance(payload, dict) and 'detail' in payload and isinstance(payload['detail'], list):
                payload = [(d['type'], d['loc']) for d in payload['detail']]
            show(f'{method} {url}', (r.status_code, r.headers.get('content-type'), payload))
        schema = client.get('/openapi.json').json()
    show('openapi paths', sorted(schema['paths']))
    show('openapi schemas', sorted(schema['components']['schemas']))
    show('openapi', json.dumps(schema, sort_keys=True)[:2000])
show_warnings('run', caught)
lazy_state(app)
