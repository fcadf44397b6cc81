"""API views: the stateless estimate and the read-only catalogue."""

from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api.representation import estimate_representation, uncertainty_representation
from apps.api.serializers import (
    AcceleratorSerializer,
    EnergyProfileSerializer,
    EstimateRequestSerializer,
    EstimateResponseSerializer,
    ThresholdSerializer,
)
from apps.api.throttling import AnonOrUserRateThrottle
from apps.api.validation import FastValidator
from apps.catalogue.models import Accelerator, ComputeThreshold, EnergyProfile
from apps.catalogue.resolve import estimate_from_request
from apps.catalogue.uncertainty import uncertainty_from_request

ESTIMATE_REQUEST = FastValidator(EstimateRequestSerializer)
# Catalogue slugs are SlugField values; anything else in their place is a 404 from the URL
# resolver, before a lookup (PostgreSQL refuses a NUL character with an error, a 500).
SLUG_PATTERN = r"[-a-zA-Z0-9_]+"


def estimate_response(request_data: dict, *, fan: bool = False) -> dict:
    """Validate an estimate request, run the engine and return the response contract's dict.
    With `fan`, a request with ranges also keeps the cumulative inference cost's percentiles
    month by month under `uncertainty.fan` (a saved version's record; the API asks for none)."""
    validated = ESTIMATE_REQUEST.validated_data(request_data)
    if validated is None:
        serializer = EstimateRequestSerializer(data=request_data)
        serializer.is_valid(raise_exception=True)
        validated = serializer.validated_data
    result, resolution = estimate_from_request(validated)
    data = estimate_representation(result, resolution.notes)
    ranges = uncertainty_from_request(validated, fan=fan)
    if ranges is not None:
        data["uncertainty"] = uncertainty_representation(ranges)
    return data


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
