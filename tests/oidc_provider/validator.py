"""The provider's claims: the user's email, name and groups; and, to test that the planner refuses
them, a provider that misbehaves for two accounts: `elsewhere` gets an ID token meant for another
client (a wrong audience), `stale` one that has already expired."""

from datetime import timedelta

from django.utils import timezone
from oauth2_provider.oauth2_validators import OAuth2Validator

WRONG_AUDIENCE_USER = "elsewhere"
EXPIRED_TOKEN_USER = "stale"


class Validator(OAuth2Validator):
    oidc_claim_scope = {**OAuth2Validator.oidc_claim_scope, "groups": "profile"}

    def get_additional_claims(self, request) -> dict:
        user = request.user
        return {
            "email": user.email,
            "email_verified": True,
            "preferred_username": user.username,
            "name": user.get_full_name() or user.username,
            "groups": sorted(user.groups.values_list("name", flat=True)),
        }

    def get_id_token_dictionary(self, token, token_handler, request):
        claims, expiration_time = super().get_id_token_dictionary(token, token_handler, request)
        if request.user.username == EXPIRED_TOKEN_USER:
            claims["exp"] = int((timezone.now() - timedelta(hours=1)).timestamp())
        return claims, expiration_time

    def finalize_id_token(self, id_token, token, token_handler, request):
        if request.user.username == WRONG_AUDIENCE_USER:
            id_token["aud"] = "another-client"
        return super().finalize_id_token(id_token, token, token_handler, request)
