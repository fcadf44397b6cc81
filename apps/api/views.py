"""API views: the stateless estimate and the read-only catalogue."""

from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from apps.api.serializers import (
    AcceleratorSerializer,
    EnergyProfileSerializer,
    EstimateRequestSerializer,
    EstimateResponseSerializer,
    ThresholdSerializer,
)
from apps.catalogue.models import Accelerator, ComputeThreshold, EnergyProfile
from apps.catalogue.resolve import estimate_from_request


def estimate_response(request_data: dict) -> dict:
    """Validate an estimate request, run the engine and return the response contract's dict."""
    serializer = EstimateRequestSerializer(data=request_data)
    serializer.is_valid(raise_exception=True)
    result, resolution = estimate_from_request(serializer.validated_data)
    data = EstimateResponseSerializer(
        {
            "currency": "USD",
            "training": result.training,
            "inference": result.inference,
            "comparison": result.comparison,
            "engine_version": result.engine_version,
        }
    ).data
    for section, notes in resolution.notes.items():
        data[section]["assumptions"] = [*notes, *data[section]["assumptions"]]
    return data


@extend_schema(
    request=EstimateRequestSerializer,
    responses={200: EstimateResponseSerializer},
    summary="Estimate training and inference compute, cost and energy",
)
@api_view(["POST"])
@permission_classes([AllowAny])
@throttle_classes([AnonRateThrottle, UserRateThrottle])
def estimate_view(request: Request) -> Response:
    return Response(estimate_response(request.data))


class AcceleratorViewSet(viewsets.ReadOnlyModelViewSet):
    """Accelerators with dense peak TFLOP/s per precision, memory, power, prices and sources."""

    queryset = Accelerator.objects.with_offers()
    serializer_class = AcceleratorSerializer
    lookup_field = "slug"
    pagination_class = None


class ThresholdViewSet(viewsets.ReadOnlyModelViewSet):
    """Compute thresholds in law and policy, with their status and sources."""

    queryset = ComputeThreshold.objects.all()
    serializer_class = ThresholdSerializer
    lookup_field = "slug"
    pagination_class = None


class EnergyProfileViewSet(viewsets.ReadOnlyModelViewSet):
    """Energy profiles: PUE, grid carbon intensity and electricity price, with sources."""

    queryset = EnergyProfile.objects.all()
    serializer_class = EnergyProfileSerializer
    lookup_field = "slug"
    pagination_class = None
