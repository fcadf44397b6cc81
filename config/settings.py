"""Django settings for Compute Planner, read from the environment (see README, "Configuration")."""

import ipaddress
import os
from pathlib import Path
from urllib.parse import unquote, urlsplit

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent
DATA_DIR = Path(os.environ.get("DATA_DIR", BASE_DIR / "data"))


def env_str(name: str, default: str | None = None) -> str:
    value = os.environ.get(name, default)
    if value is None:
        raise ImproperlyConfigured(f"The environment variable {name} is required.")
    return value


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}.")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError as error:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.") from error


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_networks(name: str) -> list[str]:
    networks = env_list(name)
    for network in networks:
        try:
            ipaddress.ip_network(network, strict=False)
        except ValueError as error:
            raise ImproperlyConfigured(
                f"{name} must list networks such as 172.30.0.2/32 or 10.0.0.0/8, not {network!r}."
            ) from error
    return networks


ROLES = ("manager", "front office", "catalogue editor")


def env_role_groups(name: str) -> dict[str, str]:
    """{group: role} from "group=role,group=role" (a role: manager, front office, catalogue
    editor); a group may contain "=", not ","."""
    mapping = {}
    for pair in env_list(name):
        group, _, role = pair.rpartition("=")
        if not group.strip() or role.strip() not in ROLES:
            raise ImproperlyConfigured(
                f"{name} must list group=role pairs, each role one of {', '.join(ROLES)}; "
                f"not {pair!r}."
            )
        mapping[group.strip()] = role.strip()
    return mapping


# "local" gives safe defaults for one person on their own machine; "production" refuses to start
# without the settings a shared deployment needs.
ENVIRONMENT = env_str("COMPUTE_PLANNER_ENV", "local")
if ENVIRONMENT not in {"local", "production"}:
    raise ImproperlyConfigured("COMPUTE_PLANNER_ENV must be 'local' or 'production'.")
PRODUCTION = ENVIRONMENT == "production"

DEBUG = env_bool("DJANGO_DEBUG", False)
if PRODUCTION:
    SECRET_KEY = env_str("DJANGO_SECRET_KEY")
    if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be at least 50 random characters.")
    if DEBUG:
        raise ImproperlyConfigured("DJANGO_DEBUG must be off in production.")
    ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS is required in production.")
else:
    SECRET_KEY = env_str("DJANGO_SECRET_KEY", "local-only-insecure-key-never-use-in-production")
    ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")

INSTALLED_APPS = [
    # First, so that its runserver (a deeper connection queue) wins over staticfiles'.
    "apps.core",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "auditlog",
    "apps.words",
    "apps.audit",
    "apps.accounts",
    "apps.catalogue",
    "apps.apiprices",
    "apps.exchange",
    "apps.options",
    "apps.projects",
    "apps.sweeps",
    "apps.reviews",
    "apps.sharing",
    "apps.exports",
    "apps.budget",
    "apps.glossary",
    "apps.notifications",
    "apps.actuals",
    "apps.api",
]

MIDDLEWARE = [
    "apps.core.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "apps.accounts.middleware.PreferredLanguageMiddleware",
    "apps.audit.middleware.AuditContextMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "apps.core.middleware.SessionLifetimeMiddleware",
    "apps.core.middleware.LoginLimitMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "apps.words.templates_backend.Templates",
        "NAME": "django",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "apps.core.context_processors.navigation",
            ],
            # Django's i18n tags, their translations of constants remembered per catalogue
            # (the engine above passes over this one name given to two modules on purpose).
            "libraries": {"i18n": "apps.words.templatetags.remembered_i18n"},
        },
    },
]

# SQLite in DATA_DIR by default; DATABASE_URL (postgres://…) switches to PostgreSQL.
if "DATABASE_URL" not in os.environ:
    DATA_DIR.mkdir(parents=True, exist_ok=True)
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{DATA_DIR / 'compute-planner.sqlite3'}"),
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
# The embedded default under concurrent writers: WAL lets readers go on while one writes; every
# transaction takes the write lock when it begins (IMMEDIATE), so none fails on upgrading a read
# lock midway; a writer waits up to SQLITE_TIMEOUT_SECONDS for the lock, then the request answers
# 503 with Retry-After (apps.core.views.server_error). synchronous=NORMAL is safe in WAL mode.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": env_int("SQLITE_TIMEOUT_SECONDS", 20),
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }
if PRODUCTION and DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("Production needs DATABASE_URL pointing at PostgreSQL.")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# A shared Redis cache (REDIS_URL) keeps throttling and login-attempt counts consistent across
# processes; per-process memory would give each worker its own budget. While Redis is down the
# app works without a cache (django-redis's IGNORE_EXCEPTIONS: reads miss, writes are dropped,
# each skipped call is logged); a second is long enough to wait for it.
REDIS_URL = os.environ.get("REDIS_URL", "")
if PRODUCTION and not REDIS_URL:
    raise ImproperlyConfigured("Production needs REDIS_URL: throttles count in a shared cache.")
# Every cache key carries the release (Django's cache VERSION): cached pages are drawn by the code
# and translations of one release, and the next release reads none of them. Local memory starts
# empty with each process anyway.
RELEASE_ID = os.environ.get("RELEASE_ID", "local")
if PRODUCTION and not os.environ.get("RELEASE_ID"):
    raise ImproperlyConfigured(
        "Production needs RELEASE_ID, a new one for each release: the cache is kept per release."
    )
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "apps.core.cache.PrefixedRedisCache",
            "LOCATION": REDIS_URL,
            # Several deployments (or test workers) can share one Redis database, each under its
            # own prefix; clear() then empties only its own keys (apps.core.cache).
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", ""),
            "VERSION": RELEASE_ID,
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 1,
                "SOCKET_TIMEOUT": 1,
            },
        }
    }
    DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
    # clear() looks through the database's keys a thousand a round trip.
    DJANGO_REDIS_SCAN_ITERSIZE = 1000
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "VERSION": RELEASE_ID,
        }
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Every password check is limited per account at one client address, per address, and, for an
# account failing from many addresses, slowed for addresses and browsers it never signed in from
# (apps/core/login_limits.py).
AUTHENTICATION_BACKENDS = ["apps.core.login_limits.LoginLimitedModelBackend"]
LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS = 5
LOGIN_FAILURES_PER_ADDRESS = 20
LOGIN_FAILURE_WINDOW_SECONDS = 15 * 60
LOGIN_ACCOUNT_FAILURES_BEFORE_SLOWING = 10
LOGIN_SLOWED_SECONDS_PER_ATTEMPT = 30
LOGIN_KNOWN_SECONDS = 90 * 24 * 60 * 60
# The audit log (apps/audit) is django-auditlog's table with the project's own columns; changes
# are kept as JSON ({field: [before, after]}).
AUDITLOG_LOGENTRY_MODEL = "audit.AuditEvent"
AUDITLOG_STORE_JSON_CHANGES = True
AUDIT_PAGE_SIZE = 50

# Sign-in with the organisation's OpenID Connect provider (apps/accounts/oidc.py), on when
# OIDC_ISSUER is set (its discovery document gives the endpoints); local accounts stay.
# OIDC_ROLE_GROUPS maps the groups claim to roles: "planners=manager,reviewers=front office".
OIDC_ISSUER = os.environ.get("OIDC_ISSUER", "").rstrip("/")
OIDC_ENABLED = bool(OIDC_ISSUER)
OIDC_RP_CLIENT_ID = env_str("OIDC_CLIENT_ID") if OIDC_ENABLED else ""
OIDC_RP_CLIENT_SECRET = env_str("OIDC_CLIENT_SECRET") if OIDC_ENABLED else ""
if PRODUCTION and OIDC_ENABLED and not OIDC_ISSUER.startswith("https://"):
    raise ImproperlyConfigured("OIDC_ISSUER must be an https:// address in production.")
OIDC_PROVIDER_NAME = env_str("OIDC_PROVIDER_NAME", "your organisation")
OIDC_RP_SCOPES = env_str("OIDC_SCOPES", "openid email profile")
OIDC_RP_SIGN_ALGO = env_str("OIDC_SIGN_ALGORITHM", "RS256")
OIDC_GROUPS_CLAIM = env_str("OIDC_GROUPS_CLAIM", "groups")
OIDC_ROLE_GROUPS = env_role_groups("OIDC_ROLE_GROUPS")
OIDC_USE_PKCE = True
OIDC_USE_NONCE = True
OIDC_TIMEOUT = env_int("OIDC_TIMEOUT_SECONDS", 10)
OIDC_CLOCK_LEEWAY_SECONDS = 30
OIDC_AUTHENTICATION_CALLBACK_URL = "oidc-callback"
if OIDC_ENABLED:
    AUTHENTICATION_BACKENDS.append("apps.accounts.oidc.OrganisationBackend")

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "project-list"
LOGOUT_REDIRECT_URL = "home"

# The language of a page: the signed-in user's stored preference, else the language cookie (set
# by the switcher), else Accept-Language, else English. No /fr/ prefixes: a link, a share link
# and an HTMX fragment read the same in every language. Names are in their own language.
LANGUAGE_CODE = "en-gb"
LANGUAGES = [("en-gb", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SECURE = PRODUCTION
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# Front-end libraries are kept in static/vendor/ at the versions package.json records
# (`make vendor` refreshes them), so running the app needs no Node.js.
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "apps.core.storage.ManifestStaticFiles"
        if PRODUCTION
        else "apps.core.storage.StaticFiles"
    },
}
WHITENOISE_USE_FINDERS = not PRODUCTION
WHITENOISE_AUTOREFRESH = not PRODUCTION

# Request bodies: the estimate API needs a few kilobytes; anything far larger is refused (400).
# The largest form (a scenario) has about 40 fields, and the app takes no file uploads.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 256 * 1024)
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200
DATA_UPLOAD_MAX_NUMBER_FILES = 1
FILE_UPLOAD_MAX_MEMORY_SIZE = 256 * 1024
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 64 * 1024)

# PDF exports embed fonts for every UN script, from Debian's fonts-noto-core, fonts-droid-fallback
# and fonts-dejavu-core (apps/exports/pdf_fonts.py). Without them production refuses to write a
# PDF; a developer's machine falls back to Helvetica, which prints "?" for what it lacks.
PDF_FONT_DIRS = env_list(
    "PDF_FONT_DIRS",
    "/usr/share/fonts/truetype/noto,/usr/share/fonts/truetype/droid,/usr/share/fonts/truetype/dejavu",
)
PDF_FONTS_REQUIRED = env_bool("PDF_FONTS_REQUIRED", PRODUCTION)

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "apps.api.schema.AutoSchema",
    "DEFAULT_PARSER_CLASSES": ["apps.api.parsers.BoundedJSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "apps.api.negotiation.StrictFormatNegotiation",
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "apps.accounts.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_THROTTLE_CLASSES": ["apps.api.throttling.AnonOrUserRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "anon": env_str("API_ANON_RATE", "120/minute"),
        "user": env_str("API_USER_RATE", "600/minute"),
    },
    "EXCEPTION_HANDLER": "apps.api.errors.exception_handler",
    "STRICT_JSON": True,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Compute Planner API",
    "DESCRIPTION": (
        "Plan the training and inference compute of an AI system: FLOP, accelerator-hours, "
        "cost, energy, capacity and the break-even point. Money is a decimal string in USD."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # Deep links nest a link inside each operation's button, which screen readers cannot use.
    # No online validator: its badge is an image from another host, which the CSP refuses.
    "SWAGGER_UI_SETTINGS": {"deepLinking": False, "validatorUrl": None},
    # Object ids in paths (apps.core.converters.IdConverter): at most 18 digits.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "minimum": 0, "maximum": 999_999_999_999_999_999}
    },
    # One name per choice set that several fields called `status` use.
    "ENUM_NAME_OVERRIDES": {
        "ProjectStatusEnum": "apps.projects.models.Project.Status",
        "ReviewStatusFilterEnum": "apps.reviews.forms.STATUSES",
        "SweepStatusEnum": "apps.sweeps.models.Sweep.Status",
        "OptionKeyEnum": "apps.estimates.options.OPTION_KEYS",
        "FiscalYearLabelEnum": "apps.projects.models.FiscalYearLabel",
        "CostLineKindEnum": "apps.budget.models.Kind",
        "BudgetLineKindEnum": "apps.estimates.budget.KINDS",
        "ActualsImportStatusEnum": "apps.actuals.models.ActualsImport.Status",
    },
}

# Email (apps.notifications): SMTP from EMAIL_URL, or from EMAIL_HOST and the usual EMAIL_*
# settings; with neither, locally, each message is written to a file in DATA_DIR/mail/ (`make run`
# needs no mail server). Production refuses a missing server, one reached without TLS (other than
# a relay on the same host), and a missing sender or SITE_URL. Django's MAILERS, not the
# EMAIL_BACKEND family of settings, which Django 6.1 deprecates.
SMTP_SCHEMES = {
    "smtp": (False, False, 25),
    "smtp+tls": (True, False, 587),
    "smtp+ssl": (False, True, 465),
}
LOOPBACK_HOSTS = {"localhost", "127.0.0.1", "::1"}


def email_url_options(name: str) -> dict | None:
    """SMTP options from a URL such as smtp+tls://user:password@mail.example.org:587 (smtp://
    plain, smtp+tls:// STARTTLS, smtp+ssl:// TLS from the start; user and password
    percent-encoded), or None when the variable is not set."""
    value = os.environ.get(name)
    if not value:
        return None
    url = urlsplit(value)
    if url.scheme not in SMTP_SCHEMES or not url.hostname:
        raise ImproperlyConfigured(
            f"{name} must look like smtp+tls://user:password@host:587 (schemes: "
            f"{', '.join(SMTP_SCHEMES)}), not {url.scheme or value!r}."
        )
    use_tls, use_ssl, default_port = SMTP_SCHEMES[url.scheme]
    try:
        port = url.port or default_port
    except ValueError as error:
        raise ImproperlyConfigured(f"{name} has a port that is not a number.") from error
    return {
        "host": url.hostname,
        "port": port,
        "username": unquote(url.username or ""),
        "password": unquote(url.password or ""),
        "use_tls": use_tls,
        "use_ssl": use_ssl,
    }


def email_host_options() -> dict | None:
    """SMTP options from EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD,
    EMAIL_USE_TLS and EMAIL_USE_SSL, or None when EMAIL_HOST is not set."""
    host = os.environ.get("EMAIL_HOST")
    if not host:
        return None
    use_tls, use_ssl = env_bool("EMAIL_USE_TLS", False), env_bool("EMAIL_USE_SSL", False)
    if use_tls and use_ssl:
        raise ImproperlyConfigured("Set at most one of EMAIL_USE_TLS and EMAIL_USE_SSL.")
    default_port = 465 if use_ssl else 587 if use_tls else 25
    return {
        "host": host,
        "port": env_int("EMAIL_PORT", default_port),
        "username": os.environ.get("EMAIL_HOST_USER", ""),
        "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
        "use_tls": use_tls,
        "use_ssl": use_ssl,
    }


SMTP_FROM_URL, SMTP_FROM_HOST = email_url_options("EMAIL_URL"), email_host_options()
if SMTP_FROM_URL and SMTP_FROM_HOST:
    raise ImproperlyConfigured("Set EMAIL_URL or EMAIL_HOST, not both.")
SMTP_OPTIONS = SMTP_FROM_URL or SMTP_FROM_HOST
if SMTP_OPTIONS:
    # Without a timeout a worker would wait for an unanswering server for ever.
    SMTP_OPTIONS["timeout"] = env_int("EMAIL_TIMEOUT", 20)
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": SMTP_OPTIONS,
        }
    }
elif PRODUCTION:
    raise ImproperlyConfigured(
        "Production needs EMAIL_URL (or EMAIL_HOST): password resets, invitations and "
        "notifications are sent by email."
    )
else:
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "OPTIONS": {"file_path": str(DATA_DIR / "mail")},
        }
    }
if (
    PRODUCTION
    and not (SMTP_OPTIONS["use_tls"] or SMTP_OPTIONS["use_ssl"])
    and SMTP_OPTIONS["host"] not in LOOPBACK_HOSTS
):
    raise ImproperlyConfigured(
        "Production sends email over TLS: use smtp+tls:// or smtp+ssl:// in EMAIL_URL (or "
        "EMAIL_USE_TLS / EMAIL_USE_SSL); plain SMTP only to a relay on this host."
    )


def env_required_in_production(name: str, local_default: str) -> str:
    """The variable's value; in production it must be set and not empty."""
    value = os.environ.get(name, "" if PRODUCTION else local_default)
    if not value:
        raise ImproperlyConfigured(f"{name} is required in production.")
    return value


DEFAULT_FROM_EMAIL = env_required_in_production(
    "DEFAULT_FROM_EMAIL", "Compute Planner <planner@localhost>"
)
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The address people reach the app at, for the links in emails (written outside any request).
SITE_URL = env_required_in_production("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
if urlsplit(SITE_URL).scheme not in {"http", "https"} or not urlsplit(SITE_URL).hostname:
    raise ImproperlyConfigured(
        f"SITE_URL must be an address such as https://planner.example.org, not {SITE_URL!r}."
    )
if PRODUCTION and urlsplit(SITE_URL).scheme != "https":
    raise ImproperlyConfigured("SITE_URL must start with https:// in production.")
# A temporary failure (the server unreachable, a 4xx answer) is retried after EMAIL_RETRY_SECONDS,
# doubling up to four minutes (below the broker's visibility timeout), EMAIL_MAX_RETRIES times;
# what is still unsent is queued again by the periodic resend (apps.notifications.tasks).
EMAIL_RETRY_SECONDS = env_int("EMAIL_RETRY_SECONDS", 30)
EMAIL_MAX_RETRIES = env_int("EMAIL_MAX_RETRIES", 8)
# Password reset links (Django's tokens) last three days; invitation links two weeks.
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 3 * 24 * 60 * 60)
INVITATION_TIMEOUT_SECONDS = env_int("INVITATION_TIMEOUT_SECONDS", 14 * 24 * 60 * 60)

# Celery: without CELERY_BROKER_URL tasks run in-process (the embedded default of `make run`).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
# The queue the app's tasks go to and its workers take (`celery worker -Q`), for deployments
# sharing one broker; a task queued by a task (an email of the daily reminder) goes there too.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "celery")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis hands a task that a lost worker had taken to another worker after this many seconds:
# longer than any task (sweep chunks take seconds, retries wait at most a minute); scanned often.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 300),
    "unacked_restore_throttle": 1,
}
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# Celery beat (the `beat` service of docker-compose.yml) starts the periodic tasks: the daily
# reminder of share links that expire within seven days, and every quarter of an hour the resend
# of emails still unsent. Without beat, `manage.py send_reminders` does both (cron, daily).
CELERY_BEAT_SCHEDULE = {
    "share-links-expiring": {
        "task": "apps.notifications.tasks.share_links_expiring_remind",
        "schedule": crontab(hour=6, minute=0),
    },
    "deliveries-resend": {
        "task": "apps.notifications.tasks.deliveries_resend",
        "schedule": crontab(minute="*/15"),
    },
}
# Celery closes a worker's database connection around every task unless told to reuse it
# (celery/celery#4116): a new PostgreSQL connection for every sweep chunk. Reused for up to this
# many tasks; around each task config.celery closes it as Django does around a request (older
# than CONN_MAX_AGE, or broken).
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 1000)

# The reverse proxies whose X-Forwarded-For is believed, as networks (apps/core/client_address.py):
# in docker-compose.yml, the proxy's address. Empty: every client is the peer of the connection.
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES")
if "NUM_PROXIES" in os.environ:
    raise ImproperlyConfigured(
        "NUM_PROXIES is no longer read: set TRUSTED_PROXIES to the proxies' networks instead."
    )

# Sweeps. Without a broker, one of more points than this is computed in a thread of the server
# rather than in the request that defines it (100,000 points take seconds there).
SWEEP_BACKGROUND_POINTS = env_int("SWEEP_BACKGROUND_POINTS", 20_000)
# Such a sweep whose server has shown no sign of life for this long (it stamps each chunk, well
# under a second apart) lost its server, to a restart or a crash, and is queued again.
SWEEP_ABANDONED_AFTER_SECONDS = env_int("SWEEP_ABANDONED_AFTER_SECONDS", 60)
# What one person may start: sweeps queued or running at once, and points in 24 hours (429).
SWEEP_MAX_ACTIVE_PER_USER = env_int("SWEEP_MAX_ACTIVE_PER_USER", 5)
SWEEP_MAX_POINTS_PER_DAY = env_int("SWEEP_MAX_POINTS_PER_DAY", 5_000_000)

# HTTPS and cookies: on in production, where a TLS-terminating proxy sets X-Forwarded-Proto.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", PRODUCTION)
SESSION_COOKIE_SECURE = PRODUCTION
CSRF_COOKIE_SECURE = PRODUCTION
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True  # forms carry the token; no script reads the cookie
URLIZE_ASSUME_HTTPS = True  # bare domains become https:// links (the browsable API urlizes)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if PRODUCTION else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = PRODUCTION
SECURE_HSTS_PRELOAD = PRODUCTION
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if PRODUCTION else None
SECURE_REFERRER_POLICY = "same-origin"
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
X_FRAME_OPTIONS = "DENY"

# Sessions end after 30 minutes without a request and 12 hours after signing in, whichever is
# first (apps.core.middleware.SessionLifetimeMiddleware); login() gives a new session key.
SESSION_IDLE_SECONDS = 30 * 60
SESSION_MAX_AGE_SECONDS = 12 * 60 * 60
SESSION_COOKIE_AGE = SESSION_MAX_AGE_SECONDS
# Sessions are read from the cache (Redis in production) and written through to the database.
SESSION_ENGINE = "apps.core.sessions"

# Content Security Policy: the app's own scripts and styles only, inline ones with the request's
# nonce (`{{ csp_nonce }}`). Scripts may set styles through the DOM (Chart.js does); style
# attributes in HTML are refused.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "form-action": [CSP.SELF],
    "base-uri": [CSP.NONE],
    "object-src": [CSP.NONE],
}

# One JSON object a line on standard error, each with the id of the request it was logged in
# (also the response's X-Request-ID header), and one line per request with its status. Celery
# workers log the same way (config.celery), with the task's id and its sweep's.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "apps.core.logs.RequestIdFilter"},
        "task": {"()": "apps.core.logs.TaskFilter"},
        "share_tokens": {"()": "apps.core.logs.ShareTokenFilter"},
    },
    "formatters": {"json": {"()": "apps.core.logs.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "json",
            "filters": ["request_id", "task"],
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # The loggers that write request paths, which for share links, invitations and password
    # resets contain the token (a refused CSRF check logs the path too).
    "loggers": {
        name: {"filters": ["share_tokens"]}
        for name in (
            "apps.core.requests",
            "django.request",
            "django.server",
            "django.security.csrf",
        )
    },
}
