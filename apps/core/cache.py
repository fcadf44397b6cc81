"""The shared Redis cache, degrading to no cache while Redis cannot be reached, never an error.

Every call that cannot reach Redis answers as Django's DummyCache would (nothing is stored, every
read misses) and logs a warning at most once a minute a process. What that means for each use is
in the README (Configuration): throttles and sign-in limits stop counting, sessions and pages
are read from the database and rendered afresh.
"""

import logging
import re
import time
from collections.abc import Callable
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

UNREACHABLE = (RedisConnectionError, RedisTimeoutError)
WARNING_INTERVAL_SECONDS = 60
# Keys looked at, and deleted, a round trip when clear() empties only a prefix's keys.
SCAN_BATCH = 1000


class DegradingRedisCache(RedisCache):
    _warned_at = -WARNING_INTERVAL_SECONDS

    def _or[T](self, fallback: T, call: Callable[..., T], *args: Any) -> T:
        try:
            return call(*args)
        except UNREACHABLE as error:
            now = time.monotonic()
            if now - DegradingRedisCache._warned_at >= WARNING_INTERVAL_SECONDS:
                DegradingRedisCache._warned_at = now
                logger.warning("The Redis cache cannot be reached; going on without it: %s", error)
            return fallback

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._or(True, super().add, key, value, timeout, version)

    def get(self, key, default=None, version=None):
        return self._or(default, super().get, key, default, version)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._or(None, super().set, key, value, timeout, version)

    def touch(self, key, timeout=DEFAULT_TIMEOUT, version=None):
        return self._or(False, super().touch, key, timeout, version)

    def delete(self, key, version=None):
        return self._or(False, super().delete, key, version)

    def get_many(self, keys, version=None):
        return self._or({}, super().get_many, keys, version)

    def has_key(self, key, version=None):
        return self._or(False, super().has_key, key, version)

    def incr(self, key, delta=1, version=None):
        missing = object()
        value = self._or(missing, super().incr, key, delta, version)
        if value is missing:  # as for a key that is not there
            raise ValueError(f"Key {key!r} not found.")
        return value

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._or([], super().set_many, data, timeout, version)

    def delete_many(self, keys, version=None):
        return self._or(None, super().delete_many, keys, version)

    def clear(self):
        """Empty the Redis database, or with a KEY_PREFIX only the keys under it."""
        if not self.key_prefix:
            return self._or(None, super().clear)
        return self._or(None, self._delete_prefixed)

    def _delete_prefixed(self) -> None:
        client = self._cache.get_client(write=True)
        # Keys are "prefix:version:key" (Django's default KEY_FUNCTION); glob characters escaped.
        pattern = re.sub(r"([*?\[\]\\])", r"\\\1", self.key_prefix) + ":*"
        keys = list(client.scan_iter(match=pattern, count=SCAN_BATCH))
        for start in range(0, len(keys), SCAN_BATCH):
            client.delete(*keys[start : start + SCAN_BATCH])
