"""Fixtures for database tests (the real catalogue is loaded once per test database: see
django_db_setup in tests/conftest.py)."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.factories import make_manager


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
def stranger():
    """Another manager, who neither owns nor shares the owner's projects."""
    return make_manager("stranger")
