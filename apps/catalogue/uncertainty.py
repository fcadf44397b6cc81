"""An estimate request's ranges, keyed by request path ("training.mfu", "pue"), through the engine.

The request names inputs as a person types them; the engine reads them elsewhere (a price under
`pricing`, PUE under `energy`). This module maps one onto the other, runs the engine's sampler
(apps.estimates.uncertainty) on the request's resolved inputs, and reports clipping, shared
drivers and errors by request path again.
"""

import secrets
from dataclasses import replace

from apps.catalogue.resolve import INFERENCE_NUMBERS, estimate_input_from_request, request_key
from apps.catalogue.snapshot import Catalogue
from apps.estimates import EstimateInputError
from apps.estimates.currency import ExchangeRate, converted_ranges
from apps.estimates.external_api import API_FINE_TUNE_NUMBERS, EXTERNAL_API_NUMBERS
from apps.estimates.limits import RULES
from apps.estimates.uncertainty import UncertaintyResult, sample
from apps.estimates.uncertainty_draws import Range, check_ranges
from apps.estimates.validation import PRICING_NUMBERS, TRAINING_NUMBERS

DEFAULT_SAMPLES = 100_000
MIN_SAMPLES = 1_000
MAX_SAMPLES = 1_000_000
MAX_SEED = 2**32 - 1
ENERGY_NUMBERS = ("pue", "kg_co2e_per_kwh", "electricity_price_per_kwh")
# Every number of the request a range may be given for, by its path in the request, the API
# methods' own included (tokens and prices per million tokens, epochs): all but the horizon, a
# whole number of months chosen rather than guessed.
RANGE_PATHS = tuple(
    dict.fromkeys(
        path
        for path in (
            *(
                f"training.{name}"
                for name in (*TRAINING_NUMBERS, *API_FINE_TUNE_NUMBERS, *PRICING_NUMBERS)
            ),
            *(
                f"inference.{name}"
                for name in (*INFERENCE_NUMBERS, *EXTERNAL_API_NUMBERS, *PRICING_NUMBERS)
            ),
            *ENERGY_NUMBERS,
        )
        if not RULES[path.rpartition(".")[2]].whole
    )
)


class RangesError(EstimateInputError):
    """Ranges the request's inputs cannot take; `errors` is keyed by request path ("pue")."""


def engine_path(path: str) -> str:
    """Where the engine reads the request's number at `path` ("training.price_per_accelerator_
    hour" → "training.pricing.price_per_accelerator_hour", "pue" → "energy.pue")."""
    section, _, name = path.rpartition(".")
    if not section:
        return f"energy.{name}"
    if name in PRICING_NUMBERS:
        return f"{section}.pricing.{name}"
    return path


def _engine_ranges(request: dict) -> dict[str, Range]:
    return {
        engine_path(path): Range(float(interval["low"]), float(interval["high"]))
        for path, interval in request["ranges"].items()
    }


def _by_request_path(error: EstimateInputError) -> RangesError:
    remapped: dict[str, list[str]] = {}
    for key, messages in error.errors.items():
        remapped.setdefault(request_key(key), []).extend(messages)
    return RangesError(remapped)


def check_request_ranges(request: dict, catalogue: Catalogue | None = None) -> None:
    """Raise RangesError for ranges a valid request's resolved inputs cannot take (an input its
    method or pricing mode does not use), without sampling."""
    if not request.get("ranges"):
        return
    inputs, _ = estimate_input_from_request(request, catalogue)
    try:
        check_ranges(inputs, _engine_ranges(request))
    except EstimateInputError as error:
        raise _by_request_path(error) from None


def request_sampling(
    request: dict, exchange: ExchangeRate | None = None
) -> tuple[dict[str, Range], int, int, Range | None] | None:
    """A request's ranges by engine path (those of prices converted at `exchange`), its sample
    count, its seed and the factor the exchange rate's range moves every price by (None
    without one); None when neither the request nor the rate carries a range."""
    rate = None if exchange is None else exchange.factor_range
    if not request.get("ranges") and rate is None:
        return None
    settings = request.get("uncertainty") or {}
    ranges = _engine_ranges(request) if request.get("ranges") else {}
    return (
        ranges if exchange is None else converted_ranges(ranges, exchange),
        settings.get("samples", DEFAULT_SAMPLES),
        settings.get("seed", 0),
        rate,
    )


def with_request_paths(result: UncertaintyResult) -> UncertaintyResult:
    """A sampler's result with its clipping and shared drivers by request path ("pue")."""
    return replace(
        result,
        clipped={request_key(path): share for path, share in result.clipped.items()},
        shared=tuple(tuple(request_key(path) for path in paths) for paths in result.shared),
    )


def uncertainty_from_request(
    request: dict,
    catalogue: Catalogue | None = None,
    *,
    fan: bool = False,
    exchange: ExchangeRate | None = None,
) -> UncertaintyResult | None:
    """Percentiles of every figure of a valid request with ranges, keyed by response path, with
    clipping and shared drivers by request path; None when the request has no ranges. With
    `fan`, also the cumulative inference cost's percentiles month by month."""
    sampling = request_sampling(request, exchange)
    if sampling is None:
        return None
    inputs, _ = estimate_input_from_request(request, catalogue, exchange)
    ranges, samples, seed, rate = sampling
    try:
        result = sample(inputs, ranges, samples=samples, seed=seed, fan=fan, rate=rate)
    except EstimateInputError as error:
        raise _by_request_path(error) from None
    return with_request_paths(result)


def with_seed(inputs: dict, previous: dict | None = None) -> dict:
    """A scenario's inputs with a seed stored when they carry ranges: the seed they name, else
    the one the scenario had, else a new random one, so its figures repeat from save to save."""
    if not inputs.get("ranges"):
        return inputs
    settings = inputs.get("uncertainty") or {}
    if "seed" in settings:
        return inputs
    old_seed = ((previous or {}).get("uncertainty") or {}).get("seed")
    seed = old_seed if old_seed is not None else secrets.randbelow(MAX_SEED + 1)
    return {**inputs, "uncertainty": {**settings, "seed": seed}}
