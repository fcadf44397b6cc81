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
from apps.estimates.currency import ExchangeRate
from apps.estimates.kept import KeptEstimate
from apps.estimates.uncertainty import UncertaintyResult
from apps.exchange.serializers import exchange_rate_representation

ESTIMATE_REQUEST = FastValidator(EstimateRequestSerializer)


def estimate_kept(
    request_data: dict, *, fan: bool = False, exchange: ExchangeRate | None = None
) -> KeptEstimate:
    """Validate an estimate request and run the engine: its result, the catalogue's notes first
    in each section's assumptions, and with ranges the percentiles of its figures (with `fan`,
    the cumulative inference cost's percentiles month by month too), its prices converted at
    `exchange` when given (apps.estimates.currency)."""
    result, notes, ranges = _estimated(request_data, fan=fan, exchange=exchange)
    return kept_estimate(result, notes, ranges, exchange)


def _estimated(
    request_data: dict, *, fan: bool, exchange: ExchangeRate | None
) -> tuple[EstimateResult, dict, UncertaintyResult | None]:
    """A valid request's result, the catalogue's notes by section and the ranges' percentiles."""
    validated = ESTIMATE_REQUEST.validated_data(request_data)
    if validated is None:
        serializer = EstimateRequestSerializer(data=request_data)
        serializer.is_valid(raise_exception=True)
        validated = serializer.validated_data
    result, resolution = estimate_from_request(validated, exchange=exchange)
    ranges = uncertainty_from_request(validated, fan=fan, exchange=exchange)
    return result, resolution.notes, ranges


def kept_estimate(
    result: EstimateResult,
    notes: dict,
    ranges: UncertaintyResult | None,
    exchange: ExchangeRate | None = None,
) -> KeptEstimate:
    """An estimate as it is kept: the catalogue's notes (by section) first in each section's
    assumptions, with the percentiles of its ranges."""
    sections = {
        name: replace(section, assumptions=(*notes[name], *section.assumptions))
        for name, section in (("training", result.training), ("inference", result.inference))
        if section is not None and notes.get(name)
    }
    return KeptEstimate(replace(result, **sections), ranges, _pinned(exchange))


def _pinned(exchange: ExchangeRate | None) -> ExchangeRate | None:
    return None if exchange is None or exchange.is_identity else exchange


def estimate_response(request_data: dict, exchange: ExchangeRate | None = None) -> dict:
    """The estimate response contract's dict of a request: `kept_estimate_representation` of
    its `estimate_kept`, the notes put first in the assumptions as the response is written
    rather than in a copy of the result."""
    result, notes, ranges = _estimated(request_data, fan=False, exchange=exchange)
    first = {
        name: notes[name]
        for name in ("training", "inference")
        if notes.get(name) and getattr(result, name) is not None
    }
    return _representation(result, first, ranges, _pinned(exchange))


def kept_estimate_representation(kept: KeptEstimate) -> dict:
    """A kept estimate as the estimate API answers it: English text, money as strings, in the
    currency its prices were converted into, with the rate used."""
    return _representation(kept.result, {}, kept.ranges, kept.exchange)


def _representation(
    result: EstimateResult,
    notes: dict,
    ranges: UncertaintyResult | None,
    exchange: ExchangeRate | None,
) -> dict:
    data = estimate_representation(result, notes)
    if exchange is not None:
        data["currency"] = exchange.to_currency
        data["exchange_rates"] = [exchange_rate_representation(exchange)]
    if ranges is not None:
        data["uncertainty"] = uncertainty_representation(ranges)
    return data
