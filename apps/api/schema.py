"""The OpenAPI schema's generator: drf-spectacular's, with every answer and every constraint the
behaviour has.

drf-spectacular documents the answers a view's `extend_schema` names, and nothing about the
errors DRF itself gives before or around the view: a 400 for a body that does not parse or
validate, 401 without valid credentials, 403 for a refused permission (or a signed-in browser
session's missing CSRF token), 404 for an object that is not there or not yours, 406 for an
Accept header that names no format the operation answers in, 412 and 428 where If-Match is
checked, 415 for a body that is not JSON and 429 past a rate limit. Each operation gets those of
them that its view can give, in DRF's JSON shapes, unless it documents that status itself; a 429
or 503 always documents its Retry-After header.

Constraints are as strict as the validators: a decimal string has the pattern validation
applies (`decimal_pattern`), and none of zeros where its minimum is the smallest step above 0
(`more_than_zero`), a date the planning range's years (`PLANNING_DATE_PATTERN`), a list
a serializer names in `unique_items` no value twice, two fields it names in `given_together`
both or neither, and a number of the estimate's request has the range of its rule in
the engine (apps.estimates.limits.RULES) wherever the serializer names its field after it
(`engine_rules`), so a field added to the request is bounded in the schema as it is in behaviour.
"""

from decimal import Decimal

from django.core.validators import RegexValidator
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny, IsAuthenticated

from apps.api.fields import decimal_pattern
from apps.api.ranges import RangesSerializer
from apps.api.strict import KnownFieldsOnly
from apps.catalogue.uncertainty import RANGE_PATHS
from apps.core.planning_dates import PLANNING_DATE_PATTERN, PlanningDateValidator
from apps.estimates.limits import RULES, Rule
from apps.estimates.uncertainty_draws import SHIFT

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

# The characters str.strip() removes (str.isspace()), as a JSON Schema (ECMA) character class.
PYTHON_WHITESPACE = (
    r"\t\n\u000b\f\r\u001c-\u001f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
)

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


def rule_schema(rule: Rule) -> dict:
    """The JSON Schema of a number its engine rule accepts: its range, open at the bottom where
    the rule is, whole where it is, or 0 where the rule allows it below its range."""
    bounds: dict = {"minimum": rule.low, "maximum": rule.high}
    if rule.low_open:
        bounds["exclusiveMinimum"] = True
    if rule.whole:
        bounds["multipleOf"] = 1
    if rule.zero_allowed:
        return {"anyOf": [{"enum": [0]}, bounds]}
    return bounds


def with_rule(schema: dict, rule: Rule) -> dict:
    """A field's schema with its engine rule's range in place of the serializer's own bounds."""
    schema = {
        key: value
        for key, value in schema.items()
        if key not in {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}
    }
    return {**schema, **rule_schema(rule)}


def range_end_schema(name: str) -> dict:
    """Either end of a range on the input called `name`: a value its rule accepts, above the
    floor of the lognormal it is read as (0, or −1 for monthly growth, whose 1 + g is)."""
    rule = RULES[name]
    floor = 0.0 - SHIFT.get(name, 0.0)
    bounds: dict = {"type": "number", "format": "double", "maximum": rule.high}
    if rule.low > floor:
        bounds |= {"minimum": rule.low, **({"exclusiveMinimum": True} if rule.low_open else {})}
    else:
        bounds |= {"minimum": floor, "exclusiveMinimum": True}
    return bounds


class RangesExtension(OpenApiSerializerExtension):
    """Ranges keyed by path, each end bounded by its input's rule; no other key."""

    target_class = RangesSerializer

    def map_serializer(self, auto_schema, direction) -> dict:
        def interval(path: str) -> dict:
            end = range_end_schema(path.rpartition(".")[2])
            return {
                "type": "object",
                "properties": {"low": end, "high": end},
                "required": ["low", "high"],
                "additionalProperties": False,
                "description": "The 5th and 95th percentiles (low ≤ high; equal: fixed).",
            }

        return {
            "type": "object",
            "properties": {path: interval(path) for path in RANGE_PATHS},
            "additionalProperties": False,
            "description": RangesSerializer.__doc__,
        }


# A decimal string of zeros alone ("0", "00.000", ".0"), which a field more than 0 refuses.
ZERO_DECIMAL = r"^0*\.?0*$"


def more_than_zero(field: serializers.DecimalField) -> bool:
    """Whether the field's minimum is its smallest step above 0: it takes every value its
    pattern allows but zero."""
    places = field.decimal_places
    low = field.min_value
    return low is not None and places is not None and 0 < low <= Decimal(1).scaleb(-places)


def both_or_neither(first: str, second: str) -> dict:
    """Two fields given together or not at all (`given_together`), in OpenAPI 3.0's JSON Schema,
    which has no `dependentRequired`: each one's absence or the other's presence."""
    return {
        "allOf": [
            {"anyOf": [{"not": {"required": [one]}}, {"required": [other]}]}
            for one, other in ((first, second), (second, first))
        ]
    }


class AutoSchema(SpectacularAutoSchema):
    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        responses = operation["responses"]
        for code, response in self.error_responses(operation).items():
            responses.setdefault(code, response)
        for code in ("429", "503"):
            if code in responses:
                responses[code].setdefault("headers", RETRY_AFTER)
        if "requestBody" in operation and self.needs_body():
            operation["requestBody"]["required"] = True
        return operation

    def needs_body(self) -> bool:
        """A body none of whose fields is required may still be needed (`at_least_one_of`)."""
        serializer = self.get_request_serializer()
        return bool(getattr(serializer, "at_least_one_of", ()))

    def _map_basic_serializer(self, serializer, direction):
        """A strict serializer's request takes no other field (read-only ones are ignored, so
        they stay allowed); `at_least_one_of` names fields of which one must be given, and
        `given_together` pairs of fields given both or neither."""
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and isinstance(serializer, KnownFieldsOnly):
            ignored = {
                name: {"description": "Read only: ignored when sent."}
                for name, field in serializer.fields.items()
                if field.read_only
            }
            schema["properties"] = {**schema.get("properties", {}), **ignored}
            required = [name for name in schema.get("required", []) if name not in ignored]
            if required:
                schema["required"] = required
            else:
                schema.pop("required", None)
            schema["additionalProperties"] = False
        names = getattr(serializer, "at_least_one_of", ())
        if direction == "request" and names:
            schema["anyOf"] = [{"required": [name]} for name in names]
        together = getattr(serializer, "given_together", ())
        if direction == "request" and together:
            schema["allOf"] = [both_or_neither(*pair) for pair in together]
        return schema

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if isinstance(field, serializers.ListSerializer) and schema.get("type") == "array":
            # A list of objects' bounds, which drf-spectacular leaves out.
            if field.max_length is not None:
                schema["maxItems"] = field.max_length
            if field.min_length is not None:
                schema["minItems"] = field.min_length
        if isinstance(field, serializers.DecimalField) and schema.get("format") == "decimal":
            schema["pattern"] = decimal_pattern(field)
            if more_than_zero(field):
                # A string has no `exclusiveMinimum`: the pattern's decimals without a zero
                # (a string of zeros, its type named so that the `not` leaves null alone).
                schema["not"] = {"type": "string", "pattern": ZERO_DECIMAL}
        elif isinstance(field, serializers.DateField) and any(
            isinstance(validator, PlanningDateValidator) for validator in field.validators
        ):
            schema["pattern"] = PLANNING_DATE_PATTERN
        elif (
            isinstance(field, serializers.CharField)
            and schema.get("type") == "string"
            and direction == "request"
        ):
            # DRF refuses the NUL character in every text field (a `not`, as a pattern would
            # make drf-spectacular wrap a field that may be blank in a oneOf that "" matches twice).
            schema["not"] = {"pattern": "\\u0000"}
            # A field with a regular expression gets it as its pattern (drf-spectacular adds it
            # after this method, unless a pattern is there already), which takes no blank.
            regex = any(isinstance(v, RegexValidator) for v in field.validators)
            if field.trim_whitespace and not field.allow_blank and not regex:
                # What Python's strip() leaves of spaces alone is a blank, which such a field
                # refuses: a character other than those.
                schema.setdefault("pattern", f"[^{PYTHON_WHITESPACE}]")
        if field.field_name in getattr(field.parent, "unique_items", ()):
            schema["uniqueItems"] = True
        rules = getattr(field.parent, "engine_rules", {})
        if field.field_name in rules and schema.get("type") in {"number", "integer"}:
            schema = with_rule(schema, rules[field.field_name])
        return schema

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
        if_match = [p for p in parameters if p["in"] == "header" and p["name"] == "If-Match"]
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
        errors["406"] = answer(
            error,
            "Accept names no format this operation answers in (a format asked for with "
            "?format= wins over Accept).",
        )
        if if_match:
            errors["412"] = answer(
                error, "If-Match is not the current ETag: someone changed it since you read it."
            )
        if any(p.get("required") for p in if_match):
            errors["428"] = answer(error, "No If-Match: send the ETag you last read.")
        if has_body:
            errors["415"] = answer(error, "The body is not JSON (its Content-Type).")
        if getattr(view, "throttle_classes", ()):
            errors["429"] = answer(
                error, "Too many requests: retry after Retry-After seconds.", headers=RETRY_AFTER
            )
        return errors
