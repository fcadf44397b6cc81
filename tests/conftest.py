"""Suite-wide rules: in CI (CI=true) a skipped test is a failure, and the database is PostgreSQL;
every test starts in the default language, and from the same rows (tests/starting_data.py)."""

import os
import sys

import hypothesis.core
import pytest
from django.utils import translation
from hypothesis import settings as hypothesis_settings
from hypothesis.vendor import pretty

from tests.starting_data import starting_data_keep, transactional_tests_restore_the_starting_data

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

# No per-example time limit: the suite shares two cores with its xdist workers, browsers and a
# Celery worker, and Hypothesis's 200 ms deadline then fails property tests on the machine's load,
# not on their code. Speed is measured in `make bench`, never in unit tests.
hypothesis_settings.register_profile("suite", deadline=None)
hypothesis_settings.load_profile("suite")


def pytest_configure(config: pytest.Config) -> None:
    from django.conf import settings
    from django.db.backends.postgresql.creation import DatabaseCreation
    from django.test import override_settings

    DatabaseCreation._destroy_test_db = _drop_test_database_with_force

    # The settings below hold for the rest of the session (of this process: each worker's own).
    quick = "tests.hashers.QuickPBKDF2PasswordHasher"
    override_settings(PASSWORD_HASHERS=[quick, *settings.PASSWORD_HASHERS]).enable()
    _own_cache_keys_per_worker(settings, override_settings)
    _form_widget_templates_not_recorded()


# The templates of Django's form renderer: a field's widget, label, errors and help text.
FORM_RENDERER_TEMPLATES = "django/forms/"


def _form_widget_templates_not_recorded() -> None:
    """The test client records every template a response rendered, with a copy of its context
    (response.templates, response.context), and a page's form renders several templates a field:
    on a page of forms, thousands of copies a request, a tenth of the request's time. The
    templates of Django's form renderer are left out: the tests read the page's own templates and
    context (its form, its rows), which are all still recorded."""
    from django.test import client

    record = client.store_rendered_templates

    def record_unless_a_form_template(store, signal, sender, template, context, **kwargs):
        if not (template.name or "").startswith(FORM_RENDERER_TEMPLATES):
            record(store, signal, sender, template, context, **kwargs)

    client.store_rendered_templates = record_unless_a_form_template


def _drop_test_database_with_force(self, test_database_name: str, verbosity: int) -> None:
    """Drop a test database even where a session of the run is still on it, saying whose.

    CI's last runs ended, now and then, in "database test_…_gw1 is being accessed by other
    users": one idle session of the test process itself, seen beside the sweep thread, whose
    owner the teardown's checks did not catch every time. The suite's outcome is decided by
    then; the session is named on standard error and the database dropped all the same
    (PostgreSQL 13+: WITH (FORCE) ends its sessions)."""
    name = self.connection.ops.quote_name(test_database_name)
    with self._nodb_cursor() as cursor:
        cursor.execute(
            "SELECT pid, application_name, backend_start, state, left(query, 200) "
            "FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [test_database_name],
        )
        for session in cursor.fetchall():
            sys.stderr.write(f"A session left on {test_database_name}: {session!r}\n")
        cursor.execute(f"DROP DATABASE {name} WITH (FORCE)")


def _own_cache_keys_per_worker(settings, override_settings) -> None:
    """Under pytest-xdist (`make test` runs three workers) each worker has its own test database
    (pytest-django names it test_<name>_gw0, …) and its own keys in the shared Redis cache: the
    prefix test-gw0, … (CACHE_KEY_PREFIX), so that one worker clearing its cache, or caching a
    user's roles by id, never reaches the other's. The servers and Celery workers a test starts
    inherit the prefix through the environment."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return
    prefix = os.environ["CACHE_KEY_PREFIX"] = (
        os.environ.get("CACHE_KEY_PREFIX", "") + f"test-{worker}"
    )
    if "KEY_PREFIX" in settings.CACHES["default"]:  # the Redis cache (memory is per process)
        caches = {**settings.CACHES}
        caches["default"] = {**caches["default"], "KEY_PREFIX": prefix}
        override_settings(CACHES=caches).enable()


def pytest_sessionstart(session: pytest.Session) -> None:
    if IN_CI and not os.environ.get("DATABASE_URL", "").startswith(
        ("postgres://", "postgresql://")
    ):
        pytest.exit("CI must run the suite on PostgreSQL: set DATABASE_URL.", returncode=3)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.longrepr = f"Skipped in CI, which counts as a failure: {reason}"


def pytest_collection_finish(session: pytest.Session) -> None:
    """Give Hypothesis its own printer back. Schemathesis (tests/integration/test_api_fuzz.py)
    swaps in one that prints nothing, for speed with its huge cases, for the whole session as
    soon as its pytest plugin loads; every other property test would then report its
    falsifying example as `n=,`. The fuzz test runs as fast with the real one."""
    hypothesis.core.RepresentationPrinter = pretty.RepresentationPrinter


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database with the real catalogue and API prices: the rows every test starts
    from, put back after each transactional test."""
    from django.db import connection

    from apps.apiprices.loading import api_prices_load
    from apps.catalogue.loading import catalogue_load

    with django_db_blocker.unblock():
        catalogue_load()
        api_prices_load()
        starting_data_keep(connection)
    with transactional_tests_restore_the_starting_data():
        yield
    _sweep_thread_done()


def _sweep_thread_done() -> None:
    """Wait for the sweeps a test left queued in this process's sweep thread (the embedded
    default computes large sweeps there: apps.sweeps.background), then close that thread's
    database sessions: an idle thread keeps its session open, and the test database cannot be
    dropped while one is."""
    from django.db import connections

    from apps.sweeps import background

    background.threads.submit(connections.close_all).result(timeout=300)


@pytest.fixture(autouse=True)
def _default_language():
    """LocaleMiddleware activates a request's language in the thread that served it, which for
    the test client is the test's own: a French request must not leave the next test in French."""
    translation.deactivate()
    yield
    translation.deactivate()
