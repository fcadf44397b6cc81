"""A scenario's decision view in its exports: the options compared (what GET
/api/v1/scenarios/{id}/options/ answers), their totals and net present value, the cheapest,
what would flip it, and where the costs cross.

Read from what is kept of the comparison (ScenarioReport.options), through the functions the
pages word it with, so that CSV, XLSX and PDF carry the API's amounts to the cent.
"""

from django.utils.translation import gettext as _

from apps.budget.fiscal_labels import fiscal_year_text
from apps.estimates.kept import KeptOptions
from apps.exports.figures import Column, Table, Value
from apps.options.forms import option_label
from apps.options.kept import crossover_sentences, fiscal_year_labels, option_rows
from apps.options.presentation import condition_sentence


def options_table(kept: KeptOptions) -> Table:
    """Columns: option, one-off, capex, opex per fiscal year, total, net present value, cost
    per request and per million output tokens, accelerators, staff, flags, cheapest."""
    currency = kept.currency
    years = fiscal_year_labels(kept)
    columns = (
        Column("label", _("Option"), ""),
        Column("one_off", _("One-off"), currency, True),
        Column("capex", _("Capex"), currency, True),
        *(
            Column(
                f"opex.{i}.amount",
                _("Opex %(year)s") % {"year": fiscal_year_text(year)},
                currency,
                True,
            )
            for i, year in enumerate(years)
        ),
        Column("total", _("Total"), currency, True),
        Column("npv", _("Net present value"), currency, True),
        Column("cost_per_request", _("Cost per request"), currency, True),
        Column(
            "cost_per_million_output_tokens",
            _("Cost per million output tokens"),
            currency,
            True,
        ),
        Column("accelerators", _("Accelerators at peak"), _("accelerators")),
        Column("staff.fte", _("Staff assumed"), _("FTE")),
        Column("staff.cost", _("Staff cost"), currency, True),
        Column("flags", _("Flags"), ""),
        Column("cheapest", _("Cheapest by net present value"), ""),
    )
    rows: list[tuple[Value, ...]] = []
    for row in option_rows(kept):
        rows.append(
            (
                row.label,
                row.one_off,
                row.capex,
                *(amount for _year, amount in row.opex),
                row.total,
                row.npv,
                row.cost_per_request,
                row.cost_per_million_output_tokens,
                row.accelerators,
                row.staff_fte,
                row.staff_cost,
                "; ".join(row.flags),
                _("yes") if row.cheapest else _("no"),
            )
        )
    return Table(
        title=_("Options compared (decision view)"),
        field="options.options",
        columns=columns,
        rows=tuple(rows),
    )


def options_sentences(kept: KeptOptions) -> list[str]:
    """The headline in words: the cheapest, what would flip it, where the costs cross."""
    comparison = kept.comparison
    cheapest = _("Cheapest by net present value: %(label)s.") % {
        "label": option_label(comparison.cheapest)
    }
    return [cheapest, condition_sentence(comparison.condition), *crossover_sentences(kept)]


def options_cells(kept: KeptOptions) -> list[tuple[str, str, Value, str, str]]:
    """Every cell of the options table and the headline, one per row:
    (figure, column label, value, unit, its path in the options answer)."""
    comparison = kept.comparison
    table = options_table(kept)
    cells = []
    for n, values in enumerate(table.rows):
        option = values[0]
        for column, value in zip(table.columns[1:], values[1:], strict=True):
            if value in ("", None):
                continue
            field = f"options.options.{n}.{column.key}"
            if column.key == "cheapest":
                field = "options.cheapest"
            cells.append((f"{option}: {column.label}", column.label, value, column.unit, field))
    cells.append(
        (
            _("Cheapest by net present value"),
            "",
            option_label(comparison.cheapest),
            "",
            "options.cheapest",
        )
    )
    cells.append(
        (
            _("What would flip it"),
            "",
            condition_sentence(comparison.condition),
            "",
            "options.condition.text",
        )
    )
    commitment = comparison.commitment  # None for records kept before commitments
    if commitment:
        label = option_label("rent_committed")
        cells.append(
            (
                _("%(option)s: beats paying per use above a busy share of") % {"option": label},
                "",
                commitment.busy_share_over_pay_per_use,
                _("share of the committed hours"),
                "options.commitment_crossover.busy_share_over_pay_per_use",
            )
        )
        cells.append(
            (
                _("%(option)s: beats always on for a service of more than") % {"option": label},
                "",
                commitment.service_months_over_always_on,
                _("months of each term"),
                "options.commitment_crossover.service_months_over_always_on",
            )
        )
    for n, crossover in enumerate(comparison.crossovers):
        first, second = (option_label(key) for key in crossover.options)
        requests = crossover.requests_per_month
        cells.append(
            (
                _("Crossover: %(first)s and %(second)s") % {"first": first, "second": second},
                "",
                requests,
                _("requests a month"),
                f"options.crossovers.{n}.requests_per_month",
            )
        )
    return cells
