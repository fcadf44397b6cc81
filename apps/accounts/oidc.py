"""Sign-in with the organisation's OpenID Connect provider, through mozilla-django-oidc.

The library runs the authorization code flow with state, nonce and PKCE (S256), checks the ID
token's signature against the provider's keys and its nonce. What it leaves to us, and this
module adds: the provider's endpoints from its discovery document (OIDC_ISSUER only is
configured), the ID token's issuer and audience (this client), a user found again by the
provider's subject rather than by an email address alone, the roles from a groups claim, and a
failure that reads as one on the sign-in page. It is on only when OIDC_ISSUER is set: local
accounts stay, and `make run` needs no provider.
"""

import logging
import secrets

import jwt
import requests
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext
from mozilla_django_oidc.auth import OIDCAuthenticationBackend
from mozilla_django_oidc.views import (
    OIDCAuthenticationCallbackView,
    OIDCAuthenticationRequestView,
)

from apps.accounts.models import ProviderIdentity
from apps.audit.context import one_action
from apps.audit.services import Action, audit_event_create
from apps.projects.roles import CATALOGUE_EDITOR, FRONT_OFFICE, MANAGER

logger = logging.getLogger(__name__)

ROLES = (MANAGER, FRONT_OFFICE, CATALOGUE_EDITOR)
DISCOVERY_CACHE_SECONDS = 60 * 60


class ProviderUnavailable(Exception):
    """The provider's discovery document could not be read, or names another issuer."""


def provider_configuration() -> dict:
    """The provider's discovery document (OpenID Connect Discovery 1.0), read once an hour."""
    issuer = settings.OIDC_ISSUER
    key = f"oidc-discovery:{issuer}"
    document = cache.get(key)
    if document is None:
        try:
            response = requests.get(
                f"{issuer}/.well-known/openid-configuration", timeout=settings.OIDC_TIMEOUT
            )
            response.raise_for_status()
            document = response.json()
        except (requests.RequestException, ValueError) as error:
            raise ProviderUnavailable(str(error)) from error
        if document.get("issuer", "").rstrip("/") != issuer:
            raise ProviderUnavailable(f"the discovery document names {document.get('issuer')!r}")
        cache.set(key, document, DISCOVERY_CACHE_SECONDS)
    return document


def roles_from_claims(claims: dict) -> set[str] | None:
    """The roles the groups claim maps to; None when no mapping is configured (then the
    provider decides no role and administrators give them in the admin)."""
    mapping = settings.OIDC_ROLE_GROUPS
    if not mapping:
        return None
    groups = claims.get(settings.OIDC_GROUPS_CLAIM) or []
    if isinstance(groups, str):
        groups = [groups]
    return {mapping[group] for group in groups if group in mapping}


def roles_sync(user, roles: set[str]) -> None:
    """Give the user exactly `roles` of the three, as one audit event (the provider is the actor:
    nobody signed in yet). A catalogue editor is staff, to reach the catalogue in the admin."""
    before = _roles_of(user)
    with one_action():
        keep = set(before) - set(ROLES)
        user.groups.set(Group.objects.filter(name__in=keep | roles))
        staff = CATALOGUE_EDITOR in roles or user.is_superuser
        if user.is_staff != staff:
            user.is_staff = staff
            user.save(update_fields=["is_staff"])
    after = _roles_of(user)
    if after != before:
        audit_event_create(
            action=Action.ROLE_CHANGED,
            actor=None,
            subject=user,
            changes={"roles": [before, after], "source": [None, "openid connect"]},
        )


def _roles_of(user) -> list[str]:
    return sorted(user.groups.values_list("name", flat=True))


class OrganisationBackend(OIDCAuthenticationBackend):
    """mozilla-django-oidc's backend with the endpoints from discovery, the issuer and audience
    checked, users linked by (issuer, subject), and roles from the groups claim.

    Django makes one of these for every authenticate() and for every request of a user signed in
    through it: nothing here reads the network until a sign-in comes back from the provider."""

    def __init__(self, *args, **kwargs) -> None:
        self.UserModel = get_user_model()
        self.OIDC_RP_CLIENT_ID = settings.OIDC_RP_CLIENT_ID
        self.OIDC_RP_CLIENT_SECRET = settings.OIDC_RP_CLIENT_SECRET
        self.OIDC_RP_SIGN_ALGO = settings.OIDC_RP_SIGN_ALGO
        self.OIDC_RP_IDP_SIGN_KEY = None

    @property
    def OIDC_OP_TOKEN_ENDPOINT(self) -> str:
        return provider_configuration()["token_endpoint"]

    @property
    def OIDC_OP_USER_ENDPOINT(self) -> str:
        return provider_configuration()["userinfo_endpoint"]

    @property
    def OIDC_OP_JWKS_ENDPOINT(self) -> str:
        return provider_configuration()["jwks_uri"]

    def authenticate(self, request, **kwargs):
        """A refused sign-in (a token for another client, an expired one, a provider that does
        not answer) is a failed sign-in, said once: PermissionDenied stops the other backends
        and makes Django send user_login_failed."""
        try:
            return super().authenticate(request, **kwargs)
        except (SuspiciousOperation, ProviderUnavailable, requests.RequestException) as error:
            logger.warning("Sign-in with the identity provider refused: %s", error)
            raise PermissionDenied(str(error)) from error

    def _verify_jws(self, payload, key):
        """The ID token's signature, and (what the library leaves out) its issuer, audience and
        expiry, by PyJWT."""
        try:
            return jwt.decode(
                payload,
                key,
                algorithms=[self.OIDC_RP_SIGN_ALGO],
                audience=self.OIDC_RP_CLIENT_ID,
                issuer=provider_configuration()["issuer"],
                options={"require": ["exp", "iat", "iss", "aud", "sub"]},
                leeway=settings.OIDC_CLOCK_LEEWAY_SECONDS,
            )
        except jwt.InvalidTokenError as error:
            raise SuspiciousOperation(f"ID token refused: {error}") from error

    def verify_claims(self, claims: dict) -> bool:
        return bool(claims.get("sub"))

    def filter_users_by_claims(self, claims: dict):
        """The user linked to this subject of this provider; else the one account with the
        email address the provider says it verified, not yet linked to it (an account made, or
        an invitation sent, before the person signed in through the provider). Never an
        administrator's by email alone: an address some providers let people set themselves
        must not open one."""
        users = self.UserModel._default_manager
        linked = users.filter(
            provider_identities__issuer=settings.OIDC_ISSUER,
            provider_identities__subject=claims["sub"],
        )
        if linked.exists() or not claims.get("email") or claims.get("email_verified") is not True:
            return linked
        return users.filter(email__iexact=claims["email"], is_superuser=False).exclude(
            provider_identities__issuer=settings.OIDC_ISSUER
        )

    @transaction.atomic
    def create_user(self, claims: dict):
        user = self.UserModel._default_manager.create_user(
            self._free_username(claims), email=claims.get("email", "")
        )
        user.first_name = (claims.get("given_name") or "")[:150]
        user.last_name = (claims.get("family_name") or "")[:150]
        user.save(update_fields=["first_name", "last_name"])
        return self.update_user(user, claims)

    @transaction.atomic
    def update_user(self, user, claims: dict):
        ProviderIdentity.objects.get_or_create(
            issuer=settings.OIDC_ISSUER, subject=claims["sub"], defaults={"user": user}
        )
        roles = roles_from_claims(claims)
        if roles is not None:
            roles_sync(user, roles)
        return user

    def _free_username(self, claims: dict) -> str:
        wanted = claims.get("preferred_username") or claims.get("email", "").split("@")[0]
        base = slugify(wanted)[:140] or "user"
        users = self.UserModel._default_manager
        username = base
        while users.filter(username__iexact=username).exists():
            username = f"{base}-{secrets.token_hex(3)}"
        return username


def _refused(request: HttpRequest) -> HttpResponse:
    messages.error(
        request,
        gettext("Signing in with %(provider)s did not work. Try again, or sign in with a password.")
        % {"provider": settings.OIDC_PROVIDER_NAME},
    )
    return HttpResponseRedirect(reverse("login"))


class OrganisationSignInView(OIDCAuthenticationRequestView):
    """Sends the browser to the provider (with state, nonce and a PKCE challenge)."""

    def __init__(self, *args, **kwargs) -> None:
        # Past the library's __init__, which reads the authorization endpoint from the settings:
        # it comes from the discovery document, in get().
        super(OIDCAuthenticationRequestView, self).__init__(*args, **kwargs)

    def get(self, request: HttpRequest) -> HttpResponse:
        if not settings.OIDC_ENABLED:
            raise Http404(gettext("No identity provider is configured."))
        try:
            self.OIDC_OP_AUTH_ENDPOINT = provider_configuration()["authorization_endpoint"]
        except ProviderUnavailable as error:
            logger.warning("The identity provider is unavailable: %s", error)
            return _refused(request)
        self.OIDC_RP_CLIENT_ID = settings.OIDC_RP_CLIENT_ID
        return super().get(request)


class OrganisationCallbackView(OIDCAuthenticationCallbackView):
    """Where the provider sends the browser back; a refusal returns to the sign-in page."""

    def get(self, request: HttpRequest) -> HttpResponse:
        if not settings.OIDC_ENABLED:
            raise Http404(gettext("No identity provider is configured."))
        try:
            return super().get(request)
        except SuspiciousOperation as error:  # a state this browser never started
            logger.warning("Sign-in with the identity provider refused: %s", error)
            return _refused(request)

    def login_failure(self) -> HttpResponse:
        return _refused(self.request)
