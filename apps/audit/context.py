"""The request an event is written in, for events written where no caller names the actor (a
tracked model saved in the admin, a role changed by a signal): set by AuditContextMiddleware."""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.http import HttpRequest

from apps.core.client_address import client_address

_current_request: ContextVar[HttpRequest | None] = ContextVar("audit_request", default=None)
# Inside one action, the events of the services it calls are not written: it writes its own.
_inside_action: ContextVar[bool] = ContextVar("audit_inside_action", default=False)


@contextmanager
def request_context(request: HttpRequest) -> Iterator[None]:
    token = _current_request.set(request)
    try:
        yield
    finally:
        _current_request.reset(token)


def current_actor():
    """The signed-in user of the request being served, or None."""
    request = _current_request.get()
    user = getattr(request, "user", None)
    return user if user is not None and user.is_authenticated else None


def current_address() -> str | None:
    request = _current_request.get()
    return (client_address(request) or None) if request is not None else None


@contextmanager
def one_action() -> Iterator[None]:
    """Inside, the services an action calls write no event of their own (a project created
    with its first scenario is one event, not two); the action writes its own after."""
    token = _inside_action.set(True)
    try:
        yield
    finally:
        _inside_action.reset(token)


def inside_action() -> bool:
    return _inside_action.get()
