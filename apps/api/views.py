"""API views: the stateless estimate and the read-only catalogue."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
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

# Catalogue slugs are SlugField values; anything else in their place is a 404 from the URL
# resolver, before a lookup (PostgreSQL refuses a NUL character with an error, a 500).
SLUG_PATTERN = r"[-a-zA-Z0-9_]+"


@extend_schema(
    request=EstimateRequestSerializer,
    responses={200: EstimateResponseSerializer},
    summary="Estimate training and inference compute, cost and energy",
)
@api_view(["POST"])
@permission_classes([AllowAny])
@throttle_classes([AnonOrUserRateThrottle])
def estimate_view(request: Request) -> Response:
    return Response(estimate_response(request.data))


class AcceleratorViewSet(viewsets.ReadOnlyModelViewSet):
    """Accelerators with dense peak TFLOP/s per precision, memory, power, prices and sources."""

    queryset = Accelerator.objects.with_offers()
    serializer_class = AcceleratorSerializer
    lookup_field = "slug"
    lookup_value_regex = SLUG_PATTERN
    pagination_class = None


class ThresholdViewSet(viewsets.ReadOnlyModelViewSet):
    """Compute thresholds in law and policy, with their status and sources."""

    queryset = ComputeThreshold.objects.all()
    serializer_class = ThresholdSerializer
    lookup_field = "slug"
    lookup_value_regex = SLUG_PATTERN
    pagination_class = None


class EnergyProfileViewSet(viewsets.ReadOnlyModelViewSet):
    """Energy profiles: PUE, grid carbon intensity and electricity price, with sources."""

    queryset = EnergyProfile.objects.all()
    serializer_class = EnergyProfileSerializer
    lookup_field = "slug"
    lookup_value_regex = SLUG_PATTERN
    pagination_class = None


class CommitmentDiscountViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """Discounts against on demand for capacity rented on commitment, by provider, term and
    payment option, with sources; a null discount where none is published or offered."""

    queryset = CommitmentDiscount.objects.all()
    serializer_class = CommitmentDiscountSerializer
    pagination_class = None
