"""Suite-wide rules: in CI (CI=true) a skipped test is a failure, and the database is PostgreSQL;
every test starts in the default language."""

import os

import hypothesis.core
import pytest
from django.utils import translation
from hypothesis.vendor import pretty

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}


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


@pytest.fixture(autouse=True)
def _default_language():
    """LocaleMiddleware activates a request's language in the thread that served it, which for
    the test client is the test's own: a French request must not leave the next test in French."""
    translation.deactivate()
    yield
    translation.deactivate()
