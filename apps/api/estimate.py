"""An estimate request answered: validated, run through the engine and written as the API's
response contract (the estimate endpoint, saved versions and reports all answer the same way)."""

from apps.api.representation import estimate_representation, uncertainty_representation
from apps.api.serializers import EstimateRequestSerializer
from apps.api.validation import FastValidator
from apps.catalogue.resolve import estimate_from_request
from apps.catalogue.uncertainty import uncertainty_from_request

ESTIMATE_REQUEST = FastValidator(EstimateRequestSerializer)


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
