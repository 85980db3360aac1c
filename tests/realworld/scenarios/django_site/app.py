# -*- coding: lazy -*-
"""A one-file Django site: settings (settings.configure), URLs and views, a
template rendered by Django's engine."""

lazy import json
lazy import secrets

lazy import django
lazy from django.conf import settings
lazy from django.http import Http404, HttpResponse, JsonResponse
lazy from django.template import Context, Engine
lazy from django.urls import path, reverse
lazy from django.utils.text import slugify

LOCMEM = 'django.template.loaders.locmem.Loader'


def configure():
    settings.configure(
        DEBUG=False,
        SECRET_KEY='not-a-secret',
        ROOT_URLCONF=__name__,
        ALLOWED_HOSTS=['testserver'],
        INSTALLED_APPS=[],
        MIDDLEWARE=['django.middleware.common.CommonMiddleware'],
        USE_TZ=True,
        TIME_ZONE='UTC',
        TEMPLATES=[
            {
                'NAME': 'django',
                'BACKEND': 'django.template.backends.django.DjangoTemplates',
                'OPTIONS': {'loaders': [(LOCMEM, {'page.html': 'n={{ n }}'})]},
            }
        ],
    )
    django.setup()


def hello(request, name):
    return HttpResponse(f'hello {slugify(name)}')


def data(request):
    return JsonResponse({'q': request.GET.get('q'), 'items': [1, 2, 3], 'url': reverse('hello', args=['x'])})


def page(request):
    template = Engine.get_default().from_string(
        '<ul>{% for x in xs %}<li>{{ x|upper }}</li>{% endfor %}</ul>{{ n|add:2 }} {{ d|date:"Y-m-d" }}'
    )
    import datetime

    return HttpResponse(
        template.render(Context({'xs': ['a', '<b>'], 'n': 40, 'd': datetime.date(2024, 2, 29)}))
    )


def missing(request):
    raise Http404('nothing here')


def echo(request):
    return JsonResponse({'body': json.loads(request.body)})


urlpatterns = [
    path('hello/<str:name>/', hello, name='hello'),
    path('data/', data),
    path('page/', page),
    path('missing/', missing),
    path('echo/', echo),
]


def token():
    """never called: `secrets` stays lazy"""
    return secrets.token_hex(4)
