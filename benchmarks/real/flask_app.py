"""A flask app with one route, hit once through the test client."""

from flask import Flask

app = Flask(__name__)


@app.route('/hello/<name>')
def hello(name):
    return {'greeting': f'hello {name}'}


with app.test_client() as client:
    response = client.get('/hello/world')
print(response.status_code, response.get_json())
