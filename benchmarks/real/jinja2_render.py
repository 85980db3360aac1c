"""jinja2: render a template (inheritance, a loop, a filter, autoescape)."""

from jinja2 import DictLoader, Environment, select_autoescape

env = Environment(
    loader=DictLoader(
        {
            'base.html': (
                '<title>{% block title %}{% endblock %}</title><ul>{% block body %}{% endblock %}</ul>'
            ),
            'page.html': (
                '{% extends "base.html" %}{% block title %}{{ title | upper }}{% endblock %}'
                '{% block body %}{% for item in items %}<li>{{ loop.index }}: {{ item }}</li>'
                '{% endfor %}{% endblock %}'
            ),
        }
    ),
    autoescape=select_autoescape(),
)
print(env.get_template('page.html').render(title='items', items=['a', '<b>', 'c']))
