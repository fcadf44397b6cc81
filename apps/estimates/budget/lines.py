"""Cost lines of a budget: what people enter, and each line as cash per calendar month."""

import math
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from apps.estimates.budget.fiscal import month_index, month_start
from apps.estimates.messages import Message, _
from apps.estimates.money import to_money

USER_KINDS = (
    "staff",
    "storage",
    "network",
    "licence",
    "data",
    "evaluation",
    "support",
    "colocation",
    "other",
)
COMPUTED_KINDS = ("training_compute", "inference_compute", "hardware_purchase", "hardware_power")
# The order of the budget table's rows: computed lines first, then the lines people add.
KINDS = COMPUTED_KINDS + USER_KINDS
RECURRENCES = ("one_off", "monthly", "yearly")
BUDGET_CLASSES = ("capex", "opex")
# The class of a computed line of payments (a commitment's upfront payments) left to the
# capitalisation threshold rule, which `budget` applies with the organisation's threshold.
BY_THRESHOLD = "by_threshold"
# UNDG harmonised budget categories (UN joint programmes).
CATEGORIES = {
    1: "Staff and other personnel",
    2: "Supplies, commodities and materials",
    3: "Equipment, vehicles and furniture (incl. depreciation)",
    4: "Contractual services",
    5: "Travel",
    6: "Transfers and grants to counterparts",
    7: "General operating and other direct costs",
}
# A sensible category for each kind, for line templates; the line's own category always wins.
DEFAULT_CATEGORIES = {
    "training_compute": 4,
    "inference_compute": 4,
    "hardware_purchase": 3,
    "hardware_power": 7,
    "staff": 1,
    "storage": 4,
    "network": 4,
    "licence": 7,
    "data": 4,
    "evaluation": 4,
    "support": 4,
    "colocation": 7,
    "other": 7,
}


def decimal(value: Decimal | float | int) -> Decimal:
    """A number as Decimal; a float goes through its shortest form, so 0.035 is 0.035 exactly."""
    if isinstance(value, Decimal):
        return value
    if isinstance(value, int):
        return Decimal(value)
    return Decimal(repr(float(value)))


@dataclass(frozen=True)
class CostLineInput:
    """A cost line someone adds: quantity × unit price, once, every month or every year.

    quantity: how many units (FTE, TB, licences …), ≥ 0; unit: their name in words ("FTE-month").
    unit_price: currency per unit, ≥ 0, at the prices of the line's start.
    recurrence: "one_off" falls due once, in the month of `start` (`end` must be None);
    "monthly" falls due every month from `start` to `end`; "yearly" in the month of `start` and
    every twelve months after it, up to `end`. A recurring line without `end` runs to the end of
    the planning period. A date in the middle of a month counts as that whole month.
    annual_escalation: growth of the unit price per whole year since `start` (0.03 = 3 % a year):
    the amount of a month k months after the start month is quantity × unit price ×
    (1 + escalation)^(k // 12), so an escalation steps up on each anniversary of the start month.
    budget_class: "capex" or "opex"; None applies the capitalisation threshold rule (see
    `budget_class_of`). category: UNDG harmonised budget category 1–7 (see `CATEGORIES`).
    basis: how the figures were arrived at and their source, in words.
    currency: the ISO 4217 code the unit price is in when not the budget's own (None); the
    budget converts its months at the rate its `Conversion` gives (budget.conversion).
    """

    name: str
    kind: str
    quantity: Decimal | float | int
    unit: str
    unit_price: Decimal | float | int
    recurrence: str
    start: date
    end: date | None = None
    annual_escalation: Decimal | float = 0.0
    budget_class: str | None = None
    category: int = 7
    basis: str = ""
    currency: str | None = None


@dataclass(frozen=True)
class ScheduledLine:
    """A cost line as cash per calendar month, before it is cut into fiscal years.

    monthly: (first day of the month, amount) in date order, each amount rounded to the cent
    once, here: the month is a budget's smallest cash flow, like a bill, so every sum of months
    (a fiscal year, a line total, the run-rate) is exact. Months outside the planning period are
    dropped by `budget`, which says so in its notes.
    """

    name: str
    kind: str
    budget_class: str
    category: int
    basis: str
    monthly: tuple[tuple[date, Decimal], ...]


def line_errors(line: CostLineInput) -> dict[str, list[Message]]:
    """Plain-language problems of a cost line, by field name; empty when it is valid."""
    errors: dict[str, list[Message]] = {}

    def add(field: str, message: Message) -> None:
        errors.setdefault(field, []).append(message)

    if not line.name.strip():
        add("name", _("Give the line a name."))
    if line.kind not in USER_KINDS:
        add("kind", _("Choose a kind: one of %(kinds)s.", kinds=", ".join(USER_KINDS)))
    for field in ("quantity", "unit_price"):
        value = decimal(getattr(line, field))
        if not value.is_finite() or value < 0:
            add(field, _("Enter a finite number of zero or more."))
    if line.recurrence not in RECURRENCES:
        add(
            "recurrence",
            _(
                "Choose how often it falls due: one of %(recurrences)s.",
                recurrences=", ".join(RECURRENCES),
            ),
        )
    elif line.recurrence == "one_off" and line.end is not None:
        add("end", _("A one-off line falls due once, in its start month: leave the end empty."))
    if line.end is not None and month_index(line.end) < month_index(line.start):
        add("end", _("The end must not be before the start."))
    escalation = float(line.annual_escalation)
    if not math.isfinite(escalation) or escalation <= -1:
        add(
            "annual_escalation",
            _("Enter an annual escalation above −100 %%, e.g. 0.03 for 3 %%."),
        )
    if line.budget_class is not None and line.budget_class not in BUDGET_CLASSES:
        add("budget_class", _("Choose capex, opex, or leave it empty for the threshold rule."))
    if type(line.category) is not int or line.category not in CATEGORIES:
        add("category", _("Choose a budget category from 1 to 7."))
    return errors


def budget_class_of(line: CostLineInput, capitalisation_threshold: Decimal) -> str:
    """The line's class: its own `budget_class` when set, else the capitalisation threshold rule.

    The rule: a one-off line whose amount (quantity × unit price) is at or above the threshold
    is capex (an asset bought); every other line, and every recurring line whatever its size, is
    opex (a cost of running).
    """
    if line.budget_class is not None:
        return line.budget_class
    amount = decimal(line.quantity) * decimal(line.unit_price)
    return (
        "capex" if line.recurrence == "one_off" and amount >= capitalisation_threshold else "opex"
    )


def payments_class(line: ScheduledLine, capitalisation_threshold: Decimal) -> str:
    """The class of a computed line of one-off payments (`BY_THRESHOLD`) by the capitalisation
    threshold rule: capex when every payment is at or above the threshold, else opex."""
    paid = [amount for _, amount in line.monthly]
    return "capex" if paid and min(paid) >= capitalisation_threshold else "opex"


def schedule(line: CostLineInput, capitalisation_threshold: Decimal, until: date) -> ScheduledLine:
    """The line's amount in each month it falls due; `until` ends a recurring line without end.

    Amount of a month = quantity × unit price × (1 + annual escalation)^(whole years since the
    start month), rounded half-up to the cent. Assumes a valid line (see `line_errors`).
    """
    first = month_index(line.start)
    last = month_index(line.end if line.end is not None else until)
    if line.recurrence == "one_off":
        months = range(first, first + 1)
    else:
        months = range(first, last + 1, 1 if line.recurrence == "monthly" else 12)
    base = decimal(line.quantity) * decimal(line.unit_price)
    growth = 1 + decimal(line.annual_escalation)
    # The amount changes once a year: one rounding per year of the line, not per month.
    amount_in_year = (
        [to_money(base * growth**year) for year in range((months[-1] - first) // 12 + 1)]
        if months
        else []
    )
    return ScheduledLine(
        name=line.name,
        kind=line.kind,
        budget_class=budget_class_of(line, capitalisation_threshold),
        category=line.category,
        basis=line.basis,
        monthly=tuple(
            (month_start(month), amount_in_year[(month - first) // 12]) for month in months
        ),
    )
