"""Settings for `make run`: DEBUG on, embedded PostgreSQL and Redis unless URLs are given."""

from __future__ import annotations

import os

from config import embedded
from config.local_secrets import local_fernet_keys, local_secret_key

from .base import *  # noqa: F403
from .base import VAR_DIR, database_config

DEBUG = True
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]", "testserver"]
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or local_secret_key(VAR_DIR)
LOREKEEPER_FERNET_KEYS = (
    os.environ["LOREKEEPER_FERNET_KEYS"].split(",")
    if os.environ.get("LOREKEEPER_FERNET_KEYS")
    else local_fernet_keys(VAR_DIR)
)

# A manage.py command run on its own (outside `make run`) starts the embedded services itself.
DATABASE_URL = os.environ.get("DATABASE_URL") or embedded.ensure_postgres(VAR_DIR)[0]
REDIS_URL = os.environ.get("REDIS_URL") or embedded.ensure_redis(VAR_DIR)[0]
DATABASES = {"default": database_config(DATABASE_URL)}
CELERY_BROKER_URL = REDIS_URL
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL},
}
WHITENOISE_USE_FINDERS = True
