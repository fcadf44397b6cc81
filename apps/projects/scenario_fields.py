"""The scenario form's inputs: label, hint with unit and typical range, default, and method."""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class FieldSpec:
    section: str  # "training" | "inference"
    name: str  # the estimate request's field name
    label: str | Promise
    hint: str | Promise
    default: float | int | str | None = None
    scale: float = 1.0  # shown value = stored value × scale (percentages)
    integer: bool = False
    methods: tuple[str, ...] = ()  # empty: used by every method of the section

    @property
    def field_name(self) -> str:
        return f"{self.section}_{self.name}"


def _pricing_fields(section: str) -> tuple[FieldSpec, ...]:
    """What the accelerators of a section cost, rented or owned: the same in both sections."""
    return (
        FieldSpec(
            section,
            "price_per_accelerator_hour",
            _("Price per accelerator-hour (USD)"),
            _("Leave empty for the catalogue's median rental price."),
        ),
        FieldSpec(
            section,
            "purchase_price",
            _("Purchase price per accelerator (USD)"),
            _("Only when owned; leave empty for the catalogue's figure."),
        ),
        FieldSpec(
            section,
            "lifetime_years",
            _("Write-off period (years)"),
            _("Only when owned; typical 4–6 years."),
            5,
        ),
    )


def _tokens_field(name: str, label, hint, default=None, *, scale=1.0, integer=False) -> FieldSpec:
    """An input of serving a model given by its size and tokens (the "tokens" method)."""
    return FieldSpec(
        I, name, label, hint, default, scale=scale, integer=integer, methods=("tokens",)
    )


T, I = "training", "inference"  # noqa: E741
NUMBER_FIELDS = (
    FieldSpec(
        T,
        "parameters",
        _("Model size (parameters)"),
        _("Parameters active per token; 7e9 for a 7-billion-parameter model."),
        methods=("parameters_tokens",),
    ),
    FieldSpec(
        T,
        "tokens",
        _("Training tokens"),
        _("Tokens the model reads in training; fine-tuning 1e8–1e10, pre-training 1e12–2e13."),
        methods=("parameters_tokens",),
    ),
    FieldSpec(
        T,
        "flop_per_parameter_token",
        _("FLOP per parameter per token"),
        _("6 for full training (2 forward + 4 backward); lower for some fine-tuning methods."),
        6,
        methods=("parameters_tokens",),
    ),
    FieldSpec(
        T,
        "runs",
        _("Full runs"),
        _("Count failed and experimental runs too; usually 1–3."),
        1,
        methods=("parameters_tokens",),
    ),
    FieldSpec(
        T,
        "total_flop",
        _("Total training compute (FLOP)"),
        _("e.g. 3.15e23 FLOP for GPT-3; 1e25 is the EU AI Act line."),
        methods=("total_flop",),
    ),
    FieldSpec(
        T,
        "accelerator_hours",
        _("Accelerator-hours"),
        _("Accelerators × hours: 8 accelerators for 25 hours is 200 accelerator-hours."),
        methods=("accelerator_hours",),
    ),
    FieldSpec(
        T,
        "accelerator_count",
        _("Accelerators in parallel"),
        _("Sets the wall-clock time, not the total work; 8 to thousands."),
        1,
    ),
    FieldSpec(
        T,
        "mfu",
        _("Model FLOP utilisation (%)"),
        _(
            "Share of peak speed that does useful work; 30–50% for large models, much less for "
            "small ones: the H100-hours in Meta’s Llama 3.1 model card imply about 14% at 8B, "
            "25% at 70B and 35% at 405B parameters. The default 25% is the geometric mean of "
            "those three and DeepSeek-V3’s 33% (see the calibration table)."
        ),
        0.25,
        scale=100,
    ),
    FieldSpec(
        T,
        "goodput",
        _("Goodput (%)"),
        _("Share of time not lost to crashes and restarts; typical 90–100%."),
        1.0,
        scale=100,
    ),
    *_pricing_fields(T),
    FieldSpec(
        I,
        "accelerator_seconds_per_request",
        _("Accelerator-seconds per request"),
        _(
            "Accelerator time one answer takes; the worked example of the UN Learn AI glossary "
            "uses about 2 s."
        ),
        methods=("accelerator_seconds",),
    ),
    _tokens_field(
        "parameters",
        _("Model size (active parameters)"),
        _("Parameters used for each token; 7e9 for a 7B model."),
    ),
    _tokens_field(
        "input_tokens",
        _("Input tokens per request"),
        _("Prompt length; a page of text is about 500 tokens."),
    ),
    _tokens_field(
        "cached_input_tokens",
        _("Cached input tokens per request"),
        _(
            "The part of the input served from a cache, such as instructions repeated in every "
            "request: an API bills it at its cached rate; your own server skips reading it again "
            "but keeps it in memory. At most the input tokens; leave empty for none."
        ),
    ),
    _tokens_field(
        "output_tokens",
        _("Output tokens per request"),
        _("Answer length; a paragraph is about 100–200 tokens."),
    ),
    _tokens_field(
        "reasoning_tokens",
        _("Reasoning tokens per request"),
        _(
            "Hidden thinking a reasoning model writes before its answer, billed and computed "
            "as output; often 2–10 times the answer, 0 for other models. Leave empty for none."
        ),
    ),
    _tokens_field(
        "utilization",
        _("Serving efficiency (%)"),
        _("Share of peak speed achieved while serving; typical 20–50%."),
        0.3,
        scale=100,
    ),
    _tokens_field(
        "total_parameters",
        _("All parameters held in memory"),
        _(
            "A mixture of experts holds every expert but runs a few; leave empty for a "
            "dense model (the same as the active parameters)."
        ),
    ),
    _tokens_field(
        "layers",
        _("Layers"),
        _("Transformer layers, from the model's config; 32 for Llama 3.1 8B."),
        integer=True,
    ),
    _tokens_field(
        "kv_heads",
        _("Key/value heads"),
        _("8 for Llama 3 (grouped-query attention); as many as the query heads without."),
        integer=True,
    ),
    _tokens_field(
        "head_dim",
        _("Head dimension"),
        _("Width of one attention head; usually 128."),
        integer=True,
    ),
    _tokens_field(
        "query_heads",
        _("Query heads"),
        _("Attention heads, from the model's config; 32 for Llama 3.1 8B."),
        integer=True,
    ),
    _tokens_field(
        "hidden_size",
        _("Hidden size"),
        _("Width of the model, from its config; 4096 for Llama 3.1 8B."),
        integer=True,
    ),
    _tokens_field(
        "kv_latent_width",
        _("Latent KV width"),
        _(
            "Only for latent attention (DeepSeek): cache width per layer, latent plus "
            "rotary part; 576 for DeepSeek-V3. Leave empty otherwise."
        ),
        integer=True,
    ),
    _tokens_field(
        "experts_total",
        _("Experts in total"),
        _("Only for a mixture of experts: routed experts per layer; 256 for DeepSeek-V3."),
        integer=True,
    ),
    _tokens_field(
        "experts_active",
        _("Active experts per token"),
        _("Only for a mixture of experts: routed experts each token uses; 8 for DeepSeek-V3."),
        integer=True,
    ),
    _tokens_field(
        "sliding_window",
        _("Sliding window (tokens)"),
        _("Only when some layers keep just the last tokens; 4096 for Gemma 2."),
        integer=True,
    ),
    _tokens_field(
        "sliding_window_layers",
        _("Layers with a sliding window"),
        _("How many of the layers keep only the window; 21 of 42 for Gemma 2 9B."),
        integer=True,
    ),
    _tokens_field(
        "kv_cache_bytes_per_token",
        _("KV cache per token (bytes)"),
        _("Leave empty to work it out from the layers, heads and head dimension."),
    ),
    _tokens_field(
        "kv_cache_bytes_per_element",
        _("KV cache bytes per number"),
        _("2 for a BF16 cache (the default, whatever the number format), 1 for FP8."),
        2,
    ),
    _tokens_field(
        "bytes_per_parameter",
        _("Bytes per weight"),
        _("Leave empty to follow the number format; 0.5 for 4-bit weights."),
    ),
    _tokens_field(
        "accelerators_per_replica",
        _("Accelerators per copy of the model"),
        _(
            "Leave empty to let the planner choose: the size that needs the fewest "
            "accelerators at peak while meeting the latency targets."
        ),
        integer=True,
    ),
    _tokens_field(
        "ttft_target_seconds",
        _("Target time to first token (s)"),
        _("How long a user may wait for the answer to start; e.g. 1 s. Optional."),
    ),
    _tokens_field(
        "tpot_target_seconds",
        _("Target time per output token (s)"),
        _("0.05 s is 20 tokens a second, faster than people read. Optional."),
    ),
    _tokens_field(
        "memory_utilization",
        _("Usable share of accelerator memory (%)"),
        _("What the serving software may fill; typical 85–95%."),
        0.9,
        scale=100.0,
    ),
    _tokens_field(
        "memory_efficiency",
        _("Memory bandwidth achieved (%)"),
        _("Share of the accelerator's memory speed reached; typical 55–80%."),
        0.7,
        scale=100.0,
    ),
    FieldSpec(
        I,
        "latency_seconds",
        _("Latency per request (s)"),
        _("Leave empty to estimate it from the hardware."),
    ),
    FieldSpec(
        I,
        "requests_per_month",
        _("Requests in the first month"),
        _("e.g. 15,000 for a pilot, 300,000 for wider use."),
        15_000,
    ),
    FieldSpec(
        I,
        "monthly_growth",
        _("Growth per month (%)"),
        # xgettext:no-python-format
        _("Compound; 0 for steady use, 5–10% for a growing service."),
        0.0,
        scale=100,
    ),
    FieldSpec(
        I,
        "months",
        _("Planning horizon (months)"),
        _("1 to 240; a workplan year is 12."),
        12,
        integer=True,
    ),
    FieldSpec(
        I,
        "peak_to_average",
        _("Peak-to-average ratio"),
        _("Busiest hour against the average; 2–4 for office hours."),
        1,
    ),
    FieldSpec(
        I,
        "target_utilization",
        _("Planned busy share of each accelerator (%)"),
        _("Headroom for queues; typical 60–80%."),
        0.7,
        scale=100,
    ),
    *_pricing_fields(I),
    FieldSpec(
        I,
        "upfront_share",
        _("Share of each term paid upfront (%)"),
        _(
            "Only when committed: 0% pays each term monthly, 100% all at its start; providers "
            "take more off for more upfront."
        ),
        0.0,
        scale=100,
    ),
    FieldSpec(
        I,
        "commitment_discount",
        _("Commitment discount against on demand (%)"),
        _(
            "Only when committed: the share your offer takes off the price per "
            "accelerator-hour. Empty: the provider's published discount for the term and "
            "payment, else the median of the providers' in the catalogue."
        ),
        scale=100,
    ),
    FieldSpec(
        I,
        "committed_accelerators",
        _("Accelerators committed"),
        _(
            "Only when committed; empty: what the peak needs. Busy hours beyond what they "
            "serve are paid on demand."
        ),
        integer=True,
    ),
    FieldSpec(
        I,
        "revenue_per_request",
        _("Revenue per request (USD)"),
        _("Optional; gives the gross margin."),
    ),
)
TRAINING_METHODS = (
    ("accelerator_hours", _("I know the accelerator-hours")),
    ("parameters_tokens", _("From model size and training tokens (6·N·D)")),
    ("total_flop", _("I know the total FLOP")),
)
INFERENCE_METHODS = (
    ("accelerator_seconds", _("I know the accelerator-seconds per request")),
    ("tokens", _("From model size and tokens per request")),
)
PRICING_MODES = (
    ("rent", _("Rent (cloud, per accelerator-hour)")),
    ("own", _("Own (buy and write off)")),
)
PROVISIONING = (
    ("pay_per_use", _("Pay per use (only busy hours)")),
    ("always_on", _("Always on (enough accelerators for the peak, all month)")),
    ("committed", _("Committed for a term (rented for 1 or 3 years at a discount)")),
)
# The inputs of capacity rented on commitment, read only when provisioning is "committed".
COMMITMENT_NUMBERS = ("upfront_share", "commitment_discount", "committed_accelerators")
COMMITMENT_YEARS = (("1", _("1 year")), ("3", _("3 years")))
COMMITMENT_PROVIDERS = (
    ("", _("None: the median of the providers' discounts")),
    ("aws", "AWS"),
    ("google-cloud", "Google Cloud"),
    ("azure", "Azure"),
)
SECTION_TITLES = {"training": _("Training (one-off)"), "inference": _("Inference (every request)")}
