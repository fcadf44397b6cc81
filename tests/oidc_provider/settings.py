"""A small OpenID Connect provider (django-oauth-toolkit) that the sign-in tests run in a process
of its own, as an organisation's identity provider would be: tests/integration/oidc.py starts it.

Everything comes from the environment the tests give it: its database file, its issuer (the
address it serves on) and its signing key."""

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent

SECRET_KEY = "test-provider-only-" + "x" * 40
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "tests.oidc_provider.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [HERE / "templates"],
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
DATABASES = {
    "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ["PROVIDER_DATABASE"]}
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
LOGIN_URL = "/login/"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # a test provider only

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_ISS_ENDPOINT": os.environ["PROVIDER_ISSUER"],
    "OIDC_RSA_PRIVATE_KEY": os.environ["PROVIDER_SIGNING_KEY"],
    "PKCE_REQUIRED": True,
    "SCOPES": {
        "openid": "OpenID Connect",
        "email": "Email address",
        "profile": "Profile and groups",
    },
    "OAUTH2_VALIDATOR_CLASS": "tests.oidc_provider.validator.Validator",
}
LOGGING = {"version": 1, "disable_existing_loggers": False}
