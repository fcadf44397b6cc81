"""The decision view kept with each saved version, and what a page or an export shows of it.

A saved version keeps the options compared when it was saved (`options_record`, a record of
apps.estimates.kept.KeptOptions), never compared again, so that share links show them as they
were. The decision page (from a comparison made now, through `kept_options`), share links and
exports read such objects through the same functions here, worded in the reader's language.
"""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext

from apps.apiprices.models import PriceTier
from apps.estimates import EstimateInputError
from apps.estimates.kept import KeptEstimate, KeptOptions
from apps.estimates.options import ApiPricing, OptionFootprint
from apps.estimates.record import dump, load
from apps.estimates.results import CommitmentResult
from apps.options.forms import FLAG_LABELS, option_label
from apps.options.presentation import condition_sentence, volume
from apps.options.ranges import option_ranges_context
from apps.options.services import kept_options, scenario_options_compare
from apps.words import formatting


def version_part(scenario, kept: KeptEstimate) -> dict:
    """What a version keeps of the decision view (apps.projects.versions): the options compared
    when it was saved (each an estimate of its own: none is the scenario's, `kept`)."""
    return {"options": options_record(scenario)}


def options_record(scenario) -> dict | None:
    """The scenario's options compared now, as a record; None when they cannot be (no
    inference to serve, or inputs that no longer estimate)."""
    compared = scenario_kept_options(scenario)
    return None if compared is None else dump(compared)


def scenario_kept_options(scenario) -> KeptOptions | None:
    """The scenario's options compared now with the default choices, in its project's
    currency; None when they cannot be (see `options_record`)."""
    if not (scenario.inputs or {}).get("inference"):
        return None
    try:
        compared = scenario_options_compare(scenario, None, today=timezone.localdate())
    except (EstimateInputError, ValueError):
        return None
    return kept_options(compared, scenario.project.currency)


def version_options(version) -> KeptOptions | None:
    """The options kept with a saved version (None for versions saved before they were)."""
    record = (version.budget or {}).get("options")
    return None if record is None else load(record, KeptOptions)


@dataclass(frozen=True)
class OptionRow:
    """One option as the options table draws it (templates/options/includes/
    options_table.html) and the exports list it."""

    key: str
    label: str
    one_off: Decimal
    capex: Decimal
    opex: list[tuple[str, Decimal]]
    total: Decimal
    npv: Decimal
    cost_per_request: Decimal | None
    cost_per_1000: Decimal | None
    cost_per_million_output_tokens: Decimal | None
    accelerators: int | None
    staff_fte: float | None
    staff_cost: Decimal | None
    flags: list[str]
    cheapest: bool
    api_price: "ApiPriceWords | None" = None  # an external API costed at the catalogue's prices
    commitment: CommitmentResult | None = None  # the option committed for a term
    footprint: OptionFootprint | None = None  # None: kept before the footprint was compared


@dataclass(frozen=True)
class ApiPriceWords:
    """Which catalogue price an external API option is costed at, for people: the model, the
    price tier in the reader's language, since when that price is in force and when it was
    checked."""

    api_model: str
    tier: str  # the request's value: standard, off_peak, long_prompt
    tier_label: str
    valid_from: date | None
    as_of: date


def _api_price(pricing: ApiPricing | None) -> ApiPriceWords | None:
    if pricing is None:  # records kept before the tier was recorded, and other options
        return None
    return ApiPriceWords(
        api_model=pricing.api_model,
        tier=pricing.tier,
        tier_label=str(PriceTier(pricing.tier).label),
        valid_from=pricing.valid_from,
        as_of=pricing.as_of,
    )


def fiscal_year_labels(kept: KeptOptions) -> list[str]:
    return [year.label for year in kept.comparison.fiscal_years]


def option_rows(kept: KeptOptions) -> list[OptionRow]:
    """The options compared, labels and flags in the reader's language."""
    years = fiscal_year_labels(kept)
    return [
        OptionRow(
            key=option.key,
            label=option_label(option.key),
            one_off=option.one_off,
            capex=option.capex,
            opex=list(zip(years, option.opex, strict=True)),
            total=option.total,
            npv=option.npv,
            cost_per_request=option.cost_per_request,
            cost_per_1000=(
                None if option.cost_per_request is None else option.cost_per_request * 1000
            ),
            cost_per_million_output_tokens=option.cost_per_million_output_tokens,
            accelerators=option.accelerators,
            staff_fte=option.staff_fte,
            staff_cost=option.staff_cost,
            flags=[str(FLAG_LABELS.get(flag, flag)) for flag in option.flags],
            cheapest=option.key == kept.comparison.cheapest,
            api_price=_api_price(kept.api_prices.get(option.key)),
            commitment=option.commitment,
            footprint=option.footprint,
        )
        for option in kept.comparison.options
    ]


def commitment_sentences(kept: KeptOptions) -> list[str]:
    """Where the option committed for a term beats paying per use and always on, in words
    (none without it, and for records kept before commitments)."""
    crossover = kept.comparison.commitment
    if crossover is None:
        return []
    share = crossover.busy_share_over_pay_per_use
    words = {
        "label": option_label("rent_committed"),
        "per_use": option_label("rent_pay_per_use"),
        "always_on": option_label("rent_always_on"),
        "discount": formatting.percent(crossover.discount).text,
    }
    per_use = (
        gettext(
            "“%(label)s”, at %(discount)s off, costs less than “%(per_use)s” on the same "
            "accelerators when they are busy more than %(share)s of the committed hours."
        )
        % {**words, "share": formatting.percent(share).text}
        if share <= 1
        else gettext(
            "“%(label)s”, at %(discount)s off, never costs less than “%(per_use)s” on the same "
            "accelerators: it pays for more months than the service uses."
        )
        % words
    )
    always_on = gettext(
        "“%(label)s” costs less than “%(always_on)s” on the same accelerators when the "
        "service runs more than %(months)s of each %(term)s term."
    ) % {
        **words,
        "months": formatting.months(crossover.service_months_over_always_on).text,
        "term": formatting.months(crossover.term_months).text,
    }
    return [per_use, always_on]


def crossover_sentences(kept: KeptOptions) -> list[str]:
    """Each crossover in words, in the reader's language, then where the option committed for
    a term beats paying per use and always on."""
    sentences = []
    for crossover in kept.comparison.crossovers:
        fixed, per_use = (option_label(key) for key in crossover.options)
        requests = crossover.requests_per_month
        if requests:
            sentences.append(
                gettext("“%(fixed)s” and “%(per_use)s” cost the same at %(volume)s a month.")
                % {"fixed": fixed, "per_use": per_use, "volume": volume(requests)}
            )
        else:
            sentences.append(
                gettext(
                    "“%(fixed)s” never costs less than “%(per_use)s”, which costs nothing per "
                    "request."
                )
                % {"fixed": fixed, "per_use": per_use}
            )
    return [*sentences, *commitment_sentences(kept)]


def frozen_options_context(kept: KeptOptions | None) -> dict:
    """What the frozen decision view partial draws (options/includes/frozen_options.html),
    with the options' ranges when they were compared with some."""
    if kept is None:
        return {"frozen_options": None}
    return {
        "frozen_options": {
            "currency": kept.currency,
            # As the options API writes them (ISO 8601), as share links have always shown them.
            "period_start": kept.period_start.isoformat(),
            "period_end": kept.period_end.isoformat(),
            "discount_rate": kept.discount_rate,
            "rows": option_rows(kept),
            "cheapest": option_label(kept.comparison.cheapest),
            "condition": condition_sentence(kept.comparison.condition),
            "crossovers": crossover_sentences(kept),
            "years": fiscal_year_labels(kept),
            "ranges": option_ranges_context(kept)["option_ranges"],
        }
    }
