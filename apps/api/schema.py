"""The OpenAPI schema's generator: drf-spectacular's, with the error answers documented.

drf-spectacular documents the answers a view's `extend_schema` names, and nothing about the
errors DRF itself gives before or around the view: a 400 for a body that does not parse or
validate, 401 without valid credentials, 403 for a refused permission (or a signed-in browser
session's missing CSRF token), 404 for an object that is not there or not yours, 415 for a body
that is not JSON and 429 past a rate limit. Each operation gets those of them that its view can
give, in DRF's JSON shapes, unless it documents that status itself.
"""

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated

# DRF's answer for every error but a validation error: {"detail": "…"}.
ERROR = inline_serializer("Error", {"detail": serializers.CharField()})

# A validation error: a list of messages at each field that is wrong, nested as the request is
# ({"training": {"mfu": ["…"]}}), under "non_field_errors" for the request as a whole, or, for
# a body that is not JSON at all, {"detail": "…"}.
VALIDATION_ERROR = {
    "type": "object",
    "additionalProperties": {},
    "description": "Messages at each field that is wrong, or `detail` for the body as a whole.",
}

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def error_response(description: str) -> OpenApiResponse:
    """For `extend_schema(responses=…)`: an error answered as {"detail": "…"}."""
    return OpenApiResponse(ERROR, description=description)


def validation_error_response(description: str) -> OpenApiResponse:
    """For `extend_schema(responses=…)`: a 400 with a message at each field that is wrong."""
    return OpenApiResponse(VALIDATION_ERROR, description=description)


RETRY_AFTER = {
    "Retry-After": {
        "schema": {"type": "integer"},
        "description": "Seconds until the next request may go through.",
    }
}


class AutoSchema(SpectacularAutoSchema):
    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        responses = operation["responses"]
        for code, response in self.error_responses(operation).items():
            responses.setdefault(code, response)
        return operation

    def error_responses(self, operation: dict) -> dict[str, dict]:
        """The errors DRF can answer this operation with, by status code."""
        view = self.view
        authenticators = tuple(getattr(view, "authentication_classes", ()))
        permissions = tuple(getattr(view, "permission_classes", ()))
        parameters = operation.get("parameters", [])
        # An unknown ?format= is a 404 (DRF's content negotiation), not a 400.
        query = [p for p in parameters if p["in"] == "query" and p["name"] != "format"]
        has_body = "requestBody" in operation
        error = self.resolve_serializer(ERROR, "response").ref

        def answer(schema: dict, description: str, **extra) -> dict:
            return {
                "description": description,
                "content": {"application/json": {"schema": schema}},
                **extra,
            }

        errors = {}
        if has_body or query:
            errors["400"] = answer(VALIDATION_ERROR, "The request is not valid.")
        if authenticators:
            invalid = "the API token is not valid or revoked, or its account is disabled."
            who = "Open to anyone, but" if set(permissions) <= {AllowAny} else "Not signed in, or"
            errors["401"] = answer(error, f"{who} {invalid}")
        # The app's own permission classes refuse writes only (a view that refuses reads, like
        # the review queue, documents its 403); a signed-in session's write needs a CSRF token.
        refusing = set(permissions) - {AllowAny, IsAuthenticated}
        if self.method in UNSAFE_METHODS and (refusing or SessionAuthentication in authenticators):
            errors["403"] = answer(
                error,
                "Not allowed for this account (or, for a signed-in browser session, no CSRF "
                "token).",
            )
        if any(p["in"] == "path" for p in parameters):
            errors["404"] = answer(error, "Not found, or not yours.")
        if has_body:
            errors["415"] = answer(error, "The body is not JSON (its Content-Type).")
        if getattr(view, "throttle_classes", ()):
            errors["429"] = answer(
                error, "Too many requests: retry after Retry-After seconds.", headers=RETRY_AFTER
            )
        return errors
