"""API of the price catalogue: models with the prices in force on a day."""

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
    rows = prices_in_force(
        query.day(),
        provider=query.validated_data.get("provider", ""),
        model=query.validated_data.get("model", ""),
    )
    return Response(ApiPriceSerializer(rows, many=True).data)


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
