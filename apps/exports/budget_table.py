"""A scenario's budget as export tables: every line with its basis, per fiscal year, and, with
ranges, the percentiles of its figures.

Built from the budget as GET /api/v1/scenarios/{id}/budget/ answers it (ScenarioReport.budget),
so that CSV, XLSX, PDF and JSON carry the API's amounts to the cent.
"""

from decimal import Decimal

from django.utils.translation import gettext as _

from apps.budget.fiscal_labels import fiscal_year_text
from apps.budget.presentation import CLASS_LABELS, KIND_LABELS
from apps.budget.ranges import HEADLINES
from apps.estimates.budget import COMPUTED_KINDS
from apps.exports.figures import Column, Table, Value
from apps.exports.range_rows import STATISTICS
from apps.words.messages import message_text
from apps.words.numbers import decimal_text

# The rows below the lines, in the API's `totals` order.
TOTAL_ROWS = ("capex", "opex", "contingency", "indirect", "total")


def _total_labels() -> dict[str, str]:
    return {
        "capex": _("Subtotal capex"),
        "opex": _("Subtotal opex"),
        "contingency": _("Contingency"),
        "indirect": _("Indirect support costs"),
        "total": _("Total"),
    }


def _words(line: dict) -> tuple[str, str]:
    """A line's name and basis in the reader's language: the engine's words for the lines the
    estimate adds (the API answers them in English), a person's own as they wrote them."""
    if line["kind"] in COMPUTED_KINDS:
        return message_text(line["name"]), message_text(line["basis"])
    if line.get("currency"):
        # Converted: the rate is among the export's exchange rates.
        entered = _("Entered in %(currency)s") % {"currency": line["currency"]}
        return line["name"], f"{line['basis']} ({entered})" if line["basis"] else entered
    return line["name"], line["basis"]


def budget_table(answer: dict) -> Table:
    """Columns: line, kind, class (their words, not the answer's codes), category, basis, one per
    fiscal year, total (money in the budget's currency). Rows: the lines, then subtotals,
    contingency, indirect costs, total."""
    currency = answer["currency"]
    years = answer["fiscal_years"]
    columns = (
        Column("name", _("Line"), ""),
        Column("kind", _("Kind"), ""),
        Column("budget_class", _("Class"), ""),
        Column("category", _("Category (UNDG)"), ""),
        Column("basis", _("Basis"), ""),
        *(
            Column(f"amounts.{i}", fiscal_year_text(year["label"]), currency, True)
            for i, year in enumerate(years)
        ),
        Column("total", _("Total"), currency, True),
    )
    rows: list[tuple[Value, ...]] = [
        (
            name,
            str(KIND_LABELS.get(line["kind"], line["kind"])),
            str(CLASS_LABELS.get(line["budget_class"], line["budget_class"])),
            line["category"],
            basis,
            *(Decimal(amount) for amount in line["amounts"]),
            Decimal(line["total"]),
        )
        for line in answer["lines"]
        for name, basis in [_words(line)]
    ]
    labels = _total_labels()
    for name in TOTAL_ROWS:
        amounts = [Decimal(amount) for amount in answer["totals"][name]]
        rows.append((labels[name], "", "", None, "", *amounts, sum(amounts, Decimal("0.00"))))
    return Table(
        title=_("Budget by fiscal year"), field="budget", columns=columns, rows=tuple(rows)
    )


def budget_fields(answer: dict) -> list[list[str]]:
    """Each cell's path in the budget answer, row by row as `budget_table` lays them out
    ("" for a total the answer does not hold: a total row's sum over the years)."""
    years = range(len(answer["fiscal_years"]))
    paths = [
        [
            *(f"budget.lines.{n}.{key}" for key in ("name", "kind", "budget_class")),
            f"budget.lines.{n}.category",
            f"budget.lines.{n}.basis",
            *(f"budget.lines.{n}.amounts.{i}" for i in years),
            f"budget.lines.{n}.total",
        ]
        for n in range(len(answer["lines"]))
    ]
    for name in TOTAL_ROWS:
        paths.append(["", "", "", "", "", *(f"budget.totals.{name}.{i}" for i in years), ""])
    return paths


def _range_labels(answer: dict) -> dict[str, str]:
    """The name of each figure of the budget's `uncertainty`, by its path."""
    rows = _total_labels()
    labels = {path: str(label) for path, label, _kind in HEADLINES}
    for name in ("capex", "opex", "contingency", "indirect"):
        labels[f"totals.{name}"] = _("%(row)s, over the period") % {"row": rows[name]}
    for index, year in enumerate(answer["fiscal_years"]):
        for name in ("capex", "opex", "total"):
            labels[f"totals.{name}.{index}"] = f"{fiscal_year_text(year['label'])}: {rows[name]}"
    return labels


def budget_ranges_table(answer: dict) -> Table | None:
    """With ranges: each figure of the budget's `uncertainty` (the summary, the period's rows,
    each fiscal year's capex, opex and total) with its 5th percentile, median, 95th percentile
    and mean, money in the budget's currency; the title gives the samples and the seed. None
    without ranges."""
    stored = answer.get("uncertainty")
    if not stored:
        return None
    currency = answer["currency"]
    labels = _range_labels(answer)
    columns = (
        Column("figure", _("Figure"), ""),
        *(Column(key, name, currency, True) for key, name in STATISTICS),
    )
    rows = tuple(
        (labels.get(path, path), *(Decimal(figure[key]) for key, _name in STATISTICS))
        for path, figure in stored["figures"].items()
    )
    title = _(
        "Budget ranges (90 %% intervals): percentiles of %(samples)s samples, seed %(seed)s"
    ) % {"samples": decimal_text(Decimal(stored["samples"])), "seed": stored["seed"]}
    return Table(title=title, field="budget.uncertainty", columns=columns, rows=rows)


def budget_ranges_fields(answer: dict) -> list[list[str]]:
    """Each cell's path in the budget answer, row by row as `budget_ranges_table` lays them."""
    return [
        [
            f"budget.uncertainty.figures.{path}",
            *(f"budget.uncertainty.figures.{path}.{key}" for key, _name in STATISTICS),
        ]
        for path in answer["uncertainty"]["figures"]
    ]
