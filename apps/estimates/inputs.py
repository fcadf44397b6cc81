"""Inputs of the estimate engine, as frozen dataclasses, and the error invalid ones raise.

They are validated, field by field, in apps.estimates.validation.
"""

from dataclasses import dataclass, replace

from apps.estimates.formulas import Quantity
from apps.estimates.modification import BaseModel
from apps.estimates.serving import DEFAULT_OVERHEAD_BYTES

TRAINING_METHODS = ("parameters_tokens", "total_flop", "accelerator_hours", "api_fine_tune")
INFERENCE_METHODS = ("accelerator_seconds", "tokens", "external_api")
PRICING_MODES = ("rent", "own")
PROVISIONING = ("pay_per_use", "always_on", "committed")
COMMITMENT_YEARS = (1, 3)


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
    # Manufacturing one accelerator and its share of the server (kg CO2e, cradle to gate), and
    # the service life a rented one's is spread over; None: not published.
    embodied_kg_co2e: Quantity | None = None
    embodied_lifetime_years: Quantity | None = None


@dataclass(frozen=True)
class EnergyProfile:
    pue: Quantity = 1.0
    kg_co2e_per_kwh: Quantity | None = None
    electricity_price_per_kwh: Quantity | None = None  # currency per kWh
    # Water: on site per kWh of IT energy (WUE), and consumed generating each kWh of
    # electricity; None: not published, so no water figure.
    wue_litres_per_kwh: Quantity | None = None
    grid_water_litres_per_kwh: Quantity | None = None


@dataclass(frozen=True)
class RequestFootprint:
    """An external model API's footprint of one request, as a range (low = high where there is
    none), from EcoLogits' methodology and model data (apps.apiprices.footprint): the provider's
    facility energy (kWh), the emissions of that energy and of making the hardware (kg CO2e),
    and water on site and at the power plant (litres)."""

    energy_kwh_low: float
    energy_kwh_high: float
    usage_kg_co2e_low: float
    usage_kg_co2e_high: float
    embodied_kg_co2e_low: float
    embodied_kg_co2e_high: float
    water_litres_low: float
    water_litres_high: float

    def middle(self, name: str) -> float:
        """The middle of a figure's range: `name` is "energy_kwh", "usage_kg_co2e", …"""
        return (getattr(self, f"{name}_low") + getattr(self, f"{name}_high")) / 2


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
    mfu: Quantity = 0.25  # geometric mean of four published runs (apps.estimates.assumptions)
    goodput: Quantity = 1.0
    pricing: Pricing = Pricing()
    epochs: Quantity = 1.0  # api_fine_tune
    price_per_million_training_tokens: Quantity | None = None  # api_fine_tune
    # The catalogue model this run fine-tunes, for the EU guidelines' one-third rule.
    base_model: BaseModel | None = None


@dataclass(frozen=True)
class InferenceInput:
    method: str
    hardware: Hardware | None = None  # needed for method "tokens"
    accelerator_seconds_per_request: Quantity | None = None
    parameters: Quantity | None = None  # active parameters
    input_tokens: Quantity | None = None
    output_tokens: Quantity | None = None  # visible output
    # Hidden thinking tokens of a reasoning model: decoded and billed as output tokens.
    reasoning_tokens: Quantity = 0.0
    # Input tokens per request served from a cache: an external API bills them at its cached
    # rate; a self-hosted server skips their prefill compute (their KV cache is still held).
    cached_input_tokens: Quantity = 0.0
    bytes_per_parameter: Quantity = 2.0
    utilization: Quantity = 0.3  # share of peak FLOP/s achieved while serving
    latency_seconds: Quantity | None = None  # else roofline when possible, else accelerator-s
    requests_per_month: Quantity = 0.0  # first month
    monthly_growth: Quantity = 0.0  # compound, per month
    months: Quantity = 12  # horizon
    peak_to_average: Quantity = 1.0
    target_utilization: Quantity = 0.7  # capacity headroom
    provisioning: str = "pay_per_use"  # which of the costs `cost` reports
    # provisioning "committed" (rented only): capacity bought for terms of `commitment_years`
    # (1 or 3) at `commitment_discount` (a share) off the price per accelerator-hour, a share
    # `upfront_share` of each term paid at its start; see apps.estimates.commitment.
    commitment_years: Quantity = 1.0
    upfront_share: Quantity = 0.0
    commitment_discount: Quantity | None = None
    committed_accelerators: Quantity | None = None  # None: what the peak needs
    pricing: Pricing = Pricing()
    revenue_per_request: Quantity | None = None
    # external_api: prices per million tokens (None cached price: billed as input), and the
    # share taken off for batch processing.
    price_per_million_input_tokens: Quantity | None = None
    price_per_million_cached_input_tokens: Quantity | None = None
    price_per_million_output_tokens: Quantity | None = None
    batch_discount: Quantity = 0.0
    # external_api: its footprint per request (None: EcoLogits has no data on the model).
    request_footprint: RequestFootprint | None = None
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
    accelerators_per_replica: Quantity | None = None  # None: chosen (fewest accelerators at peak)
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
