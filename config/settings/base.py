"""Settings shared by every environment; dev, test and production import from here."""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(os.environ.get("LOREKEEPER_VAR_DIR", BASE_DIR / "var"))

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django_htmx",
    "template_partials",
    "guardian",
    "axes",
    "teams",
    "memory",
    "consolidation",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The browser's language (cookie, then Accept-Language); PanelLanguageMiddleware below lets a logged-in
    # user's own choice win and keeps the API English.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.PanelLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.VaryOnHtmxMiddleware",
    "config.middleware.ContentSecurityPolicyMiddleware",
    "config.middleware.DatabaseUnavailableMiddleware",
    "config.middleware.DeniedChangeAuditMiddleware",
    # Axes last: it needs the authenticated user and answers locked-out logins itself.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "consolidation.context_processors.pending_proposals",
            ],
        },
    },
]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "guardian.backends.ObjectPermissionBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
# The panel speaks these; the API's sentences stay English (config.middleware.PanelLanguageMiddleware).
LANGUAGES = [("en", "English"), ("nl", "Nederlands"), ("de", "Deutsch"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["config.formats"]
# The header's choice for a browser that is not logged in (a logged-in user's is on the account): a year, not
# readable by scripts, sent on top-level navigation only.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_HTTPONLY = True
LANGUAGE_COOKIE_SAMESITE = "Lax"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"

# Guardian: anonymous users get no object permissions, so no anonymous user row is needed.
ANONYMOUS_USER_NAME = None
GUARDIAN_RAISE_403 = False

# Login throttling: five failed attempts for one username from one address lock it for 15 minutes.
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = 0.25
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True

# The bot API refuses bodies above 64 KiB (API.md, Limits), and above 3 MiB those of POST …/messages (100 messages of
# 4,000 characters, as JSON escapes them); Django's own limit sits just above the larger.
API_MAX_BODY_BYTES = 64 * 1024
API_MAX_MESSAGES_BODY_BYTES = 3 * 1024 * 1024
# Requests one bot token may send per minute (429 with Retry-After beyond; 0 turns the limit off).
# Counted in the cache (Redis); when the cache is down the API keeps answering, unlimited.
LOREKEEPER_API_REQUESTS_PER_MINUTE = int(os.environ.get("LOREKEEPER_API_REQUESTS_PER_MINUTE", "3000"))
DATA_UPLOAD_MAX_MEMORY_SIZE = API_MAX_MESSAGES_BODY_BYTES + 64 * 1024
# How long a model endpoint may take to answer one call before the reply fails with 503.
LOREKEEPER_MODEL_TIMEOUT_S = float(os.environ.get("LOREKEEPER_MODEL_TIMEOUT_S", "60"))
# Messages `manage.py runbot` handles at once (of different channels; one channel's wait their turn). The bot holds
# one database connection more than this (memory.bot.discord_concurrency): size the database for it.
LOREKEEPER_DISCORD_CONCURRENCY = int(os.environ.get("LOREKEEPER_DISCORD_CONCURRENCY", "8"))


def database_config(url: str) -> dict:
    config = dj_database_url.parse(url, conn_max_age=60, conn_health_checks=True)
    # Django's backend with a cheaper health check and timestamp loading (config/postgresql/base.py).
    config["ENGINE"] = "config.postgresql"
    config.setdefault("OPTIONS", {})
    # Parameters bound by the server, and a statement a connection runs a fifth time prepared: planning
    # the bot's busiest statement (token, server and newest facts in one) took 0.7 of its 0.9-1.4 ms of
    # PostgreSQL CPU; prepared, the statement costs 0.18-0.25 ms, and psycopg no longer writes the
    # parameters into the SQL text (0.1-0.2 ms of Python). Django leaves both off for PgBouncer in
    # transaction mode: behind one, use PgBouncer 1.21+ with max_prepared_statements set (README).
    # Server-side binding takes no parameter in SET: code sets run-time settings with set_config().
    config["OPTIONS"].setdefault("server_side_binding", True)
    config["OPTIONS"].setdefault("prepare_threshold", 5)
    return config


def redis_url_or_none() -> str | None:
    return os.environ.get("REDIS_URL") or None


CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# One beat schedule for the whole project; each entry says in plain words why it runs.
CELERY_BEAT_SCHEDULE: dict = {
    # Queues a consolidation round for each Consolidated/Semantic server that went quiet (or has not
    # had one for a week); consolidation.rounds says when a round refuses itself.
    "consolidation-rounds": {"task": "consolidation.tasks.schedule_consolidation_rounds", "schedule": 15 * 60},
    # Work that could not be queued (Redis down) or that a dead worker left: found in the database, queued again.
    "sweep-embeddings": {"task": "memory.tasks.sweep_embeddings", "schedule": 10 * 60},
    "sweep-consolidation-rounds": {"task": "consolidation.tasks.sweep_consolidation_rounds", "schedule": 10 * 60},
    # A server that grew large gets word and vector indexes of its own (memory.indexing.server_indexes says why).
    "maintain-server-indexes": {"task": "memory.tasks.maintain_server_indexes", "schedule": 10 * 60},
    # Members' words are not kept forever: exchange logs past their server's limit lose their text, once a day;
    # the answers kept for Idempotency-Keys older than a day go too.
    "trim-exchange-logs": {"task": "memory.tasks.trim_exchange_logs", "schedule": 24 * 60 * 60},
    # Servers that leave Memory language empty take the language their memory is in; a language re-index whose
    # worker died is queued again (memory.indexing.words_language).
    "detect-memory-languages": {"task": "memory.tasks.detect_memory_languages", "schedule": 60 * 60},
    # Learning from members' messages (memory.learning.runs): a run for each server with unread messages and no
    # live run, so a run a killed worker left is resumed and messages whose queueing failed are read.
    "schedule-learning-runs": {"task": "memory.tasks.schedule_learning_runs", "schedule": 60},
}
# Memory one build of a server's own index may use (PostgreSQL's maintenance_work_mem); an index that
# does not fit is still built, more slowly. A million 384-dimension vectors need about 3GB.
LOREKEEPER_SERVER_INDEX_BUILD_MEMORY = os.environ.get("LOREKEEPER_SERVER_INDEX_BUILD_MEMORY", "512MB")
# Queueing must fail fast when Redis is down (config/queue.py logs it and the sweepers catch up).
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_TIMEOUT = 2
# Hours without an exchange or a memory change after which a server counts as quiet.
LOREKEEPER_CONSOLIDATION_QUIET_HOURS = float(os.environ.get("LOREKEEPER_CONSOLIDATION_QUIET_HOURS", "2"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": "INFO"},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
