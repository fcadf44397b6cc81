"""The API's content negotiation answers the Accept headers it takes a short way for exactly as
DRF's negotiation answers them."""

import pytest
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.test import APIRequestFactory

from apps.api.negotiation import StrictFormatNegotiation
from apps.api.views import estimate_view

ACCEPTS = [
    None,
    "*/*",
    "application/json",
    "text/html",
    "application/json; indent=4",
    "application/*",
    "text/html, */*",
    "*/*; q=0.5, application/json",
]


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize(
    "renderers", [(JSONRenderer, BrowsableAPIRenderer), (BrowsableAPIRenderer,)]
)
def test_the_renderer_and_media_type_are_drfs(accept, renderers):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    django_request = APIRequestFactory().post("/api/v1/estimate/", {}, format="json", **headers)
    request = estimate_view.cls().initialize_request(django_request)
    instances = [renderer() for renderer in renderers]
    answers = [
        _answer(negotiation, request, instances)
        for negotiation in (StrictFormatNegotiation(), DefaultContentNegotiation())
    ]
    assert answers[0] == answers[1]


def _answer(negotiation, request, renderers) -> tuple:
    try:
        renderer, media_type = negotiation.select_renderer(request, renderers)
    except NotAcceptable:
        return ("406",)
    return type(renderer), media_type
