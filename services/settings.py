"""Django settings. Every deploy-specific value comes from the environment.

Database roles (see docs/operations.md):
  DATABASE_URL        runtime role ``spades_app`` (DML only), used by running services.
  DATABASE_OWNER_URL  owner role ``spades_owner`` (DDL, CREATEDB), used for migrations
                      and tests; selected by ``SPADES_DB_ROLE=owner``.
"""

from __future__ import annotations

import os
import warnings
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from services.dburl import parse_database_url
from services.email_url import parse_email_url
from telemetry.errors import init_error_reporting
from telemetry.networks import Network, parse_networks

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


def env_networks(name: str, default: str) -> list[Network]:
    """Comma-separated IP addresses or networks (CIDR)."""
    try:
        return parse_networks(env_list(name, default))
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}: {exc}") from None


def env_int(name: str, default: int, *, low: int = 0, high: int = 2**31 - 1) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw.strip())
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {raw!r}") from None
    if not low <= value <= high:
        raise ImproperlyConfigured(f"{name} must be between {low} and {high}, got {value}")
    return value


# ---------------------------------------------------------------- core
DEBUG = env_bool("DEBUG", False)
# Public, for development only: with DEBUG off the process refuses to start on it (or on
# no key at all), since it would let anyone sign sessions and password-reset links.
DEVELOPMENT_SECRET_KEY = "django-insecure-spades-dev-only-change-me"
SECRET_KEY = os.environ.get("SECRET_KEY") or (DEVELOPMENT_SECRET_KEY if DEBUG else "")
if not DEBUG and SECRET_KEY in {"", DEVELOPMENT_SECRET_KEY}:
    raise ImproperlyConfigured(
        "SECRET_KEY must be set to a long random value of your own when DEBUG is off "
        "(the development key is public); generate one with "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`."
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

# ---------------------------------------------------------------- HTTPS (docs/operations.md)
# Off by default (bin/run serves plain HTTP on loopback); the production profile of
# docker-compose.yml turns them on. Behind a TLS-terminating proxy, also set
# SECURE_PROXY_SSL_HEADER (e.g. "HTTP_X_FORWARDED_PROTO,https"), or every request looks
# like plain HTTP and SECURE_SSL_REDIRECT loops.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
# The health checks and the metrics scraper probe plain HTTP from inside the deployment.
SECURE_REDIRECT_EXEMPT = [r"^api/health$", r"^livez$", r"^readyz$", r"^metrics$"]
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0, high=2 * 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
_proxy_ssl_header = env_list("SECURE_PROXY_SSL_HEADER", "")
if _proxy_ssl_header:
    if len(_proxy_ssl_header) != 2 or not _proxy_ssl_header[0].startswith("HTTP_"):
        raise ImproperlyConfigured(
            "SECURE_PROXY_SSL_HEADER must be HEADER,VALUE with the header in META form, "
            f"e.g. HTTP_X_FORWARDED_PROTO,https; got {env_str('SECURE_PROXY_SSL_HEADER', '')!r}"
        )
    SECURE_PROXY_SSL_HEADER = (_proxy_ssl_header[0], _proxy_ssl_header[1])

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
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc files served from /static/, no CDN
    "channels",
    "axes",  # the admin login lockout (accounts/lockout.py)
    "accounts",
    "eventstore",
    "games",
    "scoring",
    "bots",
    "leagues",
    "games.live",  # after-commit fan-out and bot dispatch (receivers connected in ready())
    "web",  # the browser client: play page and score calculator
]

MIDDLEWARE = [
    # First: every request's id, log context, access line and latency (services/request_log.py).
    "services.request_log.RequestLogMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Serves /static/ (the browser client's JS and CSS) from daphne too, without a CDN.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",  # Content-Security-Policy ("accounts" below)
    "axes.middleware.AxesMiddleware",  # last: answers a locked-out admin login with 429
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

# A bounded psycopg pool (docs/operations.md, "Database connections"). ``services.web``
# turns it on: daphne runs each request in a thread of its own, and with persistent
# connections every such thread kept one open until PostgreSQL refused new ones. The pool
# holds at most DB_POOL_MAX_SIZE per process; a request waits up to DB_POOL_TIMEOUT
# seconds for one. Workers and the projector are single-threaded per process and keep
# one persistent connection each (DB_CONN_MAX_AGE) instead.
DB_POOL = env_bool("DB_POOL", False)
DB_POOL_MIN_SIZE = env_int("DB_POOL_MIN_SIZE", 2, high=1000)
# The live consumers' reads run in asyncio's default thread pool (min(32, CPUs + 4)
# threads), each thread keeping the connection it took; the rest serve HTTP requests.
LIVE_READ_THREADS = min(32, (os.cpu_count() or 1) + 4)
# The table API's requests run in a pool of this many threads (services/http_threads.py),
# each holding a connection while it serves one; 2 more for Django's own request thread.
WEB_REQUEST_THREADS = env_int("WEB_REQUEST_THREADS", 8, low=1, high=256)
DB_POOL_MAX_SIZE = env_int(
    "DB_POOL_MAX_SIZE", LIVE_READ_THREADS + WEB_REQUEST_THREADS + 2, low=1, high=1000
)
DB_POOL_TIMEOUT = env_int("DB_POOL_TIMEOUT", 10, low=1, high=600)
if DB_POOL_MIN_SIZE > DB_POOL_MAX_SIZE:
    raise ImproperlyConfigured(
        f"DB_POOL_MIN_SIZE ({DB_POOL_MIN_SIZE}) is larger than DB_POOL_MAX_SIZE "
        f"({DB_POOL_MAX_SIZE})"
    )

DATABASES = {
    "default": {
        **parse_database_url(env_str(_db_env, _db_default), env_name=_db_env),
        # Django refuses persistent connections with a pool: the pool keeps them.
        "CONN_MAX_AGE": 0 if DB_POOL else env_int("DB_CONN_MAX_AGE", 0, high=24 * 3600),
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
# Names the process's sessions in pg_stat_activity (what the load test counts them by).
if os.environ.get("SPADES_DB_APPLICATION_NAME"):
    _db_options["application_name"] = os.environ["SPADES_DB_APPLICATION_NAME"][:63]
else:
    _db_options.setdefault("application_name", "spades")
if DB_POOL:
    # With CONN_HEALTH_CHECKS, Django has the pool check each connection on checkout: one
    # whose backend was killed is replaced before a request gets it.
    _db_options["pool"] = {
        "min_size": DB_POOL_MIN_SIZE,
        "max_size": DB_POOL_MAX_SIZE,
        "timeout": DB_POOL_TIMEOUT,
    }
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

# Live WebSocket connections at once (games/live/connection_limits.py): per user, and per
# client address for connections without a login. A connection's slot lapses this many
# seconds after its process last renewed it (a crashed process leaks nothing for longer).
WS_CONNECTIONS_PER_USER = env_int("WS_CONNECTIONS_PER_USER", 8, low=1, high=1000)
WS_CONNECTIONS_PER_ADDRESS = env_int("WS_CONNECTIONS_PER_ADDRESS", 16, low=1, high=10000)
WS_CONNECTION_TTL_SECONDS = env_int("WS_CONNECTION_TTL_SECONDS", 90, low=3, high=3600)

# "throttle": the API's request counts (services/api/throttles.py) and the WebSocket
# connection counts (games/live/connection_limits.py), shared by every web process.
# Never call clear() on it: that is a FLUSHDB of the Redis database Celery and Channels
# use too (tests clear the throttle keys by prefix).
THROTTLE_CACHE_PREFIX = env_str("SPADES_THROTTLE_PREFIX", "spades-throttle")
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "throttle": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": THROTTLE_CACHE_PREFIX,
        "TIMEOUT": 24 * 3600,
        # One connection pool per process, not one per thread and async context.
        "OPTIONS": {"pool_class": "services.api.throttles.SharedConnectionPool"},
    },
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
# Seconds between the updates of a spectator kept behind by a spectator delay (so no
# update times a move), and between the repeats of a seated player's announcement no
# receiver took. In memory: neither reads the database while the table does not move.
WS_RESYNC_SECONDS = float(env_str("SPADES_WS_RESYNC_SECONDS", "5"))
# Seconds between a web process's safety sweeps over its open sockets (games.live.sockets):
# one query for all of its table sockets and one for its competition sockets, whatever
# their number, repairs a lost commit notice.
WS_SAFETY_SWEEP_SECONDS = env_int("SPADES_WS_SAFETY_SWEEP_SECONDS", 30, low=1, high=3600)
# Seconds a sweep's due time is trusted (games.live.due): the scheduler's sweeps query the
# database at least this often even when nothing is due.
SPADES_SWEEP_SAFETY_SECONDS = env_int("SPADES_SWEEP_SAFETY_SECONDS", 120, low=1, high=3600)
# Seconds a duplicate round's par, or its tables' reveal, may take before the repair sweep
# sends it again (leagues.services.duplicate_repair): longer than a round's par takes.
SPADES_DUPLICATE_REPAIR_SECONDS = env_int(
    "SPADES_DUPLICATE_REPAIR_SECONDS", 900, low=10, high=86400
)

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
STATIC_ROOT = Path(env_str("SPADES_STATIC_ROOT", str(BASE_DIR / "staticfiles")))
# SPADES_STATIC_MANIFEST=1 (the image sets it after its collectstatic, docs/operations.md
# "Static files"): {% static %} names content-hashed, gzip-compressed copies in
# STATIC_ROOT, which whitenoise serves as immutable for ten years. Off (bin/run, tests):
# served straight from the apps' static/ folders, so no collectstatic step is needed to
# run (nor is STATIC_ROOT, which only exists after a collectstatic: don't warn about it).
STATIC_MANIFEST = env_bool("SPADES_STATIC_MANIFEST", False)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "services.static_storage.HashedStaticStorage"
        if STATIC_MANIFEST
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
warnings.filterwarnings("ignore", message="No directory at: .*staticfiles")

# ---------------------------------------------------------------- REST API
# API tokens expire this many days after they were issued (a login after that issues a
# new one); POST /api/auth/logout revokes the caller's token at once.
API_TOKEN_TTL_DAYS = env_int("API_TOKEN_TTL_DAYS", 30, low=1, high=3650)
# Each web process keeps a token's resolution this many seconds (accounts.token_cache): a
# token revoked by another process passes there at most this long (0: no cache).
API_TOKEN_CACHE_SECONDS = env_int("API_TOKEN_CACHE_SECONDS", 30, low=0, high=300)
API_TOKEN_CACHE_SIZE = env_int("API_TOKEN_CACHE_SIZE", 10000, low=1, high=1000000)

# Sign-ups per client address and hour. A club signing its players up from one network
# shares one address, hence a setting; bounded so a typo cannot switch the limit off.
REGISTRATIONS_PER_ADDRESS_PER_HOUR = env_int(
    "REGISTRATIONS_PER_ADDRESS_PER_HOUR", 20, low=1, high=10_000
)
# Sign-ups that bring an open invitation (docs/api.md "Register") are exempt from the limit
# above, but anyone may create a table with a kept seat, so they have a larger limit of
# their own rather than none.
INVITED_REGISTRATIONS_PER_ADDRESS_PER_HOUR = env_int(
    "INVITED_REGISTRATIONS_PER_ADDRESS_PER_HOUR", 200, low=1, high=100_000
)
if os.environ.get("THROTTLE_REGISTER"):
    raise ImproperlyConfigured(
        "THROTTLE_REGISTER was replaced by REGISTRATIONS_PER_ADDRESS_PER_HOUR, a whole number "
        "of sign-ups per client address and hour (docs/operations.md); unset it."
    )

# Request rates per scope (docs/api.md, "Rate limits"): "N/s", "N/min", "N/hour" or
# "N/day". Over a limit the API answers 429 {"code": "throttled", ...} with Retry-After.
THROTTLE_RATES = {
    # POST /api/auth/token: per username and client address, and per address.
    "auth": env_str("THROTTLE_AUTH", "10/min"),
    "auth_ip": env_str("THROTTLE_AUTH_IP", "60/min"),
    # POST /api/auth/register: per client address (REGISTRATIONS_PER_ADDRESS_PER_HOUR);
    # a sign-up with an open invitation counts in "register_invited" instead.
    "register": f"{REGISTRATIONS_PER_ADDRESS_PER_HOUR}/hour",
    "register_invited": f"{INVITED_REGISTRATIONS_PER_ADDRESS_PER_HOUR}/hour",
    # Table commands (bid, play, ...) per user; bots move inside the worker, not over HTTP.
    "commands": env_str("THROTTLE_COMMANDS", "240/min"),
    # Every leagues write (competitions, entrants, rounds, results, leagues) per user, or
    # per client address without a login; the what-if standings (another preset or other
    # tie-breaks: each rescores the competition) per user or address.
    "leagues_writes": env_str("THROTTLE_LEAGUES_WRITES", "120/min"),
    "whatif": env_str("THROTTLE_WHATIF", "30/min"),
    # Refused takes of a seat kept for a friend (no, a wrong or a revoked invite secret),
    # per user: only refusals count.
    "invitation_guesses": env_str("THROTTLE_INVITATION_GUESSES", "10/hour"),
}
# The client address is REMOTE_ADDR: the real client's behind a trusted proxy
# (TRUSTED_PROXIES, services/proxies.py), else the TCP peer's. DRF never reads
# X-Forwarded-For itself (NUM_PROXIES 0), so the header cannot fake an address.
if env_int("THROTTLE_TRUSTED_PROXIES", 0, high=10):
    raise ImproperlyConfigured(
        "THROTTLE_TRUSTED_PROXIES was replaced by TRUSTED_PROXIES: the addresses or networks "
        "of the proxies in front of the web, e.g. TRUSTED_PROXIES=127.0.0.1,10.0.0.0/8 "
        "(docs/operations.md, 'Behind a proxy'); unset it."
    )

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_THROTTLE_RATES": THROTTLE_RATES,
    "NUM_PROXIES": 0,
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
    # /api/docs/ loads Swagger UI from our own static files (drf-spectacular-sidecar), so it
    # works offline and with no third-party origin in the page.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # No deep links: each operation's id stays its anchor (web/templates/web/api_docs.html).
    "SWAGGER_UI_SETTINGS": {"deepLinking": False},
    # The bot levels of a table's seat and of a competition's bots: one enum.
    "ENUM_NAME_OVERRIDES": {
        "LevelEnum": "games.domain.events.BOT_LEVELS",
        "SeatNameEnum": "games.engine.seats.SEAT_NAMES",
    },
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "services.api.schema.close_strict_objects",
    ],
}

# ---------------------------------------------------------------- logging (stdout)
LOG_LEVEL = env_str("LOG_LEVEL", "INFO").upper()
# "plain" lines for people, or "json": one object per line with the request id and the
# table, command and competition ids where they apply (telemetry/logs.py). Celery's own
# handlers get the same format (services/celery.py).
LOG_FORMAT = env_str("LOG_FORMAT", "plain").strip().lower()
if LOG_FORMAT not in {"plain", "json"}:
    raise ImproperlyConfigured(f"LOG_FORMAT must be plain or json, got {LOG_FORMAT!r}")
LOGGING_CONFIG = (
    "telemetry.logs.configure_json" if LOG_FORMAT == "json" else "logging.config.dictConfig"
)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "telemetry.logs.JsonFormatter"},
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": LOG_FORMAT,
        },
    },
    "root": {"handlers": ["stdout"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
    },
}

# ---------------------------------------------------------------- quotas (docs/api.md)
# Tables one user may have open (lobby or playing) at once, and how many of those may be
# all-bot tables (four bots write events as fast as they can); one more answers 429.
SPADES_MAX_OPEN_TABLES_PER_USER = int(env_str("SPADES_MAX_OPEN_TABLES_PER_USER", "10"))
SPADES_MAX_BOT_TABLES_PER_USER = int(env_str("SPADES_MAX_BOT_TABLES_PER_USER", "2"))
# The scheduler abandons an open all-bot table no person has acted at for this long.
SPADES_BOT_TABLE_IDLE_SECONDS = int(env_str("SPADES_BOT_TABLE_IDLE_SECONDS", "3600"))
# Leagues (docs/leagues.md "Quotas"; one more answers 429, nothing written). A competition's
# all-bot tables count against its creator's all-bot table quota above. Unfinished
# competitions one user created; entrants (entered or invited) of one competition, and of
# all the unfinished competitions one user created; a player's open partnership proposals
# in one competition. At most leagues.core.entrants.MAX_ENTRANTS (4096) per competition.
SPADES_MAX_OPEN_COMPETITIONS_PER_USER = env_int(
    "SPADES_MAX_OPEN_COMPETITIONS_PER_USER", 20, low=1, high=10_000
)
SPADES_MAX_ENTRANTS_PER_COMPETITION = env_int(
    "SPADES_MAX_ENTRANTS_PER_COMPETITION", 512, low=2, high=4096
)
SPADES_MAX_ENTRANTS_PER_ORGANISER = env_int(
    "SPADES_MAX_ENTRANTS_PER_ORGANISER", 2048, low=2, high=1_000_000
)
SPADES_MAX_OPEN_PROPOSALS_PER_PLAYER = env_int(
    "SPADES_MAX_OPEN_PROPOSALS_PER_PLAYER", 3, low=1, high=100
)

# ---------------------------------------------------------------- operations (docs/operations.md)
# Proxies, metrics, error reports and readiness: this block only.

# The proxies in front of the web (addresses or CIDRs): only from these is X-Forwarded-For
# (the client) and X-Forwarded-Proto (its scheme) believed, for HTTP and WebSocket alike;
# every per-address limit then counts the real client (services/proxies.py).
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES", "")

# GET /metrics, and the worker's, projector's and scheduler's metrics ports: only to these
# client addresses, or with "Authorization: Bearer METRICS_TOKEN" (telemetry/exposition.py).
METRICS_ALLOWED_ADDRESSES = env_networks("METRICS_ALLOWED_ADDRESSES", "127.0.0.1,::1")
METRICS_TOKEN = env_str("METRICS_TOKEN", "").strip()
if METRICS_TOKEN and not 16 <= len(METRICS_TOKEN) <= 256:
    raise ImproperlyConfigured("METRICS_TOKEN must be 16 to 256 characters long")
METRICS_BIND = env_str("SPADES_METRICS_BIND", "127.0.0.1")
METRICS_PORTS = {
    process: env_int(f"SPADES_{process.upper()}_METRICS_PORT", port, high=65535)
    for process, port in (("worker", 9101), ("projector", 9102), ("scheduler", 9103))
}

# /readyz answers 503 while a projection is more than this many seconds behind the log
# (0: the lag is not checked).
READYZ_MAX_PROJECTION_LAG_SECONDS = env_int(
    "READYZ_MAX_PROJECTION_LAG_SECONDS", 120, high=7 * 24 * 3600
)

# Error reports (telemetry/errors.py): nothing is sent unless SENTRY_DSN is set.
SENTRY_DSN = env_str("SENTRY_DSN", "").strip()
try:
    SENTRY_TRACES_SAMPLE_RATE = float(env_str("SENTRY_TRACES_SAMPLE_RATE", "0") or "0")
except ValueError:
    raise ImproperlyConfigured("SENTRY_TRACES_SAMPLE_RATE must be a number from 0 to 1") from None
if not 0.0 <= SENTRY_TRACES_SAMPLE_RATE <= 1.0:
    raise ImproperlyConfigured("SENTRY_TRACES_SAMPLE_RATE must be a number from 0 to 1")
try:
    init_error_reporting(
        SENTRY_DSN,
        environment=env_str("SENTRY_ENVIRONMENT", "production"),
        release=env_str("SENTRY_RELEASE", ""),
        traces_sample_rate=SENTRY_TRACES_SAMPLE_RATE,
    )
except ValueError as exc:  # sentry-sdk's BadDsn
    raise ImproperlyConfigured(f"SENTRY_DSN is not a Sentry DSN: {exc}") from None
# ---------------------------------------------------------------- accounts (docs/operations.md)
# Everything accounts look after themselves with: the password-reset mail, the admin
# login lockout, the Content-Security-Policy header, the data export's bounds.

# E-mail (the password-reset mail): EMAIL_URL (smtp://, smtp+tls://, smtps://, console://,
# file://, dummy://; services/email_url.py), or the separate variables below. By default
# mail is printed to the web process's standard output (the console backend).
_email = (
    parse_email_url(os.environ["EMAIL_URL"])
    if os.environ.get("EMAIL_URL", "").strip()
    else {
        "EMAIL_BACKEND": env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"),
        "EMAIL_HOST": env_str("EMAIL_HOST", "localhost"),
        "EMAIL_PORT": env_int("EMAIL_PORT", 25, low=1, high=65535),
        "EMAIL_HOST_USER": env_str("EMAIL_HOST_USER", ""),
        "EMAIL_HOST_PASSWORD": env_str("EMAIL_HOST_PASSWORD", ""),
        "EMAIL_USE_TLS": env_bool("EMAIL_USE_TLS", False),
        "EMAIL_USE_SSL": env_bool("EMAIL_USE_SSL", False),
    }
)
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_HOST = _email.get("EMAIL_HOST", "localhost")
EMAIL_PORT = _email.get("EMAIL_PORT", 25)
EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _email.get("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = _email.get("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = _email.get("EMAIL_TIMEOUT", 30)
if "EMAIL_FILE_PATH" in _email:
    EMAIL_FILE_PATH = _email["EMAIL_FILE_PATH"]
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Spades <spades@localhost>")
# A password-reset link works this many seconds (and once: a new password voids it).
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 3600, low=300, high=7 * 24 * 3600)

# The admin login (/admin/login/) is locked after this many failures, per username and per
# client address, for this many minutes (django-axes; accounts/lockout.py keeps it to the
# admin: the API login has its own throttles). `manage.py axes_reset` lifts every lock.
AXES_FAILURE_LIMIT = env_int("ADMIN_LOGIN_FAILURE_LIMIT", 5, low=1, high=1000)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("ADMIN_LOGIN_COOLOFF_MINUTES", 15, low=1, high=10080))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_ONLY_ADMIN_SITE = True
AXES_HANDLER = "accounts.lockout.AdminLoginHandler"
AXES_RESET_ON_SUCCESS = True
# Successful logins are not recorded (no address or browser kept for them).
AXES_DISABLE_ACCESS_LOG = True
AXES_HTTP_RESPONSE_CODE = 429
# No banner at start-up: it went to stdout, where the file tools print their answers.
AXES_VERBOSE = False
AUTHENTICATION_BACKENDS = [
    "accounts.lockout.AdminLockoutBackend",  # first: refuses a locked-out admin login
    "django.contrib.auth.backends.ModelBackend",
]

# Content-Security-Policy on every response (django-csp): scripts and styles only from
# this origin's files (no inline script, style or handler), requests and WebSockets only
# to this origin ('self' covers ws:/wss: of the page's host), no plugins, no <base>
# elsewhere, never framed. Swagger UI's icons are data: images.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Rate limits of the account operations (docs/api.md, "Rate limits"): a password-reset
# request or confirmation per client address; a password change, deletion or data export
# per user.
THROTTLE_RATES.update(
    {
        "password_reset": env_str("THROTTLE_PASSWORD_RESET", "10/hour"),
        "account": env_str("THROTTLE_ACCOUNT", "20/hour"),
    }
)

# GET /api/auth/me/export: at most this many tables in one download, newest first (the
# answer says how many more there are; ?tables_offset= pages on).
SPADES_EXPORT_MAX_TABLES = env_int("SPADES_EXPORT_MAX_TABLES", 1000, low=1, high=100_000)
