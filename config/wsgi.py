"""WSGI entry point for gunicorn: `gunicorn config.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

from config.heap import freeze_what_is_loaded

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

application = get_wsgi_application()
freeze_what_is_loaded()  # each worker imports this module: its start-up objects stay out of full collections
