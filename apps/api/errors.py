"""Error responses in DRF's standard JSON shape, with engine errors mapped onto request fields."""

from rest_framework import exceptions
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.views import exception_handler as drf_exception_handler

from apps.catalogue.uncertainty import RangesError
from apps.estimates import EstimateInputError
from apps.words.messages import error_texts


def nest_errors(flat: dict[str, list[str]]) -> dict:
    """{"training.mfu": [...]} → {"training": {"mfu": [...]}}, the shape serializers use."""
    nested: dict = {}
    for key, messages in flat.items():
        *parents, leaf = key.split(".")
        node = nested
        for part in parents:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                break
        else:
            node.setdefault(leaf, []).extend(messages)
    return nested


def exception_handler(exc, context):
    if isinstance(exc, RangesError):
        # Keyed by dotted input path inside `ranges`, as the request names them.
        exc = exceptions.ValidationError({"ranges": error_texts(exc.errors)})
    elif isinstance(exc, EstimateInputError):
        exc = exceptions.ValidationError(nest_errors(error_texts(exc.errors)))
    response = drf_exception_handler(exc, context)
    if response is not None:
        in_json(context.get("request"))
    return response


def in_json(request) -> None:
    """Answer an error as JSON, as the schema documents every error, when the format chosen was
    a file's (CSV, XLSX, PDF: a download's renderer cannot write {"detail": …}) or none yet."""
    if request is None:
        return
    renderer = getattr(request, "accepted_renderer", None)
    if not isinstance(renderer, JSONRenderer | BrowsableAPIRenderer):
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = JSONRenderer.media_type
