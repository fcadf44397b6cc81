"""Request budgets per client, counted in Django's cache (shared Redis in production).

Fixed windows: each budget allows `requests` in each window of `seconds`, counted under one cache
key per subject (an address, an account…) and window; the key expires with its window.
`cache.incr` is atomic in Redis, so every process of every server counts against the same budget.
"""

import math
import time
from dataclasses import dataclass

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


@dataclass(frozen=True)
class Budget:
    name: str
    requests: int
    seconds: int

    def _key(self, subject: str, now: float) -> tuple[str, int]:
        """The cache key of the current window, and the seconds until the next one."""
        window = int(now // self.seconds)
        retry_after = math.ceil((window + 1) * self.seconds - now)
        return f"ratelimit:{self.name}:{subject}:{window}", max(retry_after, 1)

    def spent(self, subject: str) -> int | None:
        """Seconds to wait if the subject has used up this window's budget, else None."""
        key, retry_after = self._key(subject, time.time())
        return retry_after if cache.get(key, 0) >= self.requests else None

    def spend(self, subject: str) -> int | None:
        """Count one request; seconds to wait if it goes over this window's budget, else None."""
        key, retry_after = self._key(subject, time.time())
        cache.add(key, 0, timeout=self.seconds + 1)
        try:
            count = cache.incr(key)
        except ValueError:  # the window ended between add and incr
            cache.set(key, 1, timeout=self.seconds + 1)
            count = 1
        # None while the cache cannot be reached: nothing counts then (README, "When Redis is down")
        return retry_after if count is not None and count > self.requests else None

    def refill(self, subject: str) -> None:
        """Forget what the subject spent in this window."""
        cache.delete(self._key(subject, time.time())[0])


def too_many_requests(
    request: HttpRequest, *, retry_after_seconds: float, reason: str = ""
) -> HttpResponse:
    """The 429 page, with Retry-After in whole seconds, and `reason` (what is limited) if given."""
    retry_after = max(math.ceil(retry_after_seconds), 1)
    response = render(
        request,
        "429.html",
        {"retry_after_minutes": math.ceil(retry_after / 60), "reason": reason},
        status=429,
    )
    response["Retry-After"] = str(retry_after)
    return response
