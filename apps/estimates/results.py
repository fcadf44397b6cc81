"""Results of the estimate engine: one scenario with money (`estimate`) and sweep figures."""

from dataclasses import dataclass
from decimal import Decimal

from apps.estimates.formulas import Quantity


@dataclass(frozen=True)
class ThresholdResult:
    name: str
    flop: float
    exceeded: bool  # strictly greater than the threshold


@dataclass(frozen=True)
class TrainingResult:
    flop: float | None  # None: accelerator-hours given without an accelerator
    petaflop_s_days: float | None
    accelerator_hours: float | None  # None: fine-tuned through an API
    wall_clock_hours: float | None
    cost: Decimal | None
    price_per_accelerator_hour: float | None  # rented, or owned cost per busy hour
    energy_kwh: float | None  # None: power draw not known
    emissions_kg_co2e: float | None
    thresholds: tuple[ThresholdResult, ...]  # empty when FLOP is unknown
    assumptions: tuple[str, ...]


@dataclass(frozen=True)
class PerRequest:
    flop: float | None
    accelerator_seconds: float | None  # None: an external API (not published)
    latency_seconds: float | None
    latency_method: str  # "given" | "roofline" | "accelerator_seconds" | "not_published"
    cost: Decimal  # pay-per-use
    cost_per_1000: Decimal
    energy_kwh: float | None


@dataclass(frozen=True)
class Month:
    month: int  # 1-based
    requests: float
    accelerator_hours: float | None  # busy accelerator-hours; None: an external API
    cost: Decimal  # as chosen by `provisioning`
    energy_kwh: float | None
    cumulative_accelerator_hours: float | None  # inference only, months 1..month
    cumulative_cost: Decimal


@dataclass(frozen=True)
class InferenceTotal:
    requests: float
    accelerator_hours: float | None
    cost: Decimal  # pay_per_use_cost or always_on_cost, as chosen by `provisioning`
    pay_per_use_cost: Decimal
    always_on_cost: Decimal | None  # None: an external API has no capacity to keep on
    energy_kwh: float | None
    emissions_kg_co2e: float | None


@dataclass(frozen=True)
class InferenceResult:
    per_request: PerRequest
    monthly: tuple[Month, ...]
    total: InferenceTotal
    peak_accelerators: int | None  # None: an external API
    peak_requests_per_second: float
    peak_concurrent_requests: float | None
    gross_margin: float | None  # None without revenue
    revenue_total: Decimal | None
    assumptions: tuple[str, ...]


@dataclass(frozen=True)
class CumulativeMonth:
    month: int  # 0 = training only, the one-off step
    training_accelerator_hours: float | None
    inference_accelerator_hours: float | None
    training_cost: Decimal
    inference_cost: Decimal
    training_energy_kwh: float | None
    inference_energy_kwh: float | None


@dataclass(frozen=True)
class ComparisonResult:
    break_even_months: float | None  # accelerator-hours; None: inference never catches up
    break_even_months_cost: float | None
    break_even_months_energy: float | None
    within_horizon: bool | None
    training_share: float | None  # of accelerator-hours over the horizon
    training_share_cost: float | None
    inference_share: float | None
    cumulative: tuple[CumulativeMonth, ...]


@dataclass(frozen=True)
class EstimateResult:
    training: TrainingResult | None
    inference: InferenceResult | None
    comparison: ComparisonResult | None  # only when both sections are present
    engine_version: str


@dataclass(frozen=True)
class Figures:
    """Headline figures of `evaluate`, each a float or an array of the inputs' broadcast shape.

    NaN where a figure cannot be computed: its section is absent, FLOP is unknown, power or grid
    intensity is unknown, or (break_even_months only) inference never catches up.
    """

    training_flop: Quantity
    training_accelerator_hours: Quantity
    training_wall_clock_hours: Quantity
    training_cost: Quantity
    training_energy_kwh: Quantity
    training_emissions_kg_co2e: Quantity
    inference_accelerator_seconds_per_request: Quantity
    inference_latency_seconds: Quantity
    inference_total_requests: Quantity
    inference_accelerator_hours: Quantity
    inference_cost: Quantity
    inference_energy_kwh: Quantity
    peak_accelerators: Quantity
    cost_per_request: Quantity
    break_even_months: Quantity
    training_share: Quantity
