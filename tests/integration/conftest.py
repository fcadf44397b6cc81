"""Fixtures for database tests: the real catalogue, loaded once per test database."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from apps.apiprices.loading import api_prices_load
from apps.catalogue.loading import catalogue_load


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        catalogue_load()
        api_prices_load()


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()
