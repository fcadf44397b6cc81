"""Settings from the environment: production values pass `check --deploy`, unsafe ones refuse."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from tests.conftest import IN_CI

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "COMPUTE_PLANNER_ENV": "production",
    "DJANGO_SECRET_KEY": "x7#kq2!v9Lm4@pZr8Tn1&wE5yU3oI6aS0dF2gH4jK7lQ9zX1cV5bN8mR3tY6uP0",
    "DJANGO_ALLOWED_HOSTS": "planner.example.org",
    "DATABASE_URL": "postgres://planner:secret@db:5432/planner",
    "REDIS_URL": "redis://redis:6379/1",
    "CELERY_BROKER_URL": "redis://redis:6379/0",
    "RELEASE_ID": "2026.12.1",
    "EMAIL_URL": "smtp+tls://planner%40example.org:p%3Ass@mail.example.org:587",
    "DEFAULT_FROM_EMAIL": "Compute Planner <planner@example.org>",
    "SITE_URL": "https://planner.example.org",
}


def manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_reports_nothing_with_production_values():
    result = manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "System check identified no issues (0 silenced)." in result.stdout


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"DJANGO_SECRET_KEY": "short"}, "DJANGO_SECRET_KEY must be at least 50"),
        ({"DJANGO_ALLOWED_HOSTS": ""}, "DJANGO_ALLOWED_HOSTS is required"),
        ({"DATABASE_URL": "sqlite:///x.sqlite3"}, "needs DATABASE_URL pointing at PostgreSQL"),
        ({"REDIS_URL": ""}, "Production needs REDIS_URL"),
        ({"RELEASE_ID": ""}, "Production needs RELEASE_ID"),
        ({"DJANGO_DEBUG": "true"}, "DJANGO_DEBUG must be off"),
        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG must be true or false"),
        ({"TRUSTED_PROXIES": "172.30.0.2/33"}, "TRUSTED_PROXIES must list networks"),
        ({"TRUSTED_PROXIES": "proxy"}, "TRUSTED_PROXIES must list networks"),
        ({"NUM_PROXIES": "1"}, "set TRUSTED_PROXIES to the proxies' networks instead"),
        ({"EMAIL_URL": ""}, "Production needs EMAIL_URL (or EMAIL_HOST)"),
        ({"EMAIL_URL": "smtp://mail.example.org"}, "Production sends email over TLS"),
        ({"EMAIL_URL": "mailto:planner@example.org"}, "EMAIL_URL must look like smtp+tls://"),
        ({"EMAIL_URL": "smtp+tls://mail.example.org:port"}, "EMAIL_URL has a port that is not"),
        ({"EMAIL_HOST": "mail.example.org"}, "Set EMAIL_URL or EMAIL_HOST, not both"),
        ({"DEFAULT_FROM_EMAIL": ""}, "DEFAULT_FROM_EMAIL is required in production"),
        ({"SITE_URL": ""}, "SITE_URL is required in production"),
        ({"SITE_URL": "http://planner.example.org"}, "SITE_URL must start with https://"),
        ({"SITE_URL": "planner.example.org"}, "SITE_URL must be an address such as"),
    ],
)
def test_production_refuses_to_start_with_an_unsafe_setting(change, message):
    result = manage("check", env={**PRODUCTION_ENV, **change})
    assert result.returncode != 0
    assert message in result.stderr


def settings_of(names: str, env: dict[str, str]) -> list[str]:
    """The repr of each named setting, as a process started with `env` reads them."""
    code = f"from django.conf import settings; [print(repr(getattr(settings, n))) for n in {names.split()!r}]"
    result = manage("shell", "-c", code, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()[-len(names.split()) :]


def test_production_sends_email_over_smtp_from_email_url():
    (mailers,) = settings_of("MAILERS", PRODUCTION_ENV)
    assert mailers == repr(
        {
            "default": {
                "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
                "OPTIONS": {
                    "host": "mail.example.org",
                    "port": 587,
                    "username": "planner@example.org",
                    "password": "p:ss",
                    "use_tls": True,
                    "use_ssl": False,
                    "timeout": 20,
                },
            }
        }
    )


def test_the_usual_email_settings_work_too_and_tls_from_the_start():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "EMAIL_URL"}
    env |= {"EMAIL_HOST": "mail.example.org", "EMAIL_USE_SSL": "true", "EMAIL_TIMEOUT": "5"}
    (mailers,) = settings_of("MAILERS", env)
    assert "'port': 465" in mailers and "'use_ssl': True" in mailers and "'timeout': 5" in mailers


def test_production_may_relay_plain_smtp_through_this_host_only():
    env = {**PRODUCTION_ENV, "EMAIL_URL": "smtp://127.0.0.1:25"}
    (mailers,) = settings_of("MAILERS", env)
    assert "'host': '127.0.0.1'" in mailers and "'use_tls': False" in mailers


def test_make_run_writes_email_to_files_in_the_data_folder(tmp_path):
    env = {"COMPUTE_PLANNER_ENV": "local", "DATA_DIR": str(tmp_path)}
    mailers, site = settings_of("MAILERS SITE_URL", env)
    assert "filebased.EmailBackend" in mailers and str(tmp_path / "mail") in mailers
    assert site == "'http://127.0.0.1:8000'"


def test_production_refuses_to_start_without_a_secret_key():
    env = {k: v for k, v in PRODUCTION_ENV.items() if k != "DJANGO_SECRET_KEY"}
    result = manage("check", env=env)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY is required" in result.stderr


def test_every_cache_key_carries_the_release_id():
    result = manage(
        "shell",
        "-c",
        "from django.core.cache import cache; print(cache.make_key('page'))",
        env={**PRODUCTION_ENV, "RELEASE_ID": "2027.1.0", "CACHE_KEY_PREFIX": "a"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "a:2027.1.0:page"


def test_default_database_is_a_sqlite_file_in_the_data_folder():
    result = manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.DATABASES['default'])",
        env={"COMPUTE_PLANNER_ENV": "local"},
    )
    assert result.returncode == 0, result.stderr
    assert "django.db.backends.sqlite3" in result.stdout
    assert "compute-planner.sqlite3" in result.stdout


@pytest.mark.django_db
def test_ci_runs_the_suite_on_postgresql():
    if IN_CI:
        assert connection.vendor == "postgresql"
    else:
        expected = "postgresql" if "postgres" in os.environ.get("DATABASE_URL", "") else "sqlite"
        assert connection.vendor == expected


def test_tasks_run_in_process_without_a_broker_and_on_the_broker_when_one_is_set():
    assert settings.CELERY_TASK_ALWAYS_EAGER is (not os.environ.get("CELERY_BROKER_URL"))
    if IN_CI:
        assert settings.CELERY_BROKER_URL.startswith("redis://")
        assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")


@pytest.mark.redis
def test_the_configured_broker_answers():
    if not settings.CELERY_BROKER_URL:
        pytest.skip("no CELERY_BROKER_URL: tasks run in-process")
    from config.celery import app

    with app.connection_for_write() as conn:
        conn.ensure_connection(max_retries=2)
        assert conn.connected
