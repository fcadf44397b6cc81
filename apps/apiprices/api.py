"""API of the price catalogue: models with the prices in force on a day."""

import datetime

from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from apps.apiprices.selectors import price_in_force, prices_in_force
from apps.apiprices.serializers import (
    ApiPriceSerializer,
    DayQuerySerializer,
    PriceQuerySerializer,
)
from apps.catalogue.models import catalogue_version
from apps.catalogue.snapshot import SNAPSHOT_MAX_AGE_SECONDS
from apps.core.fragments import cached_fragment, fragment_key


def _query(request: Request, serializer=PriceQuerySerializer) -> DayQuerySerializer:
    # A plain dict: a parameter given empty ("?at=") is refused as its schema says.
    query = serializer(data=request.query_params.dict())
    query.is_valid(raise_exception=True)
    return query


@extend_schema(
    parameters=[PriceQuerySerializer],
    responses={200: ApiPriceSerializer(many=True)},
    summary="External model APIs with the prices in force on a day (USD per million tokens)",
)
@api_view(["GET"])
@permission_classes([AllowAny])
def api_price_list(request: Request) -> Response:
    query = _query(request)
    filters = {key: query.validated_data.get(key, "") for key in ("provider", "model")}
    return Response(price_list_data(query.day(), **filters))


def price_list_data(day: datetime.date, *, provider: str, model: str) -> list[dict]:
    """The list's rows as the serializer gives them. Today's come from the cache while the
    catalogue version is the same (every API price saved, deleted or loaded starts a new one):
    some 0.15 s of queries and serializing for the two thousand models. A change the version does
    not announce (an update without signals, a process whose cache is its own memory) is seen
    within SNAPSHOT_MAX_AGE_SECONDS, as estimates see it. Another day's are read
    afresh, as a list cached for every day asked would let any client fill the cache. The rows,
    not the rendered answer, are cached, so every format (and the browsable API's page for its
    user) is drawn as before."""

    def rows() -> list[dict]:
        found = prices_in_force(day, provider=provider, model=model)
        return list(ApiPriceSerializer(found, many=True).data)

    if day != datetime.date.today():
        return rows()
    filters = _as_matched(provider), _as_matched(model)
    key = fragment_key("api-price-list", catalogue_version(), day.isoformat(), *filters)
    return cached_fragment(key, rows, SNAPSHOT_MAX_AGE_SECONDS)


def _as_matched(text: str) -> str:
    """A filter as the database matches it (iexact: both sides upper-cased) where Python's
    upper() is the database's, ASCII text; other text as given."""
    return text.upper() if text.isascii() else text


@extend_schema(
    parameters=[DayQuerySerializer],
    responses={200: ApiPriceSerializer},
    summary="One external model API with its price in force on a day",
)
@api_view(["GET"])
@permission_classes([AllowAny])
def api_price_detail(request: Request, slug: str) -> Response:
    row = price_in_force(slug, _query(request, DayQuerySerializer).day())
    if row is None:
        raise Http404
    return Response(ApiPriceSerializer(row).data)
