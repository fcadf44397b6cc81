"""API authentication by personal token: `Authorization: Bearer <key>` (or `Token <key>`)."""

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from apps.accounts.models import ApiToken, api_key_hash

KEYWORDS = (b"bearer", b"token")
# Recording every use would turn each API read into a write; a minute is precise enough.
LAST_USED_RESOLUTION = timedelta(minutes=1)


class ApiTokenAuthentication(BaseAuthentication):
    """Authenticates a request by the key of an active ApiToken; such requests need no CSRF
    token, because a browser never sends the Authorization header on its own."""

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() not in KEYWORDS:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(
                gettext("The Authorization header must be 'Bearer' followed by one API token.")
            )
        try:
            key = parts[1].decode("ascii")
        except UnicodeError:
            raise exceptions.AuthenticationFailed(gettext("The API token is not valid.")) from None
        return self.authenticate_credentials(key)

    def authenticate_credentials(self, key: str):
        tokens = ApiToken.objects.active().select_related("user")
        try:
            token = tokens.get(key_hash=api_key_hash(key))
        except ApiToken.DoesNotExist:
            raise exceptions.AuthenticationFailed(
                gettext("The API token is not valid or was revoked.")
            ) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(
                gettext("The account of this API token is disabled.")
            )
        now = timezone.now()
        if token.last_used_at is None or token.last_used_at <= now - LAST_USED_RESOLUTION:
            ApiToken.objects.filter(pk=token.pk).filter(
                Q(last_used_at__isnull=True) | Q(last_used_at__lte=now - LAST_USED_RESOLUTION)
            ).update(last_used_at=now)
        return token.user, token

    def authenticate_header(self, request) -> str:
        return 'Bearer realm="api"'


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """Describes ApiTokenAuthentication in the OpenAPI schema."""

    target_class = ApiTokenAuthentication
    name = "apiToken"

    def get_security_definition(self, auto_schema):
        return {
            "type": "http",
            "scheme": "bearer",
            "description": (
                "A personal API token (cp_…), from POST /api/v1/auth/token/ or the API tokens "
                "page. `Authorization: Token <key>` is accepted too."
            ),
        }
