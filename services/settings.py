"""Django settings. Every deploy-specific value comes from the environment.

Database roles (see docs/operations.md):
  DATABASE_URL        runtime role ``spades_app`` (DML only), used by running services.
  DATABASE_OWNER_URL  owner role ``spades_owner`` (DDL, CREATEDB), used for migrations
                      and tests; selected by ``SPADES_DB_ROLE=owner``.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from services.dburl import parse_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str) -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (1/0, true/false), got {raw!r}")


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


# ---------------------------------------------------------------- core
DEBUG = env_bool("DEBUG", False)
# The default is only for development; `manage.py check --deploy` flags it.
SECRET_KEY = env_str("SECRET_KEY", "django-insecure-spades-dev-only-change-me")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "daphne",  # must precede staticfiles: `runserver` then serves ASGI (HTTP + WebSocket)
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "channels",
    "accounts",
    "eventstore",
    "games",
    "scoring",
    "bots",
    "games.live",  # after-commit fan-out and bot dispatch (receivers connected in ready())
    "web",  # the browser client: play page and score calculator
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Serves /static/ (the browser client's JS and CSS) from daphne too, without a CDN.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "services.urls"
WSGI_APPLICATION = "services.wsgi.application"
ASGI_APPLICATION = "services.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# ---------------------------------------------------------------- database (PostgreSQL only)
DEFAULT_APP_DATABASE_URL = "postgresql://spades_app:spades_app@127.0.0.1:5432/spades"
DEFAULT_OWNER_DATABASE_URL = "postgresql://spades_owner:spades_owner@127.0.0.1:5432/spades"

SPADES_DB_ROLE = env_str("SPADES_DB_ROLE", "app").strip().lower() or "app"
if SPADES_DB_ROLE not in {"app", "owner"}:
    raise ImproperlyConfigured(f"SPADES_DB_ROLE must be 'app' or 'owner', got {SPADES_DB_ROLE!r}")

if SPADES_DB_ROLE == "owner":
    _db_env, _db_default = "DATABASE_OWNER_URL", DEFAULT_OWNER_DATABASE_URL
else:
    _db_env, _db_default = "DATABASE_URL", DEFAULT_APP_DATABASE_URL

DATABASES = {
    "default": {
        **parse_database_url(env_str(_db_env, _db_default), env_name=_db_env),
        # ASGI serves requests from threads; persistent connections stay opt-in.
        "CONN_MAX_AGE": int(env_str("DB_CONN_MAX_AGE", "0")),
        "CONN_HEALTH_CHECKS": True,
        # Lets several test runs share one server without dropping each other's database.
        "TEST": {"NAME": env_str("SPADES_TEST_DB_NAME", "test_spades")},
    }
}
# Server-side prepared statements, used only by the event store's append (the one hot
# statement; Django's own queries bind on the client and never prepare). psycopg needs a
# threshold set on the connection for any preparation; Django leaves it unset for
# transaction-mode poolers, so set DB_PREPARED_STATEMENTS=false behind such a pooler.
_db_options = DATABASES["default"]["OPTIONS"]
if "prepare_threshold" in _db_options:  # given in the URL's query string: text
    try:
        _db_options["prepare_threshold"] = int(_db_options["prepare_threshold"])
    except ValueError:
        raise ImproperlyConfigured(
            f"prepare_threshold in {_db_env} must be a whole number, "
            f"got {_db_options['prepare_threshold']!r}"
        ) from None
elif env_bool("DB_PREPARED_STATEMENTS", True):
    _db_options["prepare_threshold"] = 5
# Always validate the runtime URL too, so a bad DATABASE_URL fails at start-up even when
# migrations run as the owner.
parse_database_url(env_str("DATABASE_URL", DEFAULT_APP_DATABASE_URL), env_name="DATABASE_URL")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# ---------------------------------------------------------------- Redis: channels, celery
REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6379/0")

# The pub/sub layer: a group_send is one PUBLISH (the core layer runs a Lua script over
# sorted sets per group member); measured in benchmarks/live.py, docs/live.md.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL]},
    }
}

CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", REDIS_URL)
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND", REDIS_URL)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"

# ---------------------------------------------------------------- live play
# A bot due for longer than this (seconds) has its turn re-sent by the watchdog.
BOT_OVERDUE_SECONDS = float(env_str("SPADES_BOT_OVERDUE_SECONDS", "3"))
# Seconds between a WebSocket consumer's checks of its table's version while no commit
# notice arrives (the safety net for a lost notice).
WS_RESYNC_SECONDS = float(env_str("SPADES_WS_RESYNC_SECONDS", "5"))

# ---------------------------------------------------------------- auth, i18n, static
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# Serve straight from the apps' static/ folders, so no collectstatic step is needed to run
# (nor is STATIC_ROOT, which only exists after a collectstatic: don't warn about it).
WHITENOISE_USE_FINDERS = True
warnings.filterwarnings("ignore", message="No directory at: .*staticfiles")

# ---------------------------------------------------------------- REST API
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    ],
    "DEFAULT_PARSER_CLASSES": ["services.api.parsers.SafeJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "services.api.errors.api_exception_handler",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Spades platform API",
    "DESCRIPTION": "Event-sourced Spades platform for leagues, clubs, auditors and players.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
}

# ---------------------------------------------------------------- logging (stdout)
LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "plain",
        },
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
    },
}
