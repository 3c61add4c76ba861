"""Project configuration: settings, URLs, Celery app and the embedded services for development."""

from .celery import app as celery_app

__all__ = ["celery_app"]
