"""The shared Redis cache: django-redis, whose clear() empties this deployment's keys only.

While Redis cannot be reached, django-redis answers as an empty cache (IGNORE_EXCEPTIONS in
config/settings.py): every read misses, nothing is stored, and each call it skips is logged. Its
clear() would flush the whole Redis database, which deployments and test workers share, each
under its own KEY_PREFIX; here clear() deletes the keys under this cache's prefix and release.
"""

from django_redis.cache import RedisCache


class PrefixedRedisCache(RedisCache):
    def clear(self) -> None:
        self.delete_pattern("*")
