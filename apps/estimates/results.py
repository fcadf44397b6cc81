"""Results of the estimate engine: one scenario with money (`estimate`) and sweep figures."""

from dataclasses import dataclass
from decimal import Decimal

from apps.estimates.formulas import Quantity
from apps.estimates.inputs import RequestFootprint
from apps.estimates.modification import ModificationResult
from apps.estimates.money import cost_of_one_request


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
    cost: Decimal | None  # None: not priced (see cost_note)
    price_per_accelerator_hour: float | None  # rented, or owned cost per busy hour
    energy_kwh: float | None  # None: power draw not known
    emissions_kg_co2e: float | None
    thresholds: tuple[ThresholdResult, ...]  # empty when FLOP is unknown
    assumptions: tuple[str, ...]
    # Where `cost` is None because a price is missing: which one (a Message), else None.
    cost_note: str | None = None
    # A fine-tune of a catalogue model against the one-third rule; None: no base model named,
    # or FLOP unknown (and records from before it was reported).
    modification: ModificationResult | None = None
    # The hardware's manufacturing spread over these accelerator-hours, and water on site and
    # at the power plant (apps.estimates.footprint); None: not published.
    embodied_kg_co2e: float | None = None
    water_litres: float | None = None


@dataclass(frozen=True)
class PerRequest:
    flop: float | None
    accelerator_seconds: float | None  # None: an external API (not published)
    latency_seconds: float | None
    latency_method: str  # "given" | "roofline" | "accelerator_seconds" | "not_published"
    # Pay-per-use, rounded to the cent; None where the model fits no replica (no cost is true).
    cost: Decimal | None
    cost_per_1000: Decimal | None
    energy_kwh: float | None
    # Tokens one request generates, apart: the visible answer and the hidden reasoning, both
    # decoded and billed as output. None: the method does not read them (accelerator-seconds
    # given) or a stored response from before they were reported.
    output_tokens: float | None = None
    reasoning_tokens: float | None = None
    embodied_kg_co2e: float | None = None  # None: not published (apps.estimates.footprint)
    water_litres: float | None = None
    # An external API's footprint per request as EcoLogits gives it, a range (None otherwise):
    # energy_kwh, embodied_kg_co2e and water_litres above are the middles of its ranges.
    footprint_range: RequestFootprint | None = None

    @property
    def precise_cost(self) -> Decimal | None:
        """The cost of one request as pages and exports show it: below a cent, where `cost`
        rounds to 0.00 or 0.01, from the cost of 1,000 requests (0.00166)."""
        if self.cost is None or self.cost_per_1000 is None:
            return None
        return cost_of_one_request(self.cost, self.cost_per_1000)


@dataclass(frozen=True)
class Month:
    month: int  # 1-based
    requests: float
    accelerator_hours: float | None  # busy accelerator-hours; None: an external API
    cost: Decimal | None  # as chosen by `provisioning`; None: the model fits no replica
    energy_kwh: float | None
    cumulative_accelerator_hours: float | None  # inference only, months 1..month
    cumulative_cost: Decimal | None


@dataclass(frozen=True)
class InferenceTotal:
    requests: float
    accelerator_hours: float | None
    # None throughout where a language model fits no replica: no cost of it can be true.
    cost: Decimal | None  # pay_per_use_cost or always_on_cost, as chosen by `provisioning`
    pay_per_use_cost: Decimal | None
    always_on_cost: Decimal | None  # None: an external API has no capacity to keep on
    energy_kwh: float | None
    emissions_kg_co2e: float | None
    embodied_kg_co2e: float | None = None  # None: not published (apps.estimates.footprint)
    water_litres: float | None = None


@dataclass(frozen=True)
class ReplicaChoice:
    """One replica size considered for a language model, and what it would give at the peak.

    None where the model does not fit that size. `meets_targets`: it fits and is within the
    TTFT and TPOT targets given (any size that fits, without targets).
    """

    accelerators_per_replica: int
    fits: bool
    batch_size: int | None
    output_tokens_per_second: float | None
    replicas_at_peak: int | None
    meets_targets: bool


@dataclass(frozen=True)
class ServingResult:
    """How a language model is served: one replica (copy of the model) and the copies at peak.

    Replica figures are per copy; None where the model does not fit (`fits` False, with
    `limited_by` "memory"). GB = 10^9 bytes.
    """

    fits: bool
    limited_by: str  # "memory" | "compute" | "latency_target": what sets the batch
    weights_gb: float
    kv_cache_bytes_per_token: float
    accelerators_per_replica: int | None
    tensor_parallel: int | None
    pipeline_parallel: int | None
    kv_cache_capacity_tokens: float | None
    max_concurrent_requests: int | None
    batch_size: int | None
    output_tokens_per_second: float | None
    requests_per_second: float | None
    ttft_seconds: float | None
    tpot_seconds: float | None
    replicas_at_peak: int | None
    # For the page: memory per accelerator against what it holds, the user's wait, the targets
    # (None where a stored response, which has the fields above only, is shown again).
    memory_per_accelerator_gb: float | None = None
    usable_memory_per_accelerator_gb: float | None = None
    wait_seconds: float | None = None
    ttft_target_seconds: float | None = None
    tpot_target_seconds: float | None = None
    replica_derived: bool = True  # False: accelerators_per_replica was given
    # The sizes considered, smallest first (empty when accelerators_per_replica was given), and
    # why the one used was chosen (None in responses stored before the choice).
    replica_choice: tuple[ReplicaChoice, ...] = ()
    replica_chosen_because: str | None = None


@dataclass(frozen=True)
class CommitmentResult:
    """Capacity rented on commitment (apps.estimates.commitment), money rounded to the cent.

    The terms cover the horizon; the committed months after it are paid too
    (`after_horizon_cost`, inside `commitment_cost`, outside the monthly series). `idle_*`: the
    committed accelerator-hours not busy and their cost at the committed price, months after the
    horizon included; `on_demand_*`: busy hours beyond what the committed capacity serves, paid
    at the on-demand price.
    """

    years: int
    term_months: int
    terms: int
    upfront_share: float
    discount: float  # share off the on-demand price
    committed_accelerators: int
    on_demand_price_per_accelerator_hour: float
    price_per_accelerator_hour: float  # committed
    upfront_per_term: Decimal  # at the start of each term
    monthly_payment: Decimal  # every month of each term
    commitment_cost: Decimal  # every term, whole
    months_after_horizon: int
    after_horizon_cost: Decimal
    on_demand_accelerator_hours: float
    on_demand_cost: Decimal
    idle_accelerator_hours: float
    idle_share: float  # of the committed accelerator-hours
    idle_cost: Decimal


@dataclass(frozen=True)
class InferenceResult:
    per_request: PerRequest
    monthly: tuple[Month, ...]
    total: InferenceTotal
    peak_accelerators: int | None  # None: an external API, or a model that fits no replica
    peak_requests_per_second: float
    peak_concurrent_requests: float | None
    gross_margin: float | None  # None without revenue
    revenue_total: Decimal | None
    assumptions: tuple[str, ...]
    serving: ServingResult | None = None  # method "tokens" with the model's dimensions known
    commitment: CommitmentResult | None = None  # provisioning "committed"


@dataclass(frozen=True)
class CumulativeMonth:
    month: int  # 0 = training only, the one-off step
    training_accelerator_hours: float | None
    inference_accelerator_hours: float | None
    training_cost: Decimal | None
    inference_cost: Decimal | None
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
    intensity is unknown, the hardware's life-cycle figure or the energy profile's water is not
    published (embodied_kg_co2e, water_litres: apps.estimates.footprint), or (break_even_months
    only) inference never catches up. The serving_
    figures (per copy of the model, replicas at peak) are NaN without a serving plan (method
    "tokens" without the KV cache per token) and where the model does not fit.
    """

    training_flop: Quantity
    training_accelerator_hours: Quantity
    training_wall_clock_hours: Quantity
    training_cost: Quantity
    training_energy_kwh: Quantity
    training_emissions_kg_co2e: Quantity
    training_embodied_kg_co2e: Quantity  # NaN: not published (apps.estimates.footprint)
    training_water_litres: Quantity
    inference_accelerator_seconds_per_request: Quantity
    inference_latency_seconds: Quantity
    inference_total_requests: Quantity
    inference_accelerator_hours: Quantity
    inference_cost: Quantity
    inference_energy_kwh: Quantity
    inference_emissions_kg_co2e: Quantity
    inference_embodied_kg_co2e: Quantity
    inference_water_litres: Quantity
    peak_accelerators: Quantity
    cost_per_request: Quantity
    break_even_months: Quantity
    training_share: Quantity
    serving_accelerators_per_replica: Quantity
    serving_batch_size: Quantity
    serving_output_tokens_per_second: Quantity
    serving_ttft_seconds: Quantity
    serving_tpot_seconds: Quantity
    serving_replicas_at_peak: Quantity
