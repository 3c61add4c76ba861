"""Settings for the test suite: `make test` passes DATABASE_URL/REDIS_URL of throw-away services."""

from __future__ import annotations

import os

from cryptography.fernet import Fernet

from config import embedded

from .base import *  # noqa: F403
from .base import VAR_DIR, database_config

DEBUG = False
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
SECRET_KEY = "test-only-secret-key-not-used-anywhere-else-0123456789"
# Two keys, so every test runs with a rotation in place (new key first, old key still readable).
# A worker process started by a test (tests/security/test_real_services.py) is handed the same keys.
LOREKEEPER_FERNET_KEYS = (os.environ["LOREKEEPER_FERNET_KEYS"].split(",") if os.environ.get("LOREKEEPER_FERNET_KEYS")
                          else [Fernet.generate_key().decode(), Fernet.generate_key().decode()])

DATABASE_URL = os.environ.get("DATABASE_URL") or embedded.ensure_postgres(VAR_DIR / "test")[0]
REDIS_URL = os.environ.get("REDIS_URL") or embedded.ensure_redis(VAR_DIR / "test")[0]
DATABASES = {"default": database_config(DATABASE_URL)}
# Tests open a fresh connection per request; the benchmarks keep them, as production does.
DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("LOREKEEPER_CONN_MAX_AGE", "0"))
CELERY_BROKER_URL = REDIS_URL
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
