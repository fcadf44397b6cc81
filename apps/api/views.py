"""API views: the stateless estimate and the read-only catalogue."""

import datetime

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api.estimate import estimate_response
from apps.api.serializers import (
    AcceleratorSerializer,
    CommitmentDiscountSerializer,
    EnergyProfileSerializer,
    EstimateRequestSerializer,
    EstimateResponseSerializer,
    ThresholdSerializer,
)
from apps.api.throttling import AnonOrUserRateThrottle
from apps.catalogue.models import (
    Accelerator,
    CommitmentDiscount,
    ComputeThreshold,
    EnergyProfile,
)
from apps.estimates.currency import ExchangeRate
from apps.exchange.rates import RateUnavailable, cached_exchange_rate
from apps.words.currencies import active_currencies

# Catalogue slugs are SlugField values; anything else in their place is a 404 from the URL
# resolver, before a lookup (PostgreSQL refuses a NUL character with an error, a 500).
SLUG_PATTERN = r"[-a-zA-Z0-9_]+"


class EstimateInCurrencySerializer(EstimateRequestSerializer):
    """The stateless estimate's request: an estimate request and the currency to answer in."""

    currency = serializers.ChoiceField(
        choices=active_currencies(),
        required=False,
        help_text="ISO 4217 code to answer in [USD]: prices, in US dollars, are converted at "
        "the ECB's newest reference rate (listed in `exchange_rates`); a currency it has no "
        "rate for is refused.",
    )


CURRENCY = serializers.ChoiceField(choices=active_currencies())


def _exchange(currency: object) -> ExchangeRate:
    """The rate from US dollars into the `currency` sent (null refused), or a 400 at it."""
    try:
        code = CURRENCY.run_validation(currency)
        return cached_exchange_rate("USD", code, datetime.date.today())
    except serializers.ValidationError as error:
        raise serializers.ValidationError({"currency": error.detail}) from None
    except RateUnavailable as error:
        raise serializers.ValidationError({"currency": [error.message]}) from None


@extend_schema(
    request=EstimateInCurrencySerializer,
    responses={200: EstimateResponseSerializer},
    summary="Estimate training and inference compute, cost and energy",
)
@api_view(["POST"])
@permission_classes([AllowAny])
@throttle_classes([AnonOrUserRateThrottle])
def estimate_view(request: Request) -> Response:
    data = request.data
    if not isinstance(data, dict) or "currency" not in data:
        return Response(estimate_response(data))
    exchange = _exchange(data["currency"])
    body = {name: value for name, value in data.items() if name != "currency"}
    return Response(estimate_response(body, exchange))


class CatalogueViewSet(viewsets.ReadOnlyModelViewSet):
    """Catalogue rows, all in one page, each found by its slug."""

    lookup_field = "slug"
    lookup_value_regex = SLUG_PATTERN
    pagination_class = None


class AcceleratorViewSet(CatalogueViewSet):
    """Accelerators with dense peak TFLOP/s per precision, memory, power, prices and sources."""

    queryset = Accelerator.objects.with_offers()
    serializer_class = AcceleratorSerializer


class ThresholdViewSet(CatalogueViewSet):
    """Compute thresholds in law and policy, with their status and sources."""

    queryset = ComputeThreshold.objects.all()
    serializer_class = ThresholdSerializer


class EnergyProfileViewSet(CatalogueViewSet):
    """Energy profiles: PUE, grid carbon intensity and electricity price, with sources."""

    queryset = EnergyProfile.objects.all()
    serializer_class = EnergyProfileSerializer


class CommitmentDiscountViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Discounts against on demand for capacity rented on commitment, by provider, term and
    payment option, with sources; a null discount where none is published or offered."""

    queryset = CommitmentDiscount.objects.all()
    serializer_class = CommitmentDiscountSerializer
    pagination_class = None
