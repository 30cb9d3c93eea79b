"""Settings for the OmniForge conversation layer, driven by environment variables.

Zero configuration gives the embedded mode: SQLite, the in-memory channel layer, eager Celery
tasks, a local-memory cache and the offline intent classifier. Each variable is documented in
../shared/CONTRACT.md and the README.
"""

from __future__ import annotations

import importlib.util
import os
import warnings
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false), got {raw!r}")


def env_int(name: str, default: int, *, minimum: int = 0) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value}")
    return value


def env_float(name: str, default: float, *, minimum: float = 0.0) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, got {raw!r}") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, got {value}")
    return value


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", default=True)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-insecure-secret-key-do-not-use-in-production"  # noqa: S105
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "axes",
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "conversations",
    "intents",
    "skill_sessions",
]

MIDDLEWARE = [
    # First: it bounds /api/ requests and turns every error answer there into JSON.
    "conversations.api.door.ApiDoorMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.static.AsyncWhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: answers a locked-out sign-in (admin or chat page) with its lockout page.
    "axes.middleware.AxesMiddleware",
]

# Repeated failed sign-ins lock out that username from that address (django-axes): the
# admin's and the chat page's. An operator lifts a lockout with
# `manage.py axes_reset_username USERNAME` (or axes_reset_ip / axes_reset). docs/OPERATIONS.md.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 10, minimum=1)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_MINUTES", 60, minimum=1) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# Reverse proxies in front of the server: the client is the N-th X-Forwarded-For entry from the
# right (0: forwarded headers are ignored). One setting for the ASGI scope, DRF's throttles and
# the lockout above (config/proxies.py). Run Daphne without --proxy-headers: it would take the
# left-most entry, which the client writes.
OMNIFORGE_TRUSTED_PROXIES = env_int("OMNIFORGE_TRUSTED_PROXIES", 0)
AXES_CLIENT_IP_CALLABLE = "config.proxies.axes_client_address"
AXES_VERBOSE = False

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

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
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------------

DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
_default_db: dict[str, Any] = dict(dj_database_url.parse(DATABASE_URL, conn_max_age=0))
if _default_db["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers run beside one writer; synchronous=NORMAL drops the per-commit fsync
    # (durable at checkpoints, safe with WAL). IMMEDIATE transactions take the write lock at
    # BEGIN, so writers from several processes queue on the busy timeout instead of failing
    # with "database is locked" when a deferred read transaction tries to upgrade.
    _default_db["OPTIONS"] = {
        "init_command": ("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"),
        "transaction_mode": "IMMEDIATE",
        "timeout": env_int("SQLITE_BUSY_TIMEOUT_S", 20, minimum=1),
    }
    # A file, not :memory:, so that the multi-process tests can open the test database too;
    # one per test session, so that two sessions at once do not share it.
    _default_db["TEST"] = {"NAME": str(BASE_DIR / f".test-db-{os.getpid()}.sqlite3")}
else:
    # A pool per process (Django's, on psycopg_pool), not a persistent connection per thread:
    # Channels gives every open WebSocket a thread of its own, so connections kept per thread
    # would grow with the sockets (100 sockets, 100 connections: PostgreSQL's default limit).
    _default_db["CONN_MAX_AGE"] = 0
    # Django's backend, with a breaker that fails fast while the server is unreachable instead
    # of making every request wait for the pool's timeout (config/postgresql/base.py).
    _default_db["ENGINE"] = "config.postgresql"
    from config.postgresql.breaker import BreakerConnection

    _default_db["OPTIONS"] = {
        "pool": {
            "min_size": 1,
            "max_size": env_int("DATABASE_POOL_SIZE", 20, minimum=1),
            "timeout": 10,
            "connection_class": BreakerConnection,
        }
    }
DATABASES = {"default": _default_db}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer, broker, cache ------------------------------------------------------

REDIS_URL = env_str("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # Pub/sub: Redis pushes each group message to the processes subscribed to it, in
            # publish order. The list-based layer drains one Redis key per process, capped at
            # 100 messages, one message per four round trips: under load it dropped frames
            # silently, or delivered them a minute late and then expired them
            # (tests/faults/test_load.py).
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # The prefix keeps separate installations (or test runs) on one Redis apart.
            "CONFIG": {
                # Bounded reads (the pub/sub listener polls every 0.1 s; the list-based layer's 5 s
                # blocking read once met redis-py 8's 5 s default and killed idle consumers,
                # django/channels_redis#422).
                "hosts": [{"address": REDIS_URL, "socket_timeout": 10}],
                "prefix": env_str("CHANNEL_LAYER_PREFIX", "omniforge"),
                # Frames carry what users typed through Redis: encrypted with the same keys.
                **(
                    {"symmetric_encryption_keys": env_list("OMNIFORGE_ENCRYPTION_KEYS")}
                    if env_list("OMNIFORGE_ENCRYPTION_KEYS")
                    else {}
                ),
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            # Like the layer's prefix: installations sharing one Redis keep their counters apart.
            "KEY_PREFIX": env_str("CACHE_KEY_PREFIX"),
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
# Without a broker, tasks run in the caller's process as they are enqueued.
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = False
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# One place for every periodic task; each entry says when it runs.
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    # Skill sessions and conversations past their retention (skill_sessions/retention.py).
    "retention-daily": {
        "task": "skill_sessions.retention_daily",
        "schedule": float(os.environ.get("OMNIFORGE_RETENTION_EVERY_S", 24 * 3600)),
    },
    # Agent runs: fire the due schedule slots, time out runs past their deadline, hand on runs
    # a killed worker left queued (conversations/runs/scheduler.py).
    "runs-tick": {
        "task": "conversations.runs_tick",
        "schedule": float(os.environ.get("OMNIFORGE_RUNS_TICK_EVERY_S", 60)),
    },
}
# Maintenance runs on a queue of its own, so a backlog of chat retries never delays it.
CELERY_TASK_ROUTES = {"skill_sessions.retention_daily": {"queue": "maintenance"}}

# --- Agent runs: the boundary to the platform's agent runtime (docs/runtime.md) ---------------

# The operator's runtime; unset: runs wait for a runtime (a tenant admin may set a tenant's own).
OMNIFORGE_RUNTIME_URL = env_str("OMNIFORGE_RUNTIME_URL")
# Hosts a tenant's own runtime URL may name although they are not public https addresses.
OMNIFORGE_RUNTIME_ALLOWED_HOSTS = env_list("OMNIFORGE_RUNTIME_ALLOWED_HOSTS")
# The product's own base URL: dispatches carry <this>/api/v1/runs/<id>/events/ to call back.
OMNIFORGE_PUBLIC_URL = env_str("OMNIFORGE_PUBLIC_URL", "http://127.0.0.1:8000").rstrip("/")
# A missed slot fires if it came due at most this long ago; older ones are recorded as skipped.
OMNIFORGE_SCHEDULE_GRACE_S = env_int("OMNIFORGE_SCHEDULE_GRACE_S", 900)
# Per dispatch attempt; attempts retry timeouts, refused connections and 5xx with backoff.
OMNIFORGE_RUNTIME_TIMEOUT_S = env_float("OMNIFORGE_RUNTIME_TIMEOUT_S", 10.0, minimum=0.05)
OMNIFORGE_RUNTIME_MAX_ATTEMPTS = env_int("OMNIFORGE_RUNTIME_MAX_ATTEMPTS", 6, minimum=1)
OMNIFORGE_RUNTIME_BACKOFF_S = env_float("OMNIFORGE_RUNTIME_BACKOFF_S", 2.0)
# A handed-over run that reports no final outcome within this long has timed out.
OMNIFORGE_RUN_DEADLINE_S = env_int("OMNIFORGE_RUN_DEADLINE_S", 3600, minimum=1)
# Session documents above this many bytes are stored gzip-compressed (0: never).
OMNIFORGE_SKILL_CONTEXT_GZIP_BYTES = int(
    os.environ.get("OMNIFORGE_SKILL_CONTEXT_GZIP_BYTES", 16384)
)

# --- Auth, API --------------------------------------------------------------------------------

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/accounts/login/"

REST_FRAMEWORK = {
    # Token first: its WWW-Authenticate header makes anonymous requests a 401, not a 403.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "conversations.tenancy.tokens.HashedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["conversations.tenancy.permissions.IsTenantMember"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"]
    + (["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    "DEFAULT_PARSER_CLASSES": ["conversations.api.door.StrictJSONParser"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.UserRateThrottle",
        "conversations.tenancy.tokens.TenantRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "user": env_str("API_THROTTLE_RATE", "1200/min"),
        "tenant": env_str("TENANT_THROTTLE_RATE", "6000/min"),
        "anon": env_str("ANON_THROTTLE_RATE", "120/min"),
        "auth_failures": env_str("AUTH_FAILURE_THROTTLE_RATE", "30/min"),
        # Classification may call a paid model on every request.
        "intents": env_str("INTENT_THROTTLE_RATE", "120/min"),
        # An agent runtime's callbacks, per runtime token (conversations/runs/auth.py).
        "runtime": env_str("RUNTIME_CALLBACK_THROTTLE_RATE", "6000/min"),
    },
    "EXCEPTION_HANDLER": "conversations.api.errors.exception_handler",
    # Unset, DRF would take the whole X-Forwarded-For, which the client writes, as its identity.
    "NUM_PROXIES": OMNIFORGE_TRUSTED_PROXIES,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "OmniForge conversation API",
    "DESCRIPTION": "Conversations, messages, chat turns, intents and agents, scoped to a tenant.",
    "VERSION": "1.0.0",
    # 3.1: JSON Schema 2020-12, which can say what the door refuses inside a client's JSON
    # object (propertyNames, recursive values).
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name for the seven actions, whichever field carries them.
    "ENUM_NAME_OVERRIDES": {
        "ActionTypeEnum": "intents.types.ACTION_CHOICES",
        "SkillSessionStatusEnum": "skill_sessions.models.SkillCreationSession.Status",
    },
    "PREPROCESSING_HOOKS": ["conversations.chat.schema.add_chat_endpoint"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "conversations.api.schema.document_errors",
    ],
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "string", "pattern": "^[0-9A-Za-z]{1,26}$"},
        "session_id": {"type": "string", "pattern": "^[0-9A-Za-z_-]{1,64}$"},
    },
}

# --- Product settings -------------------------------------------------------------------------

OMNIFORGE_INTENT_MODEL = env_str("OMNIFORGE_INTENT_MODEL", "gpt-4o-mini")
OMNIFORGE_INTENT_API_BASE = env_str("OMNIFORGE_INTENT_API_BASE")
OMNIFORGE_INTENT_TIMEOUT_S = env_float("OMNIFORGE_INTENT_TIMEOUT_S", 3.0, minimum=0.05)
OMNIFORGE_INTENT_MAX_RETRIES = env_int("OMNIFORGE_INTENT_MAX_RETRIES", 2)
# Base of the exponential backoff between retries (full jitter, capped at 2 s).
OMNIFORGE_INTENT_BACKOFF_S = env_float("OMNIFORGE_INTENT_BACKOFF_S", 0.25)
OMNIFORGE_CONTEXT_TOKEN_BUDGET = env_int("OMNIFORGE_CONTEXT_TOKEN_BUDGET", 2000, minimum=1)
OMNIFORGE_CONTEXT_MAX_MESSAGES = env_int("OMNIFORGE_CONTEXT_MAX_MESSAGES", 20, minimum=1)
OMNIFORGE_ENCRYPTION_KEYS = env_list("OMNIFORGE_ENCRYPTION_KEYS")
# Production stores nothing users typed in plaintext, unless told to in so many words.
OMNIFORGE_ALLOW_PLAINTEXT = env_bool("OMNIFORGE_ALLOW_PLAINTEXT", default=DEBUG)
if not OMNIFORGE_ENCRYPTION_KEYS and not OMNIFORGE_ALLOW_PLAINTEXT:
    raise ImproperlyConfigured(
        "OMNIFORGE_ENCRYPTION_KEYS must be set when DEBUG is off "
        "(or OMNIFORGE_ALLOW_PLAINTEXT=true to store what users type unencrypted)"
    )
OMNIFORGE_MESSAGE_MAX_CHARS = env_int("OMNIFORGE_MESSAGE_MAX_CHARS", 16000, minimum=1)
# A WebSocket's messages: a burst, then this many a second; a client that keeps sending into
# the limit after this many refusals is closed (4429).
OMNIFORGE_WS_BURST = env_int("OMNIFORGE_WS_BURST", 10, minimum=1)
OMNIFORGE_WS_RATE_PER_S = env_float("OMNIFORGE_WS_RATE_PER_S", 2.0, minimum=0.01)
OMNIFORGE_WS_STRIKES = env_int("OMNIFORGE_WS_STRIKES", 5, minimum=0)
# Chat messages a minute over every socket and process: per user, and per tenant as a whole.
OMNIFORGE_WS_USER_PER_MIN = env_int("OMNIFORGE_WS_USER_PER_MIN", 60, minimum=1)
OMNIFORGE_WS_TENANT_PER_MIN = env_int("OMNIFORGE_WS_TENANT_PER_MIN", 1200, minimum=1)
# The turn lease (one turn of a conversation at a time, across processes): renewed every
# quarter of it while a turn runs, so a crashed process holds a conversation at most this long.
OMNIFORGE_TURN_LEASE_S = env_float("OMNIFORGE_TURN_LEASE_S", 5.0, minimum=0.2)

# tiktoken downloads its encodings unless pointed at a cache; litellm ships cl100k_base.
# find_spec locates the package without importing it (the import costs seconds).
if "TIKTOKEN_CACHE_DIR" not in os.environ:
    _litellm_spec = importlib.util.find_spec("litellm")
    if _litellm_spec and _litellm_spec.submodule_search_locations:
        os.environ["TIKTOKEN_CACHE_DIR"] = str(
            Path(next(iter(_litellm_spec.submodule_search_locations)))
            / "litellm_core_utils"
            / "tokenizers"
        )
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

# --- i18n, static, logging --------------------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# The admin's dates: 2026-11-28 09:05 rather than "Nov. 28, 2026, 9:05 a.m." (config/formats/).
FORMAT_MODULE_PATH = ["config.formats"]
STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# WhiteNoise serves /static/ from this process. After `manage.py collectstatic` it serves the
# collected, compressed files under content-hashed names (cached for a year); without it
# (`make run`, tests) it serves straight from the apps' static folders.
WHITENOISE_USE_FINDERS = True
# Before the first collectstatic, STATIC_ROOT does not exist yet: expected, not worth a warning.
warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
WHITENOISE_AUTOREFRESH = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if (STATIC_ROOT / "staticfiles.json").exists()
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
# HTTPS in production: every plain-HTTP request is redirected and browsers are told to stay on
# HTTPS (HSTS). Behind a proxy that terminates TLS, set OMNIFORGE_TRUST_X_FORWARDED_PROTO=true
# so Django believes the proxy's X-Forwarded-Proto (and only then). docs/OPERATIONS.md.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=True)
if env_bool("OMNIFORGE_TRUST_X_FORWARDED_PROTO", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Kept at WARNING whatever LOG_LEVEL says, because at DEBUG they write what a request carries
# (checked against the installed versions): openai ("Request options: … json_data") and LiteLLM
# (the request as a curl command, the raw response) write whole prompts, the user's message and
# its context; LiteLLM Router and LiteLLM Proxy share LiteLLM's handler and write call arguments
# alike; hpack writes every header of the HTTP/2 requests Daphne decodes, tokens and cookies
# included. httpx only names each request, at INFO, and litellm's import sets it to WARNING
# anyway: listed so that its level does not change mid-run. httpcore and urllib3 log connection
# events and status lines, never a body or a request header, so they follow LOG_LEVEL.
_PAYLOAD_LOGGERS = ("openai", "LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "hpack", "httpx")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        **{name: {"level": "WARNING"} for name in _PAYLOAD_LOGGERS},
    },
}
