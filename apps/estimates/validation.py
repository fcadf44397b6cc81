"""Validation of the estimate engine's inputs: every invalid field with a plain-language message,
on scalars and arrays alike (apps.estimates.limits holds each number's range)."""

import math

import numpy as np

from apps.estimates.external_api import EXTERNAL_API_OWN_NUMBERS, FINE_TUNE_OWN_NUMBERS
from apps.estimates.inputs import (
    COMMITMENT_YEARS,
    INFERENCE_METHODS,
    PRICING_MODES,
    PROVISIONING,
    TRAINING_METHODS,
    EstimateInput,
    EstimateInputError,
    Hardware,
    InferenceInput,
    Pricing,
    TrainingInput,
)
from apps.estimates.limits import OPTIONAL, REQUEST_SERVING_NUMBERS, RULES, Rule
from apps.estimates.messages import Message, _
from apps.estimates.serving_checks import serving_errors

# What a choice is of, as its error message names it: built once, as every valid input names it.
_RENT_OR_OWN = _("rent or own")
_TRAINING_METHOD = _("how training compute is given")
_INFERENCE_METHOD = _("how inference compute is given")
_PROVISIONING = _("how capacity is paid for")


class _Errors:
    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def add(self, key: str, message: Message) -> None:
        self.errors.setdefault(key, []).append(message)

    def numbers(self, prefix: str, section: object, *names: str) -> None:
        for name in names:
            value = getattr(section, name)
            # The usual cases, a float in range and an optional number not given, pass here
            # without a key or a call; `number` judges every other value the same way.
            if type(value) is float:
                if RULES[name].accepts_number(value):
                    continue
            elif value is None and name in OPTIONAL:
                continue
            self.number(f"{prefix}.{name}", value, RULES[name], name in OPTIONAL)

    def number(self, key: str, value: object, rule: Rule, optional: bool = False) -> None:
        if value is None:
            if not optional:
                self.add(key, _("%(label)s is needed.", label=rule.label))
            return
        kind = type(value)
        if kind is float or kind is int:
            # One plain number, the usual case: judged without building an array.
            try:
                number = float(value)
            except OverflowError:
                self.add(key, _("%(label)s must be a number.", label=rule.label))
                return
            if rule.accepts_number(number):
                return
            finite = math.isfinite(number)
        else:
            try:
                if isinstance(value, bool | str | bytes):
                    raise TypeError
                values = np.asarray(value, dtype=np.float64)
            except (TypeError, ValueError, OverflowError):
                self.add(key, _("%(label)s must be a number.", label=rule.label))
                return
            if rule.accepts(values):
                return
            finite = bool(np.all(np.isfinite(values)))
        if not finite:
            self.add(
                key, _("%(label)s must be a finite number, not infinity or NaN.", label=rule.label)
            )
        else:
            self.add(key, rule.message)

    def needed_by_method(self, prefix: str, section: object, *names: str) -> None:
        for name in names:
            if getattr(section, name) is None:
                self.add(
                    f"{prefix}.{name}",
                    _("%(label)s is needed for this method.", label=RULES[name].label),
                )

    def choice(self, key: str, value: object, choices: tuple[str, ...], what: Message) -> bool:
        if value in choices:
            return True
        self.add(
            key, _("Choose %(what)s: one of %(choices)s.", what=what, choices=", ".join(choices))
        )
        return False


def _validate_hardware(errors: _Errors, prefix: str, hardware: Hardware) -> None:
    errors.numbers(
        prefix,
        hardware,
        "peak_flops_per_second",
        "memory_bandwidth_bytes_per_second",
        "power_watts",
        "memory_bytes",
        "accelerators_per_node",
        "interconnect_bytes_per_second",
    )


# The numbers a request gives of a training run (but the API methods' own) and of a price.
TRAINING_NUMBERS = (
    "parameters",
    "tokens",
    "flop_per_parameter_token",
    "runs",
    "total_flop",
    "accelerator_hours",
    "accelerator_count",
    "mfu",
    "goodput",
)
PRICING_NUMBERS = (
    "price_per_accelerator_hour",
    "purchase_price",
    "lifetime_years",
    "utilization_of_owned",
)


def _validate_pricing(errors: _Errors, prefix: str, pricing: Pricing, price_needed: bool) -> None:
    """`price_needed` False: a missing price leaves the cost unknown (training is then "not
    priced"); True: it is an error (serving's figures, copies at peak included, need a price)."""
    key = f"{prefix}.pricing"
    if errors.choice(f"{key}.mode", pricing.mode, PRICING_MODES, _RENT_OR_OWN):
        needed = "price_per_accelerator_hour" if pricing.mode == "rent" else "purchase_price"
        if price_needed and getattr(pricing, needed) is None:
            label = RULES[needed].label
            errors.add(
                f"{key}.{needed}",
                _("%(label)s is needed to rent.", label=label)
                if pricing.mode == "rent"
                else _("%(label)s is needed to own.", label=label),
            )
    errors.numbers(key, pricing, *PRICING_NUMBERS)


def _validate_cached_input(errors: _Errors, inference: InferenceInput) -> None:
    judged = ("inference.cached_input_tokens", "inference.input_tokens")
    if any(key in errors.errors for key in judged) or inference.input_tokens is None:
        return  # a number that is wrong in itself has its own message
    try:
        within = np.all(
            np.asarray(inference.cached_input_tokens, dtype=np.float64)
            <= np.asarray(inference.input_tokens, dtype=np.float64)
        )
    except (TypeError, ValueError):
        return  # input_tokens is not a number: its own error says so
    if not within:
        errors.add(
            "inference.cached_input_tokens",
            _("Cached input tokens are part of the input tokens: at most as many."),
        )


def _validate_commitment(errors: _Errors, inference: InferenceInput) -> None:
    """Capacity bought on commitment is rented, for a term of 1 or 3 years, at a discount."""
    if inference.pricing.mode != "rent":
        errors.add(
            "inference.provisioning",
            _(
                "Capacity is bought on commitment from a cloud provider: rent the accelerators, "
                "or choose another way to pay for capacity."
            ),
        )
    if "inference.commitment_years" not in errors.errors:
        years = np.asarray(inference.commitment_years, dtype=np.float64)
        if not np.all(np.isin(years, COMMITMENT_YEARS)):
            errors.add("inference.commitment_years", RULES["commitment_years"].message)
    if inference.commitment_discount is None:
        errors.add(
            "inference.commitment_discount",
            _(
                "Give the discount against on demand for this term and payment (0.4 for 40 %% "
                "off), or a provider whose discount the catalogue has."
            ),
        )


def _validate_training(errors: _Errors, training: TrainingInput) -> None:
    if training.method == "api_fine_tune":
        errors.needed_by_method("training", training, "tokens", "price_per_million_training_tokens")
    elif errors.choice("training.method", training.method, TRAINING_METHODS, _TRAINING_METHOD):
        needed = {
            "parameters_tokens": ("parameters", "tokens"),
            "total_flop": ("total_flop",),
            "accelerator_hours": ("accelerator_hours",),
        }[training.method]
        errors.needed_by_method("training", training, *needed)
        if training.method != "accelerator_hours" and training.hardware is None:
            errors.add(
                "training.hardware",
                _("Choose an accelerator: it turns FLOP into accelerator-hours."),
            )
    if training.hardware is not None:
        _validate_hardware(errors, "training.hardware", training.hardware)
    errors.numbers("training", training, *TRAINING_NUMBERS, *FINE_TUNE_OWN_NUMBERS)
    if training.method != "api_fine_tune":  # billed per token: no accelerator to price
        _validate_pricing(errors, "training", training.pricing, price_needed=False)


def _validate_inference(errors: _Errors, inference: InferenceInput) -> None:
    if inference.method == "external_api":
        errors.needed_by_method(
            "inference",
            inference,
            "input_tokens",
            "output_tokens",
            "price_per_million_input_tokens",
            "price_per_million_output_tokens",
        )
    elif errors.choice(
        "inference.method",
        inference.method,
        INFERENCE_METHODS,
        _INFERENCE_METHOD,
    ):
        if inference.method == "accelerator_seconds":
            errors.needed_by_method("inference", inference, "accelerator_seconds_per_request")
        else:
            errors.needed_by_method(
                "inference", inference, "parameters", "input_tokens", "output_tokens"
            )
            if inference.hardware is None:
                errors.add(
                    "inference.hardware",
                    _("Choose an accelerator: it turns FLOP per request into accelerator-seconds."),
                )
    errors.choice(
        "inference.provisioning",
        inference.provisioning,
        PROVISIONING,
        _PROVISIONING,
    )
    if inference.hardware is not None:
        _validate_hardware(errors, "inference.hardware", inference.hardware)
    errors.numbers(
        "inference",
        inference,
        "accelerator_seconds_per_request",
        "parameters",
        "input_tokens",
        "output_tokens",
        "reasoning_tokens",
        "cached_input_tokens",
        "bytes_per_parameter",
        "utilization",
        "latency_seconds",
        "requests_per_month",
        "monthly_growth",
        "months",
        "peak_to_average",
        "target_utilization",
        "revenue_per_request",
        *SERVING_NUMBERS,
        *EXTERNAL_API_OWN_NUMBERS,
        "commitment_years",
        "upfront_share",
        "commitment_discount",
        "committed_accelerators",
    )
    if inference.provisioning == "committed" and inference.method != "external_api":
        _validate_commitment(errors, inference)
    if inference.serves_language_model and not any(
        key.startswith("inference.") for key in errors.errors
    ):
        # After the ranges: these checks compare numbers already known to be in range.
        for key, message in serving_errors(inference):
            errors.add(key, message)
    _validate_cached_input(errors, inference)
    if inference.method != "external_api":
        _validate_pricing(errors, "inference", inference.pricing, price_needed=True)


SERVING_NUMBERS = (*REQUEST_SERVING_NUMBERS, "overhead_bytes_per_accelerator")


def validate(inp: EstimateInput) -> None:
    """Raise EstimateInputError listing every invalid field; works on scalars and arrays alike."""
    errors = _Errors()
    errors.numbers("energy", inp.energy, "pue", "kg_co2e_per_kwh", "electricity_price_per_kwh")
    if inp.training is not None:
        _validate_training(errors, inp.training)
    if inp.inference is not None:
        _validate_inference(errors, inp.inference)
    for index, threshold in enumerate(inp.thresholds):
        errors.number(f"thresholds.{index}.flop", threshold.flop, RULES["flop"])
    if errors.errors:
        raise EstimateInputError(errors.errors)
