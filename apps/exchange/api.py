"""API of exchange rates: the rate in force on a day, its date and source."""

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from apps.exchange.rates import RateUnavailable, cached_exchange_rate
from apps.exchange.serializers import (
    ExchangeRateSerializer,
    RateQuerySerializer,
    exchange_rate_representation,
)

# DRF's answer for an error ({"detail": "…"}), under its own component name: apps.api.schema's
# "Error" is another class of the same name, which drf-spectacular refuses to merge (and
# apps.api imports this app, so this app does not import it).
ERROR = inline_serializer("RateNotFound", {"detail": serializers.CharField()})


@extend_schema(
    parameters=[RateQuerySerializer],
    responses={
        200: ExchangeRateSerializer,
        404: OpenApiResponse(
            ERROR, description="No rate between the two currencies on or before that day."
        ),
    },
    summary="The exchange rate in force on a day (the ECB's euro reference rates)",
)
@api_view(["GET"])
@permission_classes([AllowAny])
def exchange_rate_detail(request: Request) -> Response:
    # A plain dict: a parameter given empty ("?at=") is refused as its schema says.
    query = RateQuerySerializer(data=request.query_params.dict())
    query.is_valid(raise_exception=True)
    data = query.validated_data
    try:
        exchange = cached_exchange_rate(data["from"], data["to"], query.day())
    except RateUnavailable as error:
        raise NotFound(error.message) from None
    return Response(exchange_rate_representation(exchange))
