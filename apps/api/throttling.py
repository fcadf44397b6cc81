"""The API's rate limit: the "anon" rate for anonymous callers, the "user" rate for the others."""

from array import array

from rest_framework.settings import api_settings
from rest_framework.throttling import SimpleRateThrottle

from apps.core.client_address import client_address


class ClientAddressThrottle(SimpleRateThrottle):
    """A DRF throttle that counts anonymous callers by the address every limit of the app uses:
    X-Forwarded-For only as written by the proxies in TRUSTED_PROXIES (DRF's own `get_ident`
    believes the header's last NUM_PROXIES entries from whoever sends it)."""

    def get_ident(self, request) -> str:
        return client_address(request)


class AnonOrUserRateThrottle(ClientAddressThrottle):
    """DRF's AnonRateThrottle and UserRateThrottle as one check per request.

    Anonymous callers get the "anon" rate, counted per IP address; authenticated ones the "user"
    rate, counted per user, under the same cache keys as DRF's two classes. (With those two, an
    anonymous caller was also counted, per IP address, against the more generous user rate.)

    The window is DRF's: the times of the requests in the last period, newest first. It is stored
    as an array of floats rather than a list because the cache pickles it on every request, and a
    long history, which a generous rate keeps, (un)pickles many times faster as an array.
    """

    def __init__(self) -> None:
        # The rate depends on the caller, so it is set per request (as ScopedRateThrottle does).
        pass

    def allow_request(self, request, view) -> bool:
        self.scope = "user" if request.user.is_authenticated else "anon"
        # The rates as the settings say now; DRF's classes keep those of import time, which a
        # changed setting (override_settings in a test, say) does not reach.
        self.THROTTLE_RATES = api_settings.DEFAULT_THROTTLE_RATES
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request, view) -> str:
        user = request.user
        ident = user.pk if user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def throttle_success(self) -> bool:
        # A new caller's history starts as DRF's empty list; from then on it is an array, which
        # supports every list operation SimpleRateThrottle uses (len, [-1], pop, insert).
        if not isinstance(self.history, array):
            self.history = array("d", self.history)
        return super().throttle_success()
