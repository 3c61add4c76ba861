"""The Celery application: `celery -A config worker` and `celery -A config beat`.

DJANGO_SETTINGS_MODULE is set by whoever starts the process (`make run`, the
production service files, manage.py, wsgi.py): importing this module must not
pick an environment by itself, because `python -m config.embedded` imports the
config package too and passes its environment on to the test runner.
"""

from celery import Celery

app = Celery("lorekeeper")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
