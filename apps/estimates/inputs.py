"""Inputs of the estimate engine, and their validation with plain-language messages per field."""

import math
from dataclasses import dataclass, replace

import numpy as np

from apps.estimates.formulas import Quantity
from apps.estimates.limits import OPTIONAL, RULES, Rule
from apps.estimates.messages import Message, _
from apps.estimates.serving import DEFAULT_OVERHEAD_BYTES
from apps.estimates.serving_checks import serving_errors

TRAINING_METHODS = ("parameters_tokens", "total_flop", "accelerator_hours", "api_fine_tune")
INFERENCE_METHODS = ("accelerator_seconds", "tokens", "external_api")
PRICING_MODES = ("rent", "own")
PROVISIONING = ("pay_per_use", "always_on")


@dataclass(frozen=True)
class Hardware:
    """Catalogue figures of one accelerator at the chosen precision, passed in by the caller."""

    peak_flops_per_second: Quantity  # dense peak, FLOP/s (TFLOP/s × 1e12)
    memory_bandwidth_bytes_per_second: Quantity | None = None
    power_watts: Quantity | None = None  # None: not published, so no energy or emissions
    # Serving a language model needs the three below (memory in bytes, GB × 1e9).
    memory_bytes: Quantity | None = None
    accelerators_per_node: Quantity | None = None
    interconnect_bytes_per_second: Quantity | None = None  # per accelerator, both directions


@dataclass(frozen=True)
class EnergyProfile:
    pue: Quantity = 1.0
    kg_co2e_per_kwh: Quantity | None = None
    electricity_price_per_kwh: Quantity | None = None  # currency per kWh


@dataclass(frozen=True)
class Pricing:
    mode: str = "rent"
    price_per_accelerator_hour: Quantity | None = None  # rent
    purchase_price: Quantity | None = None  # own: one accelerator
    lifetime_years: Quantity = 5.0  # own
    utilization_of_owned: Quantity = 0.7  # own: share of lifetime hours the accelerator is busy


@dataclass(frozen=True)
class TrainingInput:
    method: str
    hardware: Hardware | None = None  # None only for method "accelerator_hours" (FLOP unknown)
    parameters: Quantity | None = None
    tokens: Quantity | None = None
    flop_per_parameter_token: Quantity = 6.0
    runs: Quantity = 1.0
    total_flop: Quantity | None = None
    accelerator_hours: Quantity | None = None
    accelerator_count: Quantity = 1.0
    mfu: Quantity = 0.4
    goodput: Quantity = 1.0
    pricing: Pricing = Pricing()
    epochs: Quantity = 1.0  # api_fine_tune
    price_per_million_training_tokens: Quantity | None = None  # api_fine_tune


@dataclass(frozen=True)
class InferenceInput:
    method: str
    hardware: Hardware | None = None  # needed for method "tokens"
    accelerator_seconds_per_request: Quantity | None = None
    parameters: Quantity | None = None  # active parameters
    input_tokens: Quantity | None = None
    output_tokens: Quantity | None = None
    bytes_per_parameter: Quantity = 2.0
    utilization: Quantity = 0.3  # share of peak FLOP/s achieved while serving
    latency_seconds: Quantity | None = None  # else roofline when possible, else accelerator-s
    requests_per_month: Quantity = 0.0  # first month
    monthly_growth: Quantity = 0.0  # compound, per month
    months: Quantity = 12  # horizon
    peak_to_average: Quantity = 1.0
    target_utilization: Quantity = 0.7  # capacity headroom
    provisioning: str = "pay_per_use"  # which of the two costs `cost` reports
    pricing: Pricing = Pricing()
    revenue_per_request: Quantity | None = None
    # external_api: tokens billed at the cached rate (≤ input_tokens), prices per million tokens
    # (None cached price: billed as input), and the share taken off for batch processing.
    cached_input_tokens: Quantity = 0.0
    price_per_million_input_tokens: Quantity | None = None
    price_per_million_cached_input_tokens: Quantity | None = None
    price_per_million_output_tokens: Quantity | None = None
    batch_discount: Quantity = 0.0
    # Serving a language model (method "tokens"): used when the KV cache per token is known,
    # given or from layers with KV heads and head dimension (or the latent width of MLA).
    total_parameters: Quantity | None = None  # None: dense, = parameters
    layers: Quantity | None = None
    kv_heads: Quantity | None = None
    head_dim: Quantity | None = None
    query_heads: Quantity | None = None  # tensor parallelism must divide them
    hidden_size: Quantity | None = None  # activations in the all-reduces
    kv_latent_width: Quantity | None = None  # MLA: d_c + d_r per layer
    # Layers that keep only the last `sliding_window` tokens (Gemma 2/3, gpt-oss, Llama 4's chunks).
    sliding_window: Quantity | None = None
    sliding_window_layers: Quantity | None = None
    experts_total: Quantity | None = None  # routed experts, E
    experts_active: Quantity | None = None  # routed experts per token, k
    kv_cache_bytes_per_token: Quantity | None = None  # overrides the computed value
    kv_cache_bytes_per_element: Quantity = 2.0
    memory_utilization: Quantity = 0.9
    memory_efficiency: Quantity = 0.7  # share of memory bandwidth achieved
    overhead_bytes_per_accelerator: Quantity = DEFAULT_OVERHEAD_BYTES
    accelerators_per_replica: Quantity | None = None  # None: the smallest replica that fits
    ttft_target_seconds: Quantity | None = None
    tpot_target_seconds: Quantity | None = None

    @property
    def serves_language_model(self) -> bool:
        """Serving figures apply: method "tokens", the KV cache per token and the accelerator's
        memory, bandwidth and node size known. Otherwise the FLOP-based figures stand alone."""
        kv_known = self.kv_cache_bytes_per_token is not None or (
            self.layers is not None
            and (
                self.kv_latent_width is not None
                or (self.kv_heads is not None and self.head_dim is not None)
            )
        )
        hardware = self.hardware
        return (
            self.method == "tokens"
            and kv_known
            and hardware is not None
            and hardware.memory_bytes is not None
            and hardware.memory_bandwidth_bytes_per_second is not None
            and hardware.accelerators_per_node is not None
        )


@dataclass(frozen=True)
class Threshold:
    name: str
    flop: Quantity


@dataclass(frozen=True)
class EstimateInput:
    training: TrainingInput | None = None
    inference: InferenceInput | None = None
    energy: EnergyProfile = EnergyProfile()
    thresholds: tuple[Threshold, ...] = ()


def with_value[T](inputs: T, path: tuple[str, ...], value: object) -> T:
    """A copy of the engine inputs with the value at `path` replaced (a float or an array)."""
    head, *rest = path
    if not rest:
        return replace(inputs, **{head: value})
    return replace(inputs, **{head: with_value(getattr(inputs, head), tuple(rest), value)})


class EstimateInputError(ValueError):
    """Invalid input; `errors` maps dotted field paths ("training.mfu") to plain messages (each a
    Message, in English, that the edge can translate; callers outside the engine may add str)."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{key}: {' '.join(m)}" for key, m in errors.items()))


class _Errors:
    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def add(self, key: str, message: Message) -> None:
        self.errors.setdefault(key, []).append(message)

    def numbers(self, prefix: str, section: object, *names: str) -> None:
        for name in names:
            self.number(f"{prefix}.{name}", getattr(section, name), RULES[name], name in OPTIONAL)

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


def _validate_pricing(errors: _Errors, prefix: str, pricing: Pricing) -> None:
    key = f"{prefix}.pricing"
    if errors.choice(f"{key}.mode", pricing.mode, PRICING_MODES, _("rent or own")):
        needed = "price_per_accelerator_hour" if pricing.mode == "rent" else "purchase_price"
        if getattr(pricing, needed) is None:
            label = RULES[needed].label
            errors.add(
                f"{key}.{needed}",
                _("%(label)s is needed to rent.", label=label)
                if pricing.mode == "rent"
                else _("%(label)s is needed to own.", label=label),
            )
    errors.numbers(
        key,
        pricing,
        "price_per_accelerator_hour",
        "purchase_price",
        "lifetime_years",
        "utilization_of_owned",
    )


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


def _validate_training(errors: _Errors, training: TrainingInput) -> None:
    if training.method == "api_fine_tune":
        errors.needed_by_method("training", training, "tokens", "price_per_million_training_tokens")
    elif errors.choice(
        "training.method", training.method, TRAINING_METHODS, _("how training compute is given")
    ):
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
    errors.numbers(
        "training",
        training,
        "parameters",
        "tokens",
        "flop_per_parameter_token",
        "runs",
        "total_flop",
        "accelerator_hours",
        "accelerator_count",
        "mfu",
        "goodput",
        "epochs",
        "price_per_million_training_tokens",
    )
    if training.method != "api_fine_tune":  # billed per token: no accelerator to price
        _validate_pricing(errors, "training", training.pricing)


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
        _("how inference compute is given"),
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
        _("how capacity is paid for"),
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
        "cached_input_tokens",
        "price_per_million_input_tokens",
        "price_per_million_cached_input_tokens",
        "price_per_million_output_tokens",
        "batch_discount",
    )
    if inference.serves_language_model and not any(
        key.startswith("inference.") for key in errors.errors
    ):
        # After the ranges: these checks compare numbers already known to be in range.
        for key, message in serving_errors(inference):
            errors.add(key, message)
    if inference.method == "external_api":
        _validate_cached_input(errors, inference)
    else:
        _validate_pricing(errors, "inference", inference.pricing)


SERVING_NUMBERS = (
    "total_parameters",
    "layers",
    "kv_heads",
    "head_dim",
    "query_heads",
    "hidden_size",
    "kv_latent_width",
    "sliding_window",
    "sliding_window_layers",
    "experts_total",
    "experts_active",
    "kv_cache_bytes_per_token",
    "kv_cache_bytes_per_element",
    "memory_utilization",
    "memory_efficiency",
    "overhead_bytes_per_accelerator",
    "accelerators_per_replica",
    "ttft_target_seconds",
    "tpot_target_seconds",
)


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
