"""Middleware: a request id on every response and log record, session lifetime, login limits."""

import logging
import re
import time
import uuid
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import SESSION_KEY, logout
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext

from apps.core.login_limits import TooManyLoginAttempts, remember_browser
from apps.core.logs import current_request_id, without_share_tokens
from apps.core.ratelimit import too_many_requests

request_logger = logging.getLogger("apps.core.requests")

# An incoming X-Request-ID (from a proxy or a client) is kept if it is short and plain.
REQUEST_ID_PATTERN = re.compile(r"[A-Za-z0-9._:-]{1,64}")
REQUEST_ID_HEADER = "X-Request-ID"

SIGNED_IN_AT = "core.signed_in_at"
LAST_SEEN_AT = "core.last_seen_at"
# The last request's time is written at most once a minute, not on every request, so a session
# ends between 29 and 30 minutes without a request, never later.
LAST_SEEN_RESOLUTION_SECONDS = 60


class RequestIdMiddleware:
    """Gives each request an id: response header X-Request-ID, and on every log record."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        incoming = request.headers.get(REQUEST_ID_HEADER, "")
        request_id = incoming if REQUEST_ID_PATTERN.fullmatch(incoming) else str(uuid.uuid4())
        token = current_request_id.set(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response[REQUEST_ID_HEADER] = request_id
            path = without_share_tokens(request.path)
            request_logger.info(
                "%s %s %s",
                request.method,
                path,
                response.status_code,
                extra={
                    "method": request.method,
                    "path": path,
                    "status": response.status_code,
                    "duration_ms": round((time.perf_counter() - started) * 1000, 1),
                },
            )
            return response
        finally:
            current_request_id.reset(token)


def stamp_sign_in_time(sender, request: HttpRequest, user, **kwargs) -> None:
    """user_logged_in receiver: the session's absolute lifetime counts from here."""
    now = int(time.time())
    request.session[SIGNED_IN_AT] = now
    request.session[LAST_SEEN_AT] = now


class SessionLifetimeMiddleware:
    """Signs out a session idle for SESSION_IDLE_SECONDS or older than SESSION_MAX_AGE_SECONDS.

    A signed-in session without a sign-in time was not started by `login()` and is ended too.
    Goes after AuthenticationMiddleware and MessageMiddleware.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = request.session
        if SESSION_KEY in session:
            now = time.time()
            signed_in_at = session.get(SIGNED_IN_AT)
            last_seen_at = session.get(LAST_SEEN_AT)
            if (
                signed_in_at is None
                or last_seen_at is None
                or now - signed_in_at >= settings.SESSION_MAX_AGE_SECONDS
                or now - last_seen_at >= settings.SESSION_IDLE_SECONDS
            ):
                logout(request)
                messages.info(request, gettext("Your session ended. Sign in again to continue."))
            elif now - last_seen_at >= LAST_SEEN_RESOLUTION_SECONDS:
                session[LAST_SEEN_AT] = int(now)
        return self.get_response(request)


class LoginLimitMiddleware:
    """Answers a sign-in page with the 429 page once a login budget is spent, and after a sign-in
    gives the browser the cookie that vouches for it next time (see login_limits).

    The API's token endpoint answers through DRF instead: the exception is a DRF Throttled.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        remember_browser(request, response)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, TooManyLoginAttempts):
            return too_many_requests(
                request, retry_after_seconds=exception.wait, reason=exception.default_detail
            )
        return None
