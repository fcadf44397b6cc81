"""Conditional requests in the API: ETags for scenarios, cost lines, projects; If-Match.

A scenario's ETag names its latest version, so a client that writes without having read the
latest version gets 412 Precondition Failed instead of silently overwriting someone's save. A
scenario or cost-line write must carry If-Match (428 Precondition Required without it):
collaborators edit the same scenarios. A project's details change only by its owner, so
If-Match is checked there when it is sent, not required.
"""

from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api.schema import ERROR
from apps.projects.models import Project, Scenario

WRITE_METHODS = frozenset({"PUT", "PATCH", "DELETE"})


class PreconditionRequired(APIException):
    status_code = status.HTTP_428_PRECONDITION_REQUIRED
    default_detail = gettext_lazy(
        "Send If-Match with the ETag of what you change as you last read it, so that a "
        "change saved by someone else in the meantime is not overwritten."
    )
    default_code = "precondition_required"


class PreconditionFailed(APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = gettext_lazy(
        "It has changed since you read it: read it again, then repeat your change."
    )
    default_code = "precondition_failed"


def scenario_etag(scenario: Scenario) -> str:
    return f'"scenario-{scenario.pk}-v{scenario.version}"'


def cost_line_etag(line_id: int, scenario: Scenario) -> str:
    """A cost line's ETag names the version of its scenario: every change to a line saves one,
    so any change to the scenario since the line was read makes it stale."""
    return f'"cost-line-{line_id}-v{scenario.version}"'


def project_etag(project: Project) -> str:
    return f'"project-{project.pk}-{project.updated_at:%Y%m%d%H%M%S%f}"'


def check_if_match(request: Request, etag: str, *, required: bool) -> None:
    """Raise unless the request's If-Match names `etag` (strong comparison, RFC 9110).

    Where If-Match is required, "*" is refused too: it does not say which version was read.
    """
    header = request.headers.get("If-Match")
    if header is None:
        if required:
            raise PreconditionRequired()
        return
    tags = {tag.strip() for tag in header.split(",")}
    if tags == {"*"}:
        if required:
            raise PreconditionRequired()
        return
    if etag not in tags:
        raise PreconditionFailed(
            gettext(
                "It has changed since you read it (its ETag is now %(etag)s): read it again, "
                "then repeat your change."
            )
            % {"etag": etag}
        )


class ETagMixin:
    """For a DRF viewset: If-Match is checked when a write fetches its object, and a response
    showing one object carries that object's ETag as it stands after the request."""

    if_match_required = False

    def etag(self, instance) -> str:
        raise NotImplementedError

    def get_object(self):
        instance = super().get_object()
        if self.request.method in WRITE_METHODS:
            check_if_match(self.request, self.etag(instance), required=self.if_match_required)
        self.shown = instance
        return instance

    def finalize_response(self, request: Request, response: Response, *args, **kwargs):
        shown = getattr(self, "shown", None)
        if shown is not None and response.status_code in {200, 201}:
            response["ETag"] = self.etag(shown)
        return super().finalize_response(request, response, *args, **kwargs)


# The OpenAPI schema of the above.

ETAG_HEADER = OpenApiParameter(
    "ETag",
    type=str,
    location=OpenApiParameter.HEADER,
    response=[200, 201],
    description="The version of what the response shows; send it back as If-Match to change it.",
)


# If-Match as RFC 9110 writes it: quoted entity tags (weak ones marked W/), separated by commas.
ETAGS = r'^[ \t]*(W/)?"[^"]*"([ \t]*,[ \t]*(W/)?"[^"]*")*[ \t]*$'


def if_match(*, required: bool) -> OpenApiParameter:
    what = (
        "Required: without it the answer is 428, and `*` is not enough"
        if required
        else "Optional: checked when sent"
    )
    return OpenApiParameter(
        "If-Match",
        type=str,
        location=OpenApiParameter.HEADER,
        required=required,
        pattern=ETAGS if required else rf"^[ \t]*\*[ \t]*$|{ETAGS}",
        description=f"The ETag from your last read. {what}; a stale one gets 412.",
    )


FROZEN_RESPONSE = OpenApiResponse(
    ERROR, description="The project is submitted for review or cleared, so it is frozen."
)


def write_responses(ok: dict, *, required: bool) -> dict:
    """The responses of a write: `ok`, a frozen project's 409 and the If-Match answers."""
    responses = {
        **ok,
        409: FROZEN_RESPONSE,
        412: OpenApiResponse(ERROR, description="If-Match is stale: changed since you read it."),
    }
    if required:
        responses[428] = OpenApiResponse(ERROR, description="If-Match is missing, or `*`.")
    return responses


def write_schemas(
    serializer, *, required: bool, update: str, partial_update: str, destroy: str, **deleting
) -> dict:
    """For extend_schema_view: a viewset's update, partial_update and destroy, each with its
    summary, If-Match (and the ETag of what a change answers) and write_responses; `deleting`
    adds to the destroy's schema (a description, more `parameters`)."""
    changes = {
        "parameters": [if_match(required=required), ETAG_HEADER],
        "responses": write_responses({200: serializer}, required=required),
    }
    return {
        "update": extend_schema(summary=update, **changes),
        "partial_update": extend_schema(summary=partial_update, **changes),
        "destroy": extend_schema(
            summary=destroy,
            parameters=[if_match(required=required), *deleting.pop("parameters", ())],
            responses=write_responses({204: None}, required=required),
            **deleting,
        ),
    }
