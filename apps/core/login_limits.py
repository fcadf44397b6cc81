"""Limits on failed sign-ins that stop a guesser without locking out the account's owner.

Every password check goes through `LoginLimitedModelBackend` (settings.AUTHENTICATION_BACKENDS):
the sign-in page, the admin's and the API's token endpoint alike. Failures are counted in the
shared cache, each in three budgets of the same window:

- the account *at this client address*: once spent, that address may not try the account again
  until the window ends (429 with Retry-After). Another address is not concerned, so a stranger
  who fails five times on someone's name locks only themselves out;
- the client address, whatever the account: a guesser trying many names from one address;
- the account from every address: once spent, the account is attacked from many addresses, and
  attempts from an address it has never signed in from are slowed to one per
  LOGIN_SLOWED_SECONDS_PER_ATTEMPT for the whole account (the others get 429 until the next).
  The account is not locked: its owner signs in as usual from an address they signed in from
  before, or from a browser they signed in with before, whatever its address now (a signed
  cookie naming the account); both are remembered for LOGIN_KNOWN_SECONDS after each success.

A success refills the account's budget at its address (its owner knows the password), never the
address's own budget: otherwise one valid account would let a guesser at that address start again
after each success. Nor does it refill the account's budget over every address, which the
guessers spend. Windows are fixed (see `ratelimit`), so across the edge of one a guesser gets at
most twice a budget in a row. The client address is the one every limit uses (`client_address`).
"""

import hashlib

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core import signing
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import Throttled

from apps.core.client_address import client_address
from apps.core.ratelimit import Budget

KNOWN_BROWSER_COOKIE = "known_browser"
KNOWN_BROWSER_SALT = "apps.core.login_limits.known_browser"
# A browser shared by a family or a team remembers its last few accounts.
KNOWN_BROWSER_ACCOUNTS = 5
# Where the backend leaves the account just signed in, for LoginLimitMiddleware's cookie.
SIGNED_IN_ACCOUNT = "login_limits_signed_in_account"


class TooManyLoginAttempts(Throttled):
    """Raised instead of checking a password while a budget is spent.

    A DRF `Throttled`, so that the API answers 429 with Retry-After by itself;
    `LoginLimitMiddleware` answers the sign-in pages with the 429 page and `default_detail`.
    """

    default_detail = gettext_lazy("Too many failed sign-in attempts.")


class SignInSlowed(TooManyLoginAttempts):
    """Raised, while the account is attacked, for an address and a browser it never signed in
    from, when another such attempt took the account's turn."""

    default_detail = gettext_lazy(
        "This account has had many failed sign-in attempts from elsewhere, so sign-ins from "
        "places it has not been used from are slowed down. Try again shortly, or sign in from "
        "a browser or a network where you signed in before."
    )


def _window_budget(name: str, failures: int) -> Budget:
    return Budget(name, failures, settings.LOGIN_FAILURE_WINDOW_SECONDS)


def _at_address_budget() -> Budget:
    return _window_budget("login-account-address", settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS)


def _address_budget() -> Budget:
    return _window_budget("login-address", settings.LOGIN_FAILURES_PER_ADDRESS)


def _account_budget() -> Budget:
    return _window_budget("login-account", settings.LOGIN_ACCOUNT_FAILURES_BEFORE_SLOWING)


def _slowed_budget() -> Budget:
    return Budget("login-account-slowed", 1, settings.LOGIN_SLOWED_SECONDS_PER_ATTEMPT)


def _digest(text: str) -> str:
    """A short fixed-length cache key part: usernames and forwarded addresses are user input."""
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _known_browser_accounts(request: HttpRequest | None) -> list[str]:
    """The accounts whose sign-ins the browser's cookie vouches for (digests, newest first)."""
    cookie = request.COOKIES.get(KNOWN_BROWSER_COOKIE) if request is not None else None
    if not cookie:
        return []
    try:
        accounts = signing.loads(
            cookie, salt=KNOWN_BROWSER_SALT, max_age=settings.LOGIN_KNOWN_SECONDS
        )
    except signing.BadSignature:
        return []
    return accounts if isinstance(accounts, list) else []


class _Attempt:
    """The subjects one password check counts against: its account, its client address, both."""

    def __init__(self, request: HttpRequest | None, username: str) -> None:
        # One account for every spelling of a name: "Manager" and "manager" are the same guess.
        self.account = _digest(username.casefold())
        self.address = _digest(client_address(request) if request is not None else "")
        self.account_at_address = f"{self.account}:{self.address}"
        self.known_address_key = f"login-known-address:{self.account_at_address}"
        self.request = request

    def is_known(self) -> bool:
        """Whether the account signed in from this address or this browser before."""
        return cache.get(
            self.known_address_key
        ) is not None or self.account in _known_browser_accounts(self.request)


def check_login_allowed(request: HttpRequest | None, username: str) -> None:
    """Raise TooManyLoginAttempts if this address has spent its budget, on this account or on
    all; SignInSlowed if the account is attacked and this address has to wait its turn."""
    attempt = _Attempt(request, username)
    waits = [
        _at_address_budget().spent(attempt.account_at_address),
        _address_budget().spent(attempt.address),
    ]
    retry_after = max((wait for wait in waits if wait), default=None)
    if retry_after:
        raise TooManyLoginAttempts(wait=retry_after)
    if _account_budget().spent(attempt.account) and not attempt.is_known():
        retry_after = _slowed_budget().spend(attempt.account)
        if retry_after:
            raise SignInSlowed(wait=retry_after)


def record_login_failure(request: HttpRequest | None, username: str) -> None:
    attempt = _Attempt(request, username)
    _at_address_budget().spend(attempt.account_at_address)
    _address_budget().spend(attempt.address)
    _account_budget().spend(attempt.account)


def record_login_success(request: HttpRequest | None, username: str) -> None:
    attempt = _Attempt(request, username)
    _at_address_budget().refill(attempt.account_at_address)
    cache.set(attempt.known_address_key, True, timeout=settings.LOGIN_KNOWN_SECONDS)
    if request is not None:
        setattr(request, SIGNED_IN_ACCOUNT, attempt.account)


def remember_browser(request: HttpRequest, response: HttpResponse) -> None:
    """After a sign-in through a page, the cookie that vouches for this browser next time."""
    account = getattr(request, SIGNED_IN_ACCOUNT, None)
    if account is None:
        return
    others = [known for known in _known_browser_accounts(request) if known != account]
    accounts = [account, *others][:KNOWN_BROWSER_ACCOUNTS]
    response.set_cookie(
        KNOWN_BROWSER_COOKIE,
        signing.dumps(accounts, salt=KNOWN_BROWSER_SALT),
        max_age=settings.LOGIN_KNOWN_SECONDS,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


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
