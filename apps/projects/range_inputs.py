"""The scenario form's ranges: a Low–High pair beside each number, typical ranges, result lines."""

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django import forms
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy

from apps.apiprices.resolve import PRICE_FIELDS
from apps.apiprices.selectors import price_in_force
from apps.catalogue.uncertainty import (
    MAX_SAMPLES,
    MAX_SEED,
    MIN_SAMPLES,
    RANGE_PATHS,
    RangesError,
    uncertainty_from_request,
)
from apps.estimates.uncertainty import FigureRange, UncertaintyResult
from apps.estimates.uncertainty_draws import range_errors
from apps.projects.api_methods import API_NUMBER_FIELDS, read_by_api_method
from apps.projects.range_disclosure import disclosure
from apps.projects.scenario_fields import NUMBER_FIELDS, FieldSpec
from apps.words import formatting
from apps.words.messages import error_texts
from apps.words.templatetags.figures import figure_html

RANGED = tuple(
    spec
    for spec in (*NUMBER_FIELDS, *API_NUMBER_FIELDS)
    if f"{spec.section}.{spec.name}" in RANGE_PATHS
)


@dataclass(frozen=True)
class Prior:
    """A typical 90 % range: `low` and `high` times the value typed, or fixed ends."""

    low: float
    high: float
    relative: bool
    source: str  # what the range is and whose prior it is


# Epoch AI's priors for training-cost estimates, as the design note on ranges records them.
COMPUTE = Prior(
    1 / 3,
    3.0,
    True,
    gettext_lazy("Typical: ×1/3 to ×3 of the value typed (Epoch AI's prior for training compute)."),
)
PRICE = Prior(
    0.5,
    2.0,
    True,
    gettext_lazy("Typical: ×0.5 to ×2 of the price typed (Epoch AI's prior for hardware prices)."),
)
# No prior for API token prices is recorded in the design note: Epoch AI's for hardware prices
# is the nearest, and says so. Token counts and the batch discount have none: no typical range.
API_PRICE = Prior(
    0.5,
    2.0,
    True,
    gettext_lazy(
        "Typical: ×0.5 to ×2 of the price typed, or of the catalogue's price of the API model "
        "(Epoch AI's prior for hardware prices, applied here to API prices)."
    ),
)
UTILISATION = Prior(
    0.1, 0.65, False, gettext_lazy("Typical: 10 % to 65 % (Epoch AI's prior for utilisation).")
)
PRIORS = {
    "training_accelerator_hours": COMPUTE,
    "training_tokens": COMPUTE,
    "training_total_flop": COMPUTE,
    "training_mfu": UTILISATION,
    "inference_utilization": UTILISATION,
    **{f"{section}_{name}": PRICE for section in ("training", "inference")
       for name in ("price_per_accelerator_hour", "purchase_price")},
    **{f"inference_{name}": API_PRICE for name in PRICE_FIELDS},
    "training_price_per_million_training_tokens": API_PRICE,
}  # fmt: skip


def low_name(field_name: str) -> str:
    return f"{field_name}_low"


def high_name(field_name: str) -> str:
    return f"{field_name}_high"


def add_range_fields(form: forms.Form, number_field: type[forms.Field]) -> None:
    """A Low and a High beside every number a range may be given for, and the hidden seed."""
    for spec in RANGED:
        if spec.field_name not in form.fields:
            continue
        for name, end in ((low_name, gettext_lazy("low")), (high_name, gettext_lazy("high"))):
            form.fields[name(spec.field_name)] = number_field(
                # Lazily: the live preview validates these fields without drawing them.
                label=format_lazy("{}: {}", spec.label, end),
                scale=spec.scale,
                integer=spec.integer,
            )
    form.fields["uncertainty_seed"] = forms.IntegerField(
        widget=forms.HiddenInput, required=False, min_value=0, max_value=MAX_SEED
    )
    form.fields["uncertainty_samples"] = forms.IntegerField(
        widget=forms.HiddenInput, required=False, min_value=MIN_SAMPLES, max_value=MAX_SAMPLES
    )


def range_pair(form: forms.Form, field_name: str) -> dict | None:
    """The bound Low and High of a number, whether it has a typical range, and its disclosure
    (open or not, and its summary), for the template."""
    if low_name(field_name) not in form.fields:
        return None
    low, high = form[low_name(field_name)], form[high_name(field_name)]
    return {
        "low": low,
        "high": high,
        "typical": PRIORS.get(field_name),
        "disclosure": disclosure(form[field_name], low, high),
    }


def range_initial(request: dict) -> dict:
    """The form's initial Low, High and seed for a stored request."""
    initial = {}
    for path, interval in (request.get("ranges") or {}).items():
        field_name = path.replace(".", "_")
        initial[low_name(field_name)] = interval["low"]
        initial[high_name(field_name)] = interval["high"]
    settings = request.get("uncertainty") or {}
    initial["uncertainty_seed"] = settings.get("seed")
    initial["uncertainty_samples"] = settings.get("samples")
    return {key: value for key, value in initial.items() if value is not None}


def _used(spec: FieldSpec, request: dict) -> bool:
    section = request.get(spec.section)
    if not section:
        return False
    method = section.get("method")
    by_api = read_by_api_method(spec, method)
    if by_api is not None:
        return by_api
    return not spec.methods or method in spec.methods


def collect_ranges(data: dict, request: dict) -> tuple[dict, dict[str, list[str]]]:
    """The request with the form's ranges (and seed) from cleaned `data`, and the errors of
    ranges given by half or out of bounds, by their Low field; those ranges are left out."""
    ranges, errors = {}, {}
    for spec in RANGED:
        if not _used(spec, request):
            continue
        low, high = data.get(low_name(spec.field_name)), data.get(high_name(spec.field_name))
        if low is None and high is None:
            continue
        problems = (
            [gettext("Give both ends, or neither.")]
            if low is None or high is None
            else range_errors(spec.name, low, high)
        )
        if problems:
            errors[low_name(spec.field_name)] = problems
        else:
            ranges[f"{spec.section}.{spec.name}"] = {"low": low, "high": high}
    if not ranges:
        return request, errors
    settings = {
        key: data[f"uncertainty_{key}"]
        for key in ("samples", "seed")
        if data.get(f"uncertainty_{key}") is not None
    }
    return {**request, "ranges": ranges, **({"uncertainty": settings} if settings else {})}, errors


def uncertainty_for(form: forms.Form, request: dict, catalogue) -> UncertaintyResult | None:
    """Percentiles for the form's request, errors on the Low field of the range at fault."""
    try:
        return uncertainty_from_request(
            request, catalogue, fan=True, exchange=getattr(form, "exchange", None)
        )
    except RangesError as error:
        for path, messages in error_texts(error.errors).items():
            field = low_name(path.replace(".", "_"))
            for message in messages:
                form.add_error(field if field in form.fields else None, message)
        return None


def _listed_price(data, field_name: str) -> float | None:
    """For an API price left empty, the price catalogue's price in force today of the API model
    the form names (the price the estimate uses then); else None."""
    attribute = PRICE_FIELDS.get(field_name.removeprefix("inference_"))
    slug = (data.get("inference_api_model") or "").strip()
    if attribute is None or not field_name.startswith("inference_") or not slug:
        return None
    row = price_in_force(slug, datetime.date.today())
    tier = data.get("inference_api_price_tier") or "standard"
    chosen = None if row is None else row.tier_price(tier)
    price = None if chosen is None else getattr(chosen, attribute)
    return None if price is None else float(price)


def with_typical_range(form: forms.Form, field_name: str) -> tuple[dict, str | None]:
    """The bound form's data with the typical range of `field_name` filled in; or its data as it
    is and why there is none, for an error beside the field."""
    prior = PRIORS.get(field_name)
    if prior is None:
        return form.data, gettext("This input has no typical range.")
    field = form.fields[field_name]
    low, high = prior.low, prior.high
    if prior.relative:
        try:
            value = field.clean(form.data.get(field_name, ""))
        except forms.ValidationError:
            value = None
        if not value:
            value = _listed_price(form.data, field_name)
        if not value:
            return form.data, gettext("Type a value first: the typical range is a multiple of it.")
        low, high = value * low, value * high
    data = form.data.copy()
    data[low_name(field_name)] = field.prepare_value(low)
    data[high_name(field_name)] = field.prepare_value(high)
    return data, None


# Result lines: "central estimate X (9 in 10 chance between A and B)", two significant figures.

SIGNIFICANT = 2
LINES = (
    ("training.accelerator_hours", gettext_lazy("Training accelerator-hours"), "hours"),
    ("training.cost", gettext_lazy("Training cost"), "money"),
    ("inference.total.accelerator_hours", gettext_lazy("Inference accelerator-hours"), "hours"),
    ("inference.total.cost", gettext_lazy("Inference cost over the horizon"), "money"),
    ("inference.peak_accelerators", gettext_lazy("Accelerators needed at peak"), "count"),
    ("comparison.total_cost", gettext_lazy("Training plus inference cost"), "money"),
    ("comparison.break_even_months", gettext_lazy("Break-even"), "months"),
)


def _two_figures(value: float | Decimal | None) -> float | None:
    if value is None:
        return None
    return float(f"{float(value):.{SIGNIFICANT - 1}e}")


def format_two_figures(
    kind: str, value: float | Decimal | None, currency: str
) -> formatting.Figure:
    """A figure of the ranges' lines ("money", "hours", "count", "months"), two significant
    figures."""
    rounded = _two_figures(value)
    if kind == "money":
        return formatting.money(rounded, currency)
    if kind == "hours":
        return formatting.hours(rounded)
    if kind == "count":
        return formatting.count(rounded, "accelerators")
    return formatting.months(rounded, missing=gettext("no break-even within the horizon"))


@dataclass(frozen=True)
class RangeLine:
    label: str
    sentence: SafeString  # "central estimate X (9 in 10 chance between A and B)", as HTML
    path: str = ""  # the figure's response path ("training.cost")


def _sentence(central, low, high, never: float | None) -> SafeString:
    html = {
        key: figure_html(value)
        for key, value in (("central", central), ("low", low), ("high", high))
    }
    share = None if never is None else figure_html(formatting.percent(never))
    if high.available and low.text == high.text:
        text = format_html(
            gettext("central estimate {central}, the same in 9 in 10 samples"), **html
        )
    elif high.available:
        text = format_html(
            gettext("central estimate {central} (9 in 10 chance between {low} and {high})"), **html
        )
    elif central.available:
        # Beyond the 95th percentile lies "never": only the 5th percentile bounds the range.
        text = format_html(
            gettext("central estimate {central} (19 in 20 chance not before {low})"), **html
        )
    elif low.available:
        text = format_html(gettext("19 in 20 chance not before {low}"), **html)
    else:
        text = SafeString("")
    if never:
        never_text = format_html(
            gettext("{share} of the samples never break even within the horizon"), share=share
        )
        text = format_html("{}; {}", text, never_text) if text else never_text
    return text


def range_lines(
    result: UncertaintyResult | None, currency: str = "USD", figures=LINES
) -> list[RangeLine]:
    """The headline figures' P50 with their P5 and P95, rounded to two significant figures:
    the estimate's (`LINES`), or the (path, label, kind) of `figures` (the budget's)."""
    if result is None:
        return []
    lines = []
    for path, label, kind in figures:
        figure: FigureRange | None = result.figures.get(path)
        if figure is None:
            continue
        lines.append(RangeLine(str(label), range_sentence(kind, figure, currency), path))
    return lines


def range_sentence(kind: str, figure: FigureRange, currency: str = "USD") -> SafeString:
    """One figure's "central estimate X (9 in 10 chance between A and B)", as HTML, to two
    significant figures (`kind` as format_two_figures takes it)."""
    central, low, high = (
        format_two_figures(kind, value, currency) for value in (figure.p50, figure.p5, figure.p95)
    )
    return _sentence(central, low, high, figure.probability_never)


def range_notes(result: UncertaintyResult | None) -> list[str]:
    """What the page says about the samples: inputs clipped to their valid values (with the
    share of samples), and prices sampled once for training and inference."""
    if result is None:
        return []
    labels = {f"{spec.section}.{spec.name}": spec.label for spec in RANGED}
    notes = [
        gettext(
            "%(input)s: %(share)s of its samples fell outside the values it can take and were "
            "set to the nearest valid value."
        )
        % {"input": labels.get(path, path), "share": formatting.percent(share).text}
        for path, share in result.clipped.items()
    ]
    notes += [
        gettext("%(input)s: one sample serves training and inference, the same price for both.")
        % {"input": labels.get(paths[0], paths[0])}
        for paths in result.shared
    ]
    return notes
