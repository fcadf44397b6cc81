"""Deployments (and test workers) that share one Redis database under their own CACHE_KEY_PREFIX:
clearing one's cache leaves the others' keys alone."""

import os
import uuid

import pytest
from django.conf import settings
from django.core.cache import cache

from apps.core.cache import PrefixedRedisCache
from tests.integration.test_settings import PRODUCTION_ENV, manage


def redis_cache(prefix: str) -> PrefixedRedisCache:
    if not settings.REDIS_URL:
        pytest.skip("no REDIS_URL: the cache is per-process memory here (CI has Redis)")
    return PrefixedRedisCache(settings.REDIS_URL, {"KEY_PREFIX": prefix})


@pytest.mark.redis
def test_clearing_a_prefixed_cache_deletes_its_keys_only():
    run = uuid.uuid4().hex
    # A glob character in a prefix matches only itself: "*" must not reach the other one.
    ours, theirs = redis_cache(f"{run}*"), redis_cache(f"{run}-other")
    for index in range(1_500):  # more keys than one round trip deletes
        ours.set(f"key-{index}", index)
    theirs.set("key-0", "kept")
    ours.clear()
    assert ours.get_many([f"key-{index}" for index in range(1_500)]) == {}
    assert theirs.get("key-0") == "kept"
    theirs.clear()
    assert theirs.get("key-0") is None


def test_the_prefix_comes_from_the_environment():
    result = manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.CACHES['default']['KEY_PREFIX'])",
        env={**PRODUCTION_ENV, "CACHE_KEY_PREFIX": "deployment-a"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "deployment-a"


def test_each_test_worker_keeps_its_cache_keys_apart():
    """tests/conftest.py gives each pytest-xdist worker its own prefix, servers it starts too."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    prefix = os.environ.get("CACHE_KEY_PREFIX", "")
    if worker:
        assert prefix.endswith(f"test-{worker}")
    if settings.REDIS_URL:
        assert cache.key_prefix == prefix
    else:  # per-process memory, each worker's own anyway
        assert settings.CACHES["default"]["BACKEND"].endswith("LocMemCache")
