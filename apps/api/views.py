"""API views: the stateless estimate and the read-only catalogue."""

from dataclasses import replace

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
from apps.estimates.kept import KeptEstimate

ESTIMATE_REQUEST = FastValidator(EstimateRequestSerializer)
# Catalogue slugs are SlugField values; anything else in their place is a 404 from the URL
# resolver, before a lookup (PostgreSQL refuses a NUL character with an error, a 500).
SLUG_PATTERN = r"[-a-zA-Z0-9_]+"


def estimate_kept(request_data: dict, *, fan: bool = False) -> KeptEstimate:
    """Validate an estimate request and run the engine: its result, the catalogue's notes first
    in each section's assumptions, and with ranges the percentiles of its figures (with `fan`,
    the cumulative inference cost's percentiles month by month too)."""
    validated = ESTIMATE_REQUEST.validated_data(request_data)
    if validated is None:
        serializer = EstimateRequestSerializer(data=request_data)
        serializer.is_valid(raise_exception=True)
        validated = serializer.validated_data
    result, resolution = estimate_from_request(validated)
    sections = {
        name: replace(section, assumptions=(*resolution.notes[name], *section.assumptions))
        for name, section in (("training", result.training), ("inference", result.inference))
        if section is not None and resolution.notes.get(name)
    }
    return KeptEstimate(replace(result, **sections), uncertainty_from_request(validated, fan=fan))


def estimate_response(request_data: dict) -> dict:
    """The estimate response contract's dict of a request (see `estimate_kept`)."""
    return kept_estimate_representation(estimate_kept(request_data))


def kept_estimate_representation(kept: KeptEstimate) -> dict:
    """A kept estimate as the estimate API answers it: English text, money as strings."""
    data = estimate_representation(kept.result, {})
    if kept.ranges is not None:
        data["uncertainty"] = uncertainty_representation(kept.ranges)
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
