"""Lets events written without a named actor (the admin's edits of tracked models, role changes)
know who made them, and from which address."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from apps.audit.context import request_context


class AuditContextMiddleware:
    """Goes after AuthenticationMiddleware. Reads nothing itself: the user is loaded only when an
    event is written."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with request_context(request):
            return self.get_response(request)
