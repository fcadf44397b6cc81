"""Limits on failed sign-ins, per account and per client address, in the shared cache.

Every password check goes through `LoginLimitedModelBackend` (settings.AUTHENTICATION_BACKENDS):
the sign-in page, the admin's and the API's token endpoint alike. Each failure spends one attempt
of the account's budget and one of the address's; once either is spent, the password is not even
checked and the caller gets 429 with Retry-After until the window ends. Windows are fixed (see
`ratelimit`), so across the edge of one a guesser gets at most twice a budget in a row.

A success refills the account's budget (its owner knows the password) but never the address's:
otherwise one valid account would let a guesser at that address start again after each success.
"""

import hashlib

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.http import HttpRequest
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import Throttled

from apps.core.ratelimit import Budget, client_address


class TooManyLoginAttempts(Throttled):
    """Raised instead of checking a password while a budget is spent.

    A DRF `Throttled`, so that the API answers 429 with Retry-After by itself;
    `LoginLimitMiddleware` answers the sign-in pages with the 429 page.
    """

    default_detail = gettext_lazy("Too many failed sign-in attempts.")


def _budgets() -> tuple[Budget, Budget]:
    window_seconds = settings.LOGIN_FAILURE_WINDOW_SECONDS
    return (
        Budget("login-account", settings.LOGIN_FAILURES_PER_ACCOUNT, window_seconds),
        Budget("login-address", settings.LOGIN_FAILURES_PER_ADDRESS, window_seconds),
    )


def _digest(text: str) -> str:
    """A short fixed-length cache key part: usernames and forwarded addresses are user input."""
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _subjects(request: HttpRequest | None, username: str) -> tuple[str, str | None]:
    # One budget for every spelling of a name: "Manager" and "manager" are the same guess.
    account = _digest(username.casefold())
    address = _digest(client_address(request)) if request is not None else None
    return account, address


def check_login_allowed(request: HttpRequest | None, username: str) -> None:
    """Raise TooManyLoginAttempts if the account's or the address's budget is spent."""
    account_budget, address_budget = _budgets()
    account, address = _subjects(request, username)
    waits = [account_budget.spent(account)]
    if address is not None:
        waits.append(address_budget.spent(address))
    retry_after = max((wait for wait in waits if wait), default=None)
    if retry_after:
        raise TooManyLoginAttempts(wait=retry_after)


def record_login_failure(request: HttpRequest | None, username: str) -> None:
    account_budget, address_budget = _budgets()
    account, address = _subjects(request, username)
    account_budget.spend(account)
    if address is not None:
        address_budget.spend(address)


def record_login_success(request: HttpRequest | None, username: str) -> None:
    account_budget, _ = _budgets()
    account, _ = _subjects(request, username)
    account_budget.refill(account)


class LoginLimitedModelBackend(ModelBackend):
    """Django's username-and-password backend, behind the login budgets."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if username is None or password is None:
            return None
        check_login_allowed(request, username)
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            record_login_failure(request, username)
        else:
            record_login_success(request, username)
        return user
