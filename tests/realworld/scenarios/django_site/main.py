"""Django: a one-file settings module (settings.configure, django.setup),
model-less views, a template render and the test client."""

import warnings

from _common import lazy_state, show, show_warnings

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter('always')
    import app

    app.configure()
    from django.test import Client

    client = Client()
    for url in ['/hello/Big%20World/', '/data/?q=z', '/page/', '/missing/', '/nowhere/', '/data']:
        r = client.get(url)
        show(
            f'get {url}', (r.status_code, r.get('Content-Type'), r.get('Location'), r.content.decode()[:300])
        )
    r = client.post('/echo/', data='{"a": [1, 2]}', content_type='application/json')
    show('post /echo/', (r.status_code, r.content.decode()))
    from django.template.loader import render_to_string

    show('render_to_string', render_to_string('page.html', {'n': 1}, using='django'))
show_warnings('run', caught)
lazy_state(app)
