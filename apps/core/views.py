"""Error responses: pages in the app's layout for people, DRF's JSON shape on API paths.

None of them shows what went wrong inside: no exception text, no path, no setting. The 500 page
shows the request id, which finds the log lines of the failure. A database that is busy or out of
reach for a moment answers 503 with Retry-After instead of 500.
"""

import sys

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, HttpResponseServerError, JsonResponse
from django.template import loader
from django.utils.translation import gettext
from django.views import defaults
from django.views.decorators.csrf import requires_csrf_token
from rest_framework import exceptions

from apps.core.context_processors import navigation
from apps.core.logs import current_request_id

API_PATH_PREFIX = "/api/"
# A write waits up to SQLITE_TIMEOUT_SECONDS for the lock, and a restarted PostgreSQL is back
# within seconds: a few seconds later is a fair time to try again.
DATABASE_RETRY_AFTER_SECONDS = 5


def _json_error(request: HttpRequest, exception_class: type[exceptions.APIException]):
    """DRF's error body for the status of `exception_class`, if this is an API path."""
    if request.path.startswith(API_PATH_PREFIX):
        return JsonResponse(
            {"detail": str(exception_class.default_detail)}, status=exception_class.status_code
        )
    return None


@requires_csrf_token
def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _json_error(request, exceptions.ParseError) or defaults.bad_request(request, exception)


@requires_csrf_token
def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _json_error(request, exceptions.PermissionDenied) or defaults.permission_denied(
        request, exception
    )


@requires_csrf_token
def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _json_error(request, exceptions.NotFound) or defaults.page_not_found(request, exception)


@requires_csrf_token
def server_error(request: HttpRequest) -> HttpResponse:
    """Django calls this inside the `except` of the uncaught exception, wherever it was raised:
    in a view, the API or a middleware (a session write)."""
    if isinstance(sys.exception(), OperationalError):
        return database_unavailable(request)
    # No request context: the page must render even when what broke was a context processor.
    return _json_error(request, exceptions.APIException) or HttpResponseServerError(
        loader.get_template("500.html").render({"request_id": current_request_id.get()})
    )


def database_unavailable(request: HttpRequest) -> HttpResponse:
    """503 with Retry-After: the database did not answer in time (SQLite's write lock stayed taken
    past the busy timeout, PostgreSQL restarted or is out of connections). The transaction it was
    in rolled back, so nothing was half-written; the same request can simply be sent again.

    No request context either: the user and the session are read from that same database."""
    if request.path.startswith(API_PATH_PREFIX):
        detail = gettext("The database is busy; nothing was saved. Try again in a few seconds.")
        response = JsonResponse({"detail": detail}, status=503)
    else:
        response = HttpResponse(
            loader.get_template("503.html").render(
                {**navigation(request), "request_id": current_request_id.get()}
            ),
            status=503,
        )
    response["Retry-After"] = str(DATABASE_RETRY_AFTER_SECONDS)
    return response
