"""External model APIs priced per token, and fine-tuning through a vendor's API (no accelerators).

Inference through an external API costs, per request,
    ((input − cached input) · input price + cached input · cached price
     + (output + reasoning) · output price) ÷ 1,000,000 · (1 − batch discount),
prices being per million tokens: a reasoning model's hidden reasoning tokens are billed as output.
Cache writes, which some providers bill apart, are not included. The organisation runs no
accelerators, so accelerator-hours, capacity and energy are not published (NaN, None at the edge).

Fine-tuning through an API costs training tokens · epochs · price per million training tokens
÷ 1,000,000, a price the user gives (the API price catalogues do not list it).

Every formula works on floats and NumPy arrays alike.
"""

from apps.estimates.formulas import Quantity
from apps.estimates.inputs import InferenceInput, TrainingInput
from apps.estimates.messages import Message, _, g6, number

EXTERNAL_API = "external_api"
API_FINE_TUNE = "api_fine_tune"
TOKENS_PER_MILLION = 1e6
# The numbers of its section each API method reads (it ignores the rest of the section): those
# it shares with the section's other methods, and its own, which no other method reads.
SHARED_INFERENCE_NUMBERS = (
    "input_tokens",
    "output_tokens",
    "reasoning_tokens",
    "cached_input_tokens",
    "latency_seconds",
    "requests_per_month",
    "monthly_growth",
    "months",
    "peak_to_average",
    "revenue_per_request",
)
EXTERNAL_API_OWN_NUMBERS = (
    "price_per_million_input_tokens",
    "price_per_million_cached_input_tokens",
    "price_per_million_output_tokens",
    "batch_discount",
)
FINE_TUNE_OWN_NUMBERS = ("epochs", "price_per_million_training_tokens")
EXTERNAL_API_NUMBERS = (*SHARED_INFERENCE_NUMBERS, *EXTERNAL_API_OWN_NUMBERS)
API_FINE_TUNE_NUMBERS = ("tokens", *FINE_TUNE_OWN_NUMBERS)
SHARED_NUMBERS = frozenset((*SHARED_INFERENCE_NUMBERS, "tokens"))
API_ONLY_NUMBERS = frozenset((*EXTERNAL_API_OWN_NUMBERS, *FINE_TUNE_OWN_NUMBERS))


def api_cost_per_request(
    input_tokens: Quantity,
    cached_input_tokens: Quantity,
    output_tokens: Quantity,
    reasoning_tokens: Quantity,
    price_per_million_input_tokens: Quantity,
    price_per_million_cached_input_tokens: Quantity,
    price_per_million_output_tokens: Quantity,
    batch_discount: Quantity,
) -> Quantity:
    """Cost of one request to an external API, in the prices' currency (see the module)."""
    undiscounted = (
        (input_tokens - cached_input_tokens) * price_per_million_input_tokens
        + cached_input_tokens * price_per_million_cached_input_tokens
        + (output_tokens + reasoning_tokens) * price_per_million_output_tokens
    ) / TOKENS_PER_MILLION
    return undiscounted * (1.0 - batch_discount)


def api_cost_of_requests(requests: Quantity, cost_per_request: Quantity) -> Quantity:
    """Cost of a number of requests to an external API: requests · cost per request."""
    return requests * cost_per_request


def fine_tune_cost(
    training_tokens: Quantity, epochs: Quantity, price_per_million_training_tokens: Quantity
) -> Quantity:
    """Cost of fine-tuning through a vendor's API = tokens · epochs · price ÷ 1,000,000."""
    return training_tokens * epochs * price_per_million_training_tokens / TOKENS_PER_MILLION


def cached_price(inference: InferenceInput) -> Quantity:
    """The cached-input price; the input price where no cached price is given."""
    if inference.price_per_million_cached_input_tokens is None:
        return inference.price_per_million_input_tokens
    return inference.price_per_million_cached_input_tokens


def inference_assumptions(inference: InferenceInput) -> tuple[Message, ...]:
    prices = {
        "input": g6(inference.price_per_million_input_tokens),
        "cached": g6(cached_price(inference)),
        "output": g6(inference.price_per_million_output_tokens),
    }
    notes = [
        _(
            "Cost per request = ((input − cached input) tokens × input price + cached input "
            "tokens × cached price + (output + reasoning) tokens × output price) ÷ 1,000,000 × "
            "(1 − batch discount %(discount)s).",
            discount=g6(inference.batch_discount),
        )
        if inference.batch_discount
        else _(
            "Cost per request = ((input − cached input) tokens × input price + cached input "
            "tokens × cached price + (output + reasoning) tokens × output price) ÷ 1,000,000."
        ),
        _(
            "Prices per million tokens: input %(input)s, cached input %(cached)s, output "
            "%(output)s.",
            **prices,
        ),
        _(
            "Per request: %(output)s output tokens and %(reasoning)s reasoning tokens, both "
            "billed as output; cache writes are not included.",
            output=g6(inference.output_tokens),
            reasoning=g6(inference.reasoning_tokens),
        ),
    ]
    if inference.price_per_million_cached_input_tokens is None:
        notes.append(_("No cached-input price: cached input is billed at the input price."))
    notes.append(
        _(
            "Demand: %(requests)s requests in month 1, growing %(growth)s a month, over "
            "%(months)s months.",
            requests=g6(inference.requests_per_month),
            growth=number(inference.monthly_growth, "signed_percent"),
            months=int(inference.months),
        )
    )
    notes.append(
        _(
            "No accelerators of your own: accelerator-hours, capacity and energy are not "
            "published by API providers."
        )
    )
    return tuple(notes)


def fine_tune_assumptions(training: TrainingInput) -> tuple[Message, ...]:
    return (
        _(
            "Fine-tuning through a vendor's API: %(tokens)s training tokens × %(epochs)s "
            "epoch(s) × %(price)s per million training tokens.",
            tokens=g6(training.tokens),
            epochs=g6(training.epochs),
            price=g6(training.price_per_million_training_tokens),
        ),
        _("FLOP, accelerator-hours and energy are not published by the vendor."),
    )
