"""The decision view kept as data: the options response of a scenario (as GET
/api/v1/scenarios/{id}/options/ answers it), stored with each saved version so that share links
show it as it was, and drawn for exports; and what a page or an export shows of such a record.
"""

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext

from apps.apiprices.models import PriceTier
from apps.estimates import EstimateInputError
from apps.estimates.options import Condition
from apps.options.forms import FLAG_LABELS, option_label
from apps.options.presentation import condition_sentence, volume
from apps.options.ranges import option_ranges_context
from apps.options.representation import options_representation
from apps.options.services import scenario_options_compare
from apps.words import formatting


def version_part(scenario) -> dict:
    """What a version keeps of the decision view (apps.projects.versions): the options compared
    when it was saved."""
    return {"options": options_record(scenario)}


def options_record(scenario) -> dict | None:
    """The scenario's options compared now, as the options API answers them; None when they
    cannot be (no inference to serve, or inputs that no longer estimate)."""
    if not (scenario.inputs or {}).get("inference"):
        return None
    try:
        compared = scenario_options_compare(scenario, None, today=timezone.localdate())
    except (EstimateInputError, ValueError):
        return None
    return options_representation(compared, scenario.project.currency)


def version_options(version) -> dict | None:
    """The options record kept with a saved version (None for versions saved before)."""
    return (version.budget or {}).get("options")


@dataclass(frozen=True)
class OptionRow:
    """One option of a record as the options table draws it (templates/options/includes/
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
    commitment: "CommitmentWords | None" = None  # the option committed for a term


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


@dataclass(frozen=True)
class CommitmentWords:
    """The terms of the option committed for a term, and what of it is left idle."""

    term_months: int
    discount: float
    upfront_share: float
    idle_cost: Decimal
    months_after_horizon: int


def _commitment(commitment: dict | None) -> CommitmentWords | None:
    if not commitment:  # records kept before commitments, and the other options
        return None
    return CommitmentWords(
        term_months=commitment["term_months"],
        discount=commitment["discount"],
        upfront_share=commitment["upfront_share"],
        idle_cost=Decimal(commitment["idle_cost"]),
        months_after_horizon=commitment["months_after_horizon"],
    )


def _api_price(api_price: dict | None) -> ApiPriceWords | None:
    if not api_price:  # records kept before the tier was recorded, and other options
        return None
    valid_from = api_price["valid_from"]
    return ApiPriceWords(
        api_model=api_price["api_model"],
        tier=api_price["tier"],
        tier_label=str(PriceTier(api_price["tier"]).label),
        valid_from=date.fromisoformat(valid_from) if valid_from else None,
        as_of=date.fromisoformat(api_price["as_of"]),
    )


def _decimal(value: str | None) -> Decimal | None:
    return None if value is None else Decimal(value)


def option_rows(record: dict) -> list[OptionRow]:
    """The options of a record, labels and flags in the reader's language."""
    rows = []
    for option in record["options"]:
        per_request = _decimal(option["cost_per_request"])
        staff = option.get("staff") or {}
        rows.append(
            OptionRow(
                key=option["key"],
                label=option_label(option["key"]),
                one_off=Decimal(option["one_off"]),
                capex=Decimal(option["capex"]),
                opex=[(y["fiscal_year"], Decimal(y["amount"])) for y in option["opex"]],
                total=Decimal(option["total"]),
                npv=Decimal(option["npv"]),
                cost_per_request=per_request,
                cost_per_1000=None if per_request is None else per_request * 1000,
                cost_per_million_output_tokens=_decimal(option["cost_per_million_output_tokens"]),
                accelerators=option["accelerators"],
                staff_fte=staff.get("fte"),
                staff_cost=_decimal(staff.get("cost")),
                flags=[str(FLAG_LABELS.get(flag, flag)) for flag in option["flags"]],
                cheapest=option["key"] == record["cheapest"],
                api_price=_api_price(option.get("api_price")),
                commitment=_commitment(option.get("commitment")),
            )
        )
    return rows


def record_condition(record: dict) -> Condition:
    condition = record["condition"]
    return Condition(
        condition["kind"], tuple(condition["options"]), condition["value"], condition["text"]
    )


def commitment_sentences(record: dict) -> list[str]:
    """Where the option committed for a term beats paying per use and always on, in words
    (none without it, and for records kept before commitments)."""
    crossover = record.get("commitment_crossover")
    if not crossover:
        return []
    label = option_label("rent_committed")
    share = crossover["busy_share_over_pay_per_use"]
    words = {
        "label": label,
        "per_use": option_label("rent_pay_per_use"),
        "always_on": option_label("rent_always_on"),
        "discount": formatting.percent(crossover["discount"]).text,
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
        "months": formatting.months(crossover["service_months_over_always_on"]).text,
        "term": formatting.months(crossover["term_months"]).text,
    }
    return [per_use, always_on]


def crossover_sentences(record: dict) -> list[str]:
    """Each crossover of a record in words, in the reader's language, then where the option
    committed for a term beats paying per use and always on."""
    sentences = []
    for crossover in record["crossovers"]:
        fixed, per_use = (option_label(key) for key in crossover["options"])
        requests = crossover["requests_per_month"]
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
    return [*sentences, *commitment_sentences(record)]


def frozen_options_context(record: dict | None) -> dict:
    """What the frozen decision view partial draws (options/includes/frozen_options.html),
    with the options' ranges when the record has them."""
    if not record:
        return {"frozen_options": None}
    return {
        "frozen_options": {
            "record": record,
            "rows": option_rows(record),
            "cheapest": option_label(record["cheapest"]),
            "condition": condition_sentence(record_condition(record)),
            "crossovers": crossover_sentences(record),
            "years": record["fiscal_years"],
            "ranges": option_ranges_context(record)["option_ranges"],
        }
    }
