"""Serializers of the estimate API: the request contract, the response contract, the catalogue."""

from django.utils.translation import gettext
from rest_framework import serializers

from apps.api.fields import ChoiceField, FiniteFloatField, MoneyFigureField, StrictIntegerField
from apps.api.ranges import (
    RangesSerializer,
    UncertaintyResultSerializer,
    UncertaintySettingsSerializer,
)
from apps.api.representation import footprint_range_data
from apps.api.strict import StrictSerializer
from apps.apiprices.models import PriceTier
from apps.catalogue.language_models import MODEL_SLUG_PATTERN
from apps.catalogue.models import PRECISIONS, CommitmentDiscount
from apps.estimates import RequestFootprint
from apps.estimates.limits import RULES
from apps.exchange.serializers import ExchangeRateSerializer

# Model slugs keep their version's dots ("llama-3.1-8b"), which a SlugField refuses.
MODEL_SLUG = rf"^{MODEL_SLUG_PATTERN}\Z"
PRICING_MODES = (("rent", "Rent per accelerator-hour"), ("own", "Own: purchase, amortised"))


def number(help_text: str, **kwargs) -> FiniteFloatField:
    kwargs.setdefault("required", False)
    return FiniteFloatField(help_text=help_text, **kwargs)


class PricingFields(StrictSerializer):
    # Each number named after its rule in the engine has the rule's range in the schema.
    engine_rules = RULES

    price_per_accelerator_hour = number(
        "USD per accelerator-hour; overrides the catalogue's median rental price."
    )
    pricing_mode = ChoiceField(choices=PRICING_MODES, default="rent")
    purchase_price = number("USD per accelerator when owned; overrides the catalogue.")
    lifetime_years = number("Years over which an owned accelerator is written off [5].")
    utilization_of_owned = number("Share of its lifetime an owned accelerator is busy [0.7].")


class TrainingRequestSerializer(PricingFields):
    method = ChoiceField(
        choices=(
            ("parameters_tokens", "parameters × tokens"),
            ("total_flop", "total FLOP"),
            ("accelerator_hours", "accelerator-hours"),
            ("api_fine_tune", "fine-tuning through a vendor's API"),
        )
    )
    parameters = number("Parameters active per token (N).")
    tokens = number("Training tokens (D).")
    flop_per_parameter_token = number("FLOP per parameter per token (k) [6].", default=6.0)
    runs = number("Full training runs, failed and experimental ones included [1].", default=1.0)
    total_flop = number("Total training compute (FLOP).")
    accelerator_hours = number("Accelerator-hours, when known directly.")
    accelerator = serializers.SlugField(required=False, help_text="Catalogue slug.")
    accelerator_count = number("Accelerators working in parallel [1].", default=1.0)
    precision = ChoiceField(choices=PRECISIONS, default="bf16")
    mfu = number("Model FLOP utilisation, 0–1 [0.25].", default=0.25)
    goodput = number("Share of time that moves training forward, 0–1 [1].", default=1.0)
    epochs = number("api_fine_tune: passes over the training tokens [1].", default=1.0)
    price_per_million_training_tokens = number(
        "api_fine_tune: USD per million training tokens, as the vendor bills them."
    )
    base_model = serializers.RegexField(
        MODEL_SLUG,
        required=False,
        help_text="Model catalogue slug (GET /api/v1/models/) of the model this run fine-tunes: "
        "its published training compute is compared with this run's under the EU guidelines' "
        "one-third rule (`modification` in the response).",
    )


class InferenceRequestSerializer(PricingFields):
    method = ChoiceField(
        choices=(
            ("accelerator_seconds", "accelerator-seconds"),
            ("tokens", "tokens"),
            ("external_api", "an external model API, priced per token"),
        )
    )
    accelerator_seconds_per_request = number("Accelerator-seconds each request uses.")
    parameters = number("Parameters active per token.")
    input_tokens = number("Input (prompt) tokens per request.")
    output_tokens = number("Output (generated) tokens per request, the visible answer.")
    reasoning_tokens = number(
        "Hidden reasoning (thinking) tokens per request: decoded and billed as output tokens [0].",
        default=0.0,
    )
    cached_input_tokens = number(
        "Input tokens per request served from a cache (≤ input tokens): billed at the cached "
        "rate by an external API; self-hosted (tokens), their prefill compute is skipped while "
        "their KV cache is still held [0].",
        default=0.0,
    )
    accelerator = serializers.SlugField(required=False, help_text="Catalogue slug.")
    precision = ChoiceField(choices=PRECISIONS, default="bf16")
    utilization = number("Share of peak FLOP/s achieved while serving, 0–1 [0.3].", default=0.3)
    latency_seconds = number("Latency per request when known; otherwise estimated.")
    requests_per_month = number("Requests in the first month.")
    monthly_growth = number("Compound growth per month, e.g. 0.05 for 5% [0].", default=0.0)
    months = StrictIntegerField(
        help_text="Planning horizon in months, 1–240 [12].",
        default=12,
        min_value=-(10**6),
        max_value=10**6,
    )
    peak_to_average = number("Busiest hour's rate over the average rate [1].", default=1.0)
    target_utilization = number("Planned busy share of each accelerator, 0–1 [0.7].", default=0.7)
    provisioning = ChoiceField(
        choices=(
            ("pay_per_use", "pay per use"),
            ("always_on", "always on"),
            ("committed", "rented on commitment for a term (rent only)"),
        ),
        default="pay_per_use",
    )
    commitment_years = number("committed: the term, 1 or 3 years [1].")
    upfront_share = number(
        "committed: the share of each term paid at its start, 0 (all monthly) to 1 (all "
        "upfront) [0]."
    )
    commitment_discount = number(
        "committed: the share taken off the on-demand price per accelerator-hour, e.g. 0.4 for "
        "40 %; by default the catalogue's for `commitment_provider`, the term and the payment "
        "(no, partial or all upfront)."
    )
    commitment_provider = ChoiceField(
        choices=CommitmentDiscount.Provider.choices,
        required=False,
        help_text="committed: whose published discount to use when none is given "
        "(GET /api/v1/commitment-discounts/ lists them, with their sources).",
    )
    committed_accelerators = StrictIntegerField(
        required=False,
        min_value=-(10**6),
        max_value=10**6,
        help_text="committed: accelerators committed [what the peak needs]; busy hours beyond "
        "what they serve are paid on demand.",
    )
    revenue_per_request = number("USD of revenue per request, for the gross margin.")
    # Serving a language model (method "tokens"): with the KV cache known (a `model`, or layers,
    # KV heads and head dimension, or kv_cache_bytes_per_token), `inference.serving` is planned.
    model = serializers.RegexField(
        MODEL_SLUG,
        required=False,
        help_text="Model catalogue slug (GET /api/v1/models/); its figures fill the fields "
        "below and `parameters` (active) unless given.",
    )
    total_parameters = number("All parameters held in memory (a mixture's every expert).")
    layers = number("Transformer layers (L).")
    kv_heads = number("Key/value heads (n_kv): as many as the query heads for MHA, 1 for MQA.")
    head_dim = number("Dimension of one attention head (d_h).")
    query_heads = number("Query (attention) heads (n_h); tensor parallelism must divide them.")
    hidden_size = number("Model (hidden) width: the activations the all-reduces exchange.")
    kv_latent_width = number(
        "Multi-head latent attention: KV cache width per layer and token, latent + RoPE "
        "(d_c + d_r; 576 for DeepSeek-V3); replaces kv_heads × head_dim."
    )
    experts_total = number("Mixture of experts: routed experts in total (E); with experts_active.")
    experts_active = number("Mixture of experts: routed experts per token (k).")
    kv_cache_bytes_per_token = number("KV-cache bytes per token; overrides the computed value.")
    sliding_window = number(
        "Tokens a sliding-window layer keeps in its KV cache (W); with sliding_window_layers."
    )
    sliding_window_layers = number("Layers that keep only the sliding window (of `layers`).")
    kv_cache_bytes_per_element = number(
        "Bytes per KV-cache element (2 bf16, 1 fp8) [2: a BF16 cache, whatever `precision`]."
    )
    memory_utilization = number("Usable share of accelerator memory, 0–1 [0.9].")
    memory_efficiency = number("Achieved share of memory bandwidth, 0–1 [0.7].")
    accelerators_per_replica = StrictIntegerField(
        required=False,
        help_text="Fixes the accelerators per copy of the model; refused if the model does not "
        "fit. Otherwise the size with the fewest accelerators at peak among those that fit and "
        "meet the latency targets (`serving.replica_choice` lists the sizes considered).",
        min_value=-(10**6),
        max_value=10**6,
    )
    ttft_target_seconds = number("Time-to-first-token target (s); bounds the batch.")
    tpot_target_seconds = number("Time-per-output-token target (s); bounds the batch.")
    bytes_per_parameter = number(
        "Bytes per weight (0.5 for 4-bit weights); by default from `precision` (fp4: 0.5)."
    )
    api_model = serializers.SlugField(
        required=False, help_text="external_api: slug of the API price catalogue."
    )
    api_price_tier = serializers.ChoiceField(
        choices=PriceTier.values,
        required=False,
        help_text="external_api: which of the model's prices to use [standard]: the standard "
        "price in force, `off_peak` (a time-of-day discount, e.g. DeepSeek's) or `long_prompt` "
        "(prompts above a length, e.g. Gemini's above 200,000 tokens); refused, naming the "
        "tiers it has, where the model has no such tier on the day.",
    )
    price_per_million_input_tokens = number("external_api: USD; overrides the catalogue.")
    price_per_million_cached_input_tokens = number("external_api: USD; overrides the catalogue.")
    price_per_million_output_tokens = number("external_api: USD; overrides the catalogue.")
    batch_discount = number(
        "external_api: share taken off for batch processing, e.g. 0.5 [0].", default=0.0
    )


class EstimateRequestSerializer(StrictSerializer):
    engine_rules = RULES
    at_least_one_of = ("training", "inference")

    training = TrainingRequestSerializer(required=False)
    inference = InferenceRequestSerializer(required=False)
    energy_profile = serializers.SlugField(
        required=False, help_text="Catalogue slug [world-average-grid-industry-pue]."
    )
    pue = number("Overrides the energy profile's PUE.")
    kg_co2e_per_kwh = number("Overrides the energy profile's grid intensity.")
    electricity_price_per_kwh = number("USD per kWh; overrides the energy profile.")
    ranges = RangesSerializer(
        required=False, help_text="90 % intervals on any of the numbers above, by dotted path."
    )
    uncertainty = UncertaintySettingsSerializer(
        required=False, help_text="Samples and seed for `ranges`; ignored without ranges."
    )

    def validate(self, attrs):
        if not attrs.get("training") and not attrs.get("inference"):
            raise serializers.ValidationError(
                gettext("Give a training section, an inference section or both.")
            )
        return attrs


# Responses: read from the engine's result dataclasses by attribute.


def footprint_fields() -> tuple[serializers.FloatField, serializers.FloatField]:
    """`embodied_kg_co2e` and `water_litres` of a result, fresh fields for each serializer that
    has them: declared where this is called, they keep their place among its fields."""
    return (
        serializers.FloatField(
            allow_null=True,
            help_text="Manufacturing the hardware, spread over these accelerator-hours (owned: "
            "over its busy life; rented: by the hours used); null: not published for the "
            "accelerator.",
        ),
        serializers.FloatField(
            allow_null=True,
            help_text="Water on site (WUE) and consumed generating the electricity; null: not "
            "published for the energy profile.",
        ),
    )


class ThresholdResultSerializer(serializers.Serializer):
    name = serializers.CharField()
    flop = serializers.FloatField()
    exceeded = serializers.BooleanField()


class ModificationResultSerializer(serializers.Serializer):
    base_model = serializers.CharField(help_text="The model fine-tuned, developer and name.")
    base_model_flop = serializers.FloatField(
        allow_null=True, help_text="Its published training compute; null: not published."
    )
    share = serializers.FloatField(
        allow_null=True,
        help_text="This run's FLOP over the base model's (0.004 for 0.4 %); null: not published.",
    )
    threshold_flop = serializers.FloatField(
        help_text="FLOP above which the modifier becomes a provider: a third of the base "
        "model's, or, not published, a third of 10^23 (of 10^25 for an original with "
        "systemic risk)."
    )
    fallback = serializers.BooleanField(
        help_text="True: the base model's compute is not published, the fallback applies."
    )
    exceeded = serializers.BooleanField(help_text="Strictly more than `threshold_flop`.")
    summary = serializers.CharField(help_text="The outcome in plain words.")


class TrainingResultSerializer(serializers.Serializer):
    flop = serializers.FloatField(allow_null=True)
    petaflop_s_days = serializers.FloatField(allow_null=True)
    accelerator_hours = serializers.FloatField(allow_null=True)
    wall_clock_hours = serializers.FloatField(allow_null=True)
    price_per_accelerator_hour = serializers.FloatField(allow_null=True)
    cost = MoneyFigureField(
        allow_null=True, help_text="Null where no price is known: `cost_note` says which."
    )
    energy_kwh = serializers.FloatField(allow_null=True)
    emissions_kg_co2e = serializers.FloatField(allow_null=True)
    embodied_kg_co2e, water_litres = footprint_fields()
    thresholds = ThresholdResultSerializer(many=True)
    assumptions = serializers.ListField(child=serializers.CharField())
    cost_note = serializers.CharField(
        allow_null=True,
        help_text="Why `cost` is null: which price is missing (null when the training is priced).",
    )
    modification = ModificationResultSerializer(
        allow_null=True,
        help_text="Null unless `base_model` was given and the FLOP are known: this run against "
        "the EU guidelines' one-third rule for modifying another's model.",
    )


class RangeSerializer(serializers.Serializer):
    low = serializers.FloatField()
    high = serializers.FloatField()


class FootprintRangeSerializer(serializers.Serializer):
    def to_representation(self, instance):
        if isinstance(instance, RequestFootprint):  # the engine's result, not a dict
            instance = footprint_range_data(instance)
        return super().to_representation(instance)

    energy_kwh = RangeSerializer(help_text="The provider's facility energy, kWh.")
    usage_kg_co2e = RangeSerializer(help_text="Emissions of that energy, kg CO2e.")
    embodied_kg_co2e = RangeSerializer(help_text="Emissions of making the servers, kg CO2e.")
    water_litres = RangeSerializer(help_text="Water on site and at the power plant, litres.")


class PerRequestSerializer(serializers.Serializer):
    flop = serializers.FloatField(allow_null=True)
    accelerator_seconds = serializers.FloatField(allow_null=True)
    latency_seconds = serializers.FloatField(allow_null=True)
    latency_method = serializers.CharField()
    # Null where a language model fits no replica (serving.fits false): no cost can be true.
    cost = MoneyFigureField(allow_null=True)
    cost_per_1000 = MoneyFigureField(allow_null=True)
    energy_kwh = serializers.FloatField(allow_null=True)
    embodied_kg_co2e, water_litres = footprint_fields()
    output_tokens = serializers.FloatField(
        allow_null=True, help_text="The visible answer's tokens; null with accelerator-seconds."
    )
    reasoning_tokens = serializers.FloatField(
        allow_null=True,
        help_text="Hidden reasoning tokens, decoded and billed as output beside the visible "
        "output; null with accelerator-seconds.",
    )
    footprint_range = FootprintRangeSerializer(
        allow_null=True,
        help_text="An external API only: EcoLogits' range for one request (energy_kwh, "
        "embodied_kg_co2e and water_litres above are its middles); null otherwise, or where "
        "EcoLogits has no data on the model.",
    )


class MonthSerializer(serializers.Serializer):
    month = serializers.IntegerField()
    requests = serializers.FloatField()
    accelerator_hours = serializers.FloatField(allow_null=True)
    cost = MoneyFigureField(allow_null=True)
    energy_kwh = serializers.FloatField(allow_null=True)


class InferenceTotalSerializer(serializers.Serializer):
    requests = serializers.FloatField()
    accelerator_hours = serializers.FloatField(allow_null=True)
    cost = MoneyFigureField(allow_null=True)
    pay_per_use_cost = MoneyFigureField(allow_null=True)
    always_on_cost = MoneyFigureField(allow_null=True)
    energy_kwh = serializers.FloatField(allow_null=True)
    emissions_kg_co2e = serializers.FloatField(allow_null=True)
    embodied_kg_co2e, water_litres = footprint_fields()


class ReplicaChoiceSerializer(serializers.Serializer):
    accelerators_per_replica = serializers.IntegerField()
    fits = serializers.BooleanField()
    batch_size = serializers.IntegerField(allow_null=True)
    output_tokens_per_second = serializers.FloatField(
        allow_null=True, help_text="Output tokens/s of one copy of this size."
    )
    replicas_at_peak = serializers.IntegerField(allow_null=True)
    meets_targets = serializers.BooleanField(
        help_text="It fits and is within the TTFT and TPOT targets given (any size that fits, "
        "without targets)."
    )


class ServingResultSerializer(serializers.Serializer):
    fits = serializers.BooleanField()
    limited_by = serializers.ChoiceField(choices=("memory", "compute", "latency_target"))
    weights_gb = serializers.FloatField()
    kv_cache_bytes_per_token = serializers.FloatField()
    accelerators_per_replica = serializers.IntegerField(allow_null=True)
    tensor_parallel = serializers.IntegerField(allow_null=True)
    pipeline_parallel = serializers.IntegerField(allow_null=True)
    kv_cache_capacity_tokens = serializers.FloatField(allow_null=True)
    max_concurrent_requests = serializers.IntegerField(allow_null=True)
    batch_size = serializers.IntegerField(allow_null=True)
    output_tokens_per_second = serializers.FloatField(allow_null=True)
    requests_per_second = serializers.FloatField(allow_null=True)
    ttft_seconds = serializers.FloatField(allow_null=True)
    tpot_seconds = serializers.FloatField(allow_null=True)
    replicas_at_peak = serializers.IntegerField(allow_null=True)
    replica_choice = ReplicaChoiceSerializer(
        many=True,
        help_text="The replica sizes considered, smallest first, when accelerators_per_replica "
        "was not given (empty when it was); null figures where the model does not fit a size.",
    )
    replica_chosen_because = serializers.CharField(
        help_text="Why this replica size was used, in one sentence."
    )


class CommitmentResultSerializer(serializers.Serializer):
    years = serializers.IntegerField()
    term_months = serializers.IntegerField()
    terms = serializers.IntegerField(help_text="Consecutive terms that cover the horizon.")
    upfront_share = serializers.FloatField()
    discount = serializers.FloatField(help_text="Share off the on-demand price.")
    committed_accelerators = serializers.IntegerField()
    on_demand_price_per_accelerator_hour = serializers.FloatField()
    price_per_accelerator_hour = serializers.FloatField(help_text="Committed price.")
    upfront_per_term = MoneyFigureField(help_text="Paid in the first month of each term.")
    monthly_payment = MoneyFigureField(help_text="Paid in every month of each term.")
    commitment_cost = MoneyFigureField(
        help_text="Every term, whole: paid whether the capacity is used or not."
    )
    months_after_horizon = serializers.IntegerField(
        help_text="Committed months after the service ends."
    )
    after_horizon_cost = MoneyFigureField()
    on_demand_accelerator_hours = serializers.FloatField(
        help_text="Busy hours beyond what the committed accelerators serve."
    )
    on_demand_cost = MoneyFigureField()
    idle_accelerator_hours = serializers.FloatField(
        help_text="Committed accelerator-hours not busy, the months after the horizon included."
    )
    idle_share = serializers.FloatField(help_text="Of the committed accelerator-hours.")
    idle_cost = MoneyFigureField(help_text="Idle hours at the committed price.")


class InferenceResultSerializer(serializers.Serializer):
    per_request = PerRequestSerializer()
    monthly = MonthSerializer(many=True)
    total = InferenceTotalSerializer()
    peak_accelerators = serializers.IntegerField(
        allow_null=True,
        help_text="Replicas at peak × accelerators per replica; null for an external API and "
        "where a language model fits no replica (serving.fits false).",
    )
    peak_requests_per_second = serializers.FloatField()
    peak_concurrent_requests = serializers.FloatField(allow_null=True)
    gross_margin = serializers.FloatField(allow_null=True)
    revenue_total = MoneyFigureField(allow_null=True)
    assumptions = serializers.ListField(child=serializers.CharField())
    serving = ServingResultSerializer(
        allow_null=True,
        help_text="A language model's serving plan (method tokens with the KV cache known); "
        "per replica (one copy of the model) unless named otherwise; null fields where "
        "`fits` is false.",
    )
    commitment = CommitmentResultSerializer(
        allow_null=True,
        help_text="Capacity rented on commitment (provisioning committed): its terms, "
        "payments, on-demand excess and idle capacity; `total.cost` is its cost.",
    )


class CumulativeMonthSerializer(serializers.Serializer):
    month = serializers.IntegerField()
    training_accelerator_hours = serializers.FloatField(allow_null=True)
    inference_accelerator_hours = serializers.FloatField(allow_null=True)
    training_cost = MoneyFigureField(allow_null=True)
    inference_cost = MoneyFigureField(allow_null=True)
    training_energy_kwh = serializers.FloatField(allow_null=True)
    inference_energy_kwh = serializers.FloatField(allow_null=True)


class ComparisonResultSerializer(serializers.Serializer):
    break_even_months = serializers.FloatField(allow_null=True)
    break_even_months_cost = serializers.FloatField(allow_null=True)
    break_even_months_energy = serializers.FloatField(allow_null=True)
    within_horizon = serializers.BooleanField(allow_null=True)
    training_share = serializers.FloatField(allow_null=True)
    training_share_cost = serializers.FloatField(allow_null=True)
    inference_share = serializers.FloatField(allow_null=True)
    cumulative = CumulativeMonthSerializer(many=True)


class EstimateResponseSerializer(serializers.Serializer):
    currency = serializers.CharField()
    exchange_rates = ExchangeRateSerializer(
        many=True,
        required=False,
        help_text="The rates prices were converted at, when the figures are not in US dollars.",
    )
    training = TrainingResultSerializer(allow_null=True)
    inference = InferenceResultSerializer(allow_null=True)
    comparison = ComparisonResultSerializer(allow_null=True)
    engine_version = serializers.CharField()
    uncertainty = UncertaintyResultSerializer(
        required=False, help_text="Only with `ranges`: 5th, 50th, 95th percentiles and mean."
    )


class SourceSerializer(serializers.Serializer):
    evidence = serializers.CharField()
    source = serializers.CharField()
    as_of = serializers.DateField()
    notes = serializers.CharField()


class SourcesField(serializers.ListField):
    """The sources behind a catalogue row's figures, as a list (one entry per source)."""

    child = SourceSerializer()

    def __init__(self, **kwargs):
        super().__init__(source="*", read_only=True, **kwargs)

    def to_representation(self, instance):
        return [SourceSerializer(instance).data]


class PriceOfferSerializer(serializers.Serializer):
    kind = serializers.CharField()
    provider = serializers.CharField()
    region = serializers.CharField()
    description = serializers.CharField()
    price_per_accelerator_hour = serializers.DecimalField(
        max_digits=12, decimal_places=4, allow_null=True
    )
    purchase_price = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    lifetime_years = serializers.FloatField(allow_null=True)
    currency = serializers.CharField()
    evidence = serializers.CharField()
    source = serializers.CharField()
    as_of = serializers.DateField()


class PeakTflopsSerializer(serializers.Serializer):
    fp32 = serializers.FloatField(allow_null=True)
    tf32 = serializers.FloatField(allow_null=True)
    bf16 = serializers.FloatField(allow_null=True)
    fp16 = serializers.FloatField(allow_null=True)
    fp8 = serializers.FloatField(allow_null=True)
    int8 = serializers.FloatField(allow_null=True)
    fp4 = serializers.FloatField(allow_null=True)


class AcceleratorSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    vendor = serializers.CharField()
    year = serializers.IntegerField()
    memory_gb = serializers.FloatField()
    memory_bandwidth_tbps = serializers.FloatField()
    power_watts = serializers.FloatField(allow_null=True)
    accelerators_per_node = serializers.IntegerField(
        help_text="Accelerators in one server (TPUs: one host) sharing the fast interconnect."
    )
    interconnect_gb_per_second = serializers.FloatField(
        allow_null=True,
        help_text="GB/s per accelerator inside a node, both directions; null if not published.",
    )
    peak_tflops = PeakTflopsSerializer(source="peak_tflops_by_precision")
    sources = SourcesField()
    price_offers = PriceOfferSerializer(many=True)


class ThresholdSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    jurisdiction = serializers.CharField()
    flop = serializers.FloatField()
    status = serializers.CharField()
    sources = SourcesField()


class EnergyProfileSerializer(serializers.Serializer):
    slug = serializers.SlugField()
    name = serializers.CharField()
    pue = serializers.FloatField()
    kg_co2e_per_kwh = serializers.FloatField()
    electricity_price_per_kwh = serializers.DecimalField(
        max_digits=8, decimal_places=4, allow_null=True
    )
    currency = serializers.CharField()
    sources = SourcesField()


class CommitmentDiscountSerializer(serializers.Serializer):
    provider = serializers.CharField(help_text="aws, google-cloud or azure.")
    program = serializers.CharField()
    applies_to = serializers.CharField(help_text="The instances or accelerators it covers.")
    term_years = serializers.IntegerField()
    payment = serializers.CharField(help_text="no_upfront, partial_upfront or all_upfront.")
    discount = serializers.DecimalField(
        max_digits=5,
        decimal_places=4,
        allow_null=True,
        help_text="Share off the on-demand price; null where none is published in the sources "
        "read or the payment is not offered (the notes say which).",
    )
    sources = SourcesField()
