"""An estimate request answered: validated, run through the engine, kept as objects (a saved
version's record) and written as the API's response contract (the estimate endpoint, saved
versions and reports all answer the same way)."""

from dataclasses import replace

from apps.api.representation import estimate_representation, uncertainty_representation
from apps.api.serializers import EstimateRequestSerializer
from apps.api.validation import FastValidator
from apps.catalogue.resolve import estimate_from_request
from apps.catalogue.uncertainty import uncertainty_from_request
from apps.estimates import EstimateResult
from apps.estimates.kept import KeptEstimate
from apps.estimates.uncertainty import UncertaintyResult

ESTIMATE_REQUEST = FastValidator(EstimateRequestSerializer)


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
    return kept_estimate(result, resolution.notes, uncertainty_from_request(validated, fan=fan))


def kept_estimate(
    result: EstimateResult, notes: dict, ranges: UncertaintyResult | None
) -> KeptEstimate:
    """An estimate as it is kept: the catalogue's notes (by section) first in each section's
    assumptions, with the percentiles of its ranges."""
    sections = {
        name: replace(section, assumptions=(*notes[name], *section.assumptions))
        for name, section in (("training", result.training), ("inference", result.inference))
        if section is not None and notes.get(name)
    }
    return KeptEstimate(replace(result, **sections), ranges)


def estimate_response(request_data: dict) -> dict:
    """The estimate response contract's dict of a request (see `estimate_kept`)."""
    return kept_estimate_representation(estimate_kept(request_data))


def kept_estimate_representation(kept: KeptEstimate) -> dict:
    """A kept estimate as the estimate API answers it: English text, money as strings."""
    data = estimate_representation(kept.result, {})
    if kept.ranges is not None:
        data["uncertainty"] = uncertainty_representation(kept.ranges)
    return data
