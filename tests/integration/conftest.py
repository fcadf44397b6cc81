"""Fixtures for database tests (the real catalogue is loaded once per test database: see
django_db_setup in tests/conftest.py)."""

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from apps.sweeps import tasks
from tests.factories import make_manager, make_project, make_scenario


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def owner():
    """A manager who owns the test's projects (a module may define its own)."""
    return make_manager("owner")


@pytest.fixture
def browser(owner) -> Client:
    """The owner signed in to the pages, as a browser with its session (a module may define its
    own)."""
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def stranger():
    """Another manager, who neither owns nor shares the owner's projects."""
    return make_manager("stranger")


@pytest.fixture
def scenario(owner):
    """A scenario of the owner's, with the factories' defaults (a module may define its own)."""
    return make_scenario(make_project(owner))


@pytest.fixture
def queued(monkeypatch) -> list[tuple]:
    """The sweep chunk tasks a commit queues, recorded instead of sent."""
    sent = []
    monkeypatch.setattr(tasks.sweep_run_chunk, "delay", lambda *args: sent.append(args))
    return sent
