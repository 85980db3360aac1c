"""requests: prepare a request through a session (nothing is sent)."""

import requests

session = requests.Session()
request = requests.Request(
    'POST',
    'https://example.invalid/api/items',
    params={'page': 2},
    json={'name': 'widget', 'tags': ['a', 'b']},
    headers={'X-Trace': '1'},
    auth=('user', 'secret'),
)
prepared = session.prepare_request(request)
print(prepared.method, prepared.url, sorted(prepared.headers), len(prepared.body))
