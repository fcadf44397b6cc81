"""What changed between two versions of a scenario: its inputs, old → new, and its figures."""

from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext, gettext_lazy

from apps.estimates import EstimateResult
from apps.projects.input_choices import INPUT_CHOICES, INPUT_NUMBERS
from apps.projects.models import ScenarioVersion
from apps.projects.scenario_compare import compare_rows
from apps.projects.scenario_fields import SECTION_TITLES
from apps.projects.versions import version_estimate
from apps.words import formatting
from apps.words.formatting import Figure
from apps.words.numbers import decimal_text


@dataclass(frozen=True)
class Change:
    """One input or figure that differs between two versions, as people read it."""

    label: str
    old: str | Figure
    new: str | Figure

    @property
    def is_figure(self) -> bool:
        """Figures are shown with `figure_html` (exact value and spoken text), words as they are."""
        return isinstance(self.old, Figure)


def total_cost(result: EstimateResult) -> Decimal:
    """What a scenario costs in all: training plus inference over the horizon, in USD.

    A part the scenario leaves out, or whose price is unknown, counts as nothing.
    """
    parts = (
        result.training.cost if result.training else None,
        result.inference.total.cost if result.inference else None,
    )
    return sum((part for part in parts if part is not None), Decimal(0))


def thresholds_exceeded(result: EstimateResult) -> list[str]:
    """Names of the compute thresholds the training run exceeds, in the catalogue's order."""
    if result.training is None:
        return []
    return [threshold.name for threshold in result.training.thresholds if threshold.exceeded]


def results_changes(old: ScenarioVersion, new: ScenarioVersion) -> list[Change]:
    """The headline figures whose shown text differs (those of the scenario comparison, the
    total cost and the thresholds exceeded), from the results stored with each version."""
    before, after = version_estimate(old).result, version_estimate(new).result
    changes = [
        Change(row.label, row.cells[0].figure, row.cells[1].figure)
        for row in compare_rows([(old, before), (new, after)])
        if row.cells[1].differs
    ]
    old_total, new_total = formatting.money(total_cost(before)), formatting.money(total_cost(after))
    if old_total.text != new_total.text:
        changes.append(Change(gettext("Total cost (training and inference)"), old_total, new_total))
    old_exceeded, new_exceeded = thresholds_exceeded(before), thresholds_exceeded(after)
    if old_exceeded != new_exceeded:
        changes.append(
            Change(
                gettext("Compute thresholds exceeded"),
                ", ".join(old_exceeded) or gettext("none"),
                ", ".join(new_exceeded) or gettext("none"),
            )
        )
    return changes


NOT_SET = gettext_lazy("not set (default)")
_LABELS = {
    "method": gettext_lazy("Method"),
    "accelerator": gettext_lazy("Accelerator"),
    "precision": gettext_lazy("Number format"),
    "provisioning": gettext_lazy("How capacity is paid for"),
    "commitment_years": gettext_lazy("Commitment term"),
    "commitment_provider": gettext_lazy("Provider whose published discount to use"),
    "pricing_mode": gettext_lazy("Rent or own"),
}
# A section's inputs in the form's order: its choices first, then its numbers.
_ORDER = [*_LABELS, *dict.fromkeys(name for _section, name in INPUT_NUMBERS)]


def _input_order(key: str) -> tuple[int, str]:
    return (_ORDER.index(key), "") if key in _ORDER else (len(_ORDER), key)


def _input_label(section: str, key: str) -> str:
    spec = INPUT_NUMBERS.get((section, key))
    return gettext("%(section)s: %(input)s") % {
        "section": SECTION_TITLES[section],
        "input": spec.label if spec else _LABELS.get(key, key),
    }


def _input_text(version: ScenarioVersion, section: str, key: str, value: object) -> str:
    """A stored input as the form shows it: percentages in percent, names instead of slugs."""
    if value is None:
        return str(NOT_SET)
    if key == "accelerator":
        return version.catalogue.get("accelerators", {}).get(value, {}).get("name", value)
    if key == "precision":
        return str(value).upper()
    if (section, key) in INPUT_CHOICES:
        return str(INPUT_CHOICES[section, key].get(value, value))
    spec = INPUT_NUMBERS.get((section, key))
    if spec and isinstance(value, int | float) and not isinstance(value, bool):
        return decimal_text(Decimal(format(value * spec.scale, ".10g")))
    return str(value)


def _section_changes(old: ScenarioVersion, new: ScenarioVersion, section: str) -> list[Change]:
    before, after = old.inputs.get(section), new.inputs.get(section)
    changes = []
    if bool(before) != bool(after):
        changes.append(
            Change(
                str(SECTION_TITLES[section]),
                gettext("included") if before else gettext("not included"),
                gettext("included") if after else gettext("not included"),
            )
        )
    before, after = before or {}, after or {}
    for key in sorted(before.keys() | after.keys(), key=_input_order):
        if before.get(key) != after.get(key):
            changes.append(
                Change(
                    _input_label(section, key),
                    _input_text(old, section, key, before.get(key)),
                    _input_text(new, section, key, after.get(key)),
                )
            )
    return changes


def _energy_profile(version: ScenarioVersion) -> str:
    slug = version.inputs.get("energy_profile")
    if slug is None:
        return str(NOT_SET)
    return version.catalogue.get("energy_profiles", {}).get(slug, {}).get("name", slug)


def inputs_changes(old: ScenarioVersion, new: ScenarioVersion) -> list[Change]:
    """The inputs that differ between two versions, in the form's order, old → new."""
    changes = []
    if old.name != new.name:
        changes.append(Change(gettext("Scenario name"), old.name, new.name))
    for section in ("training", "inference"):
        changes += _section_changes(old, new, section)
    if old.inputs.get("energy_profile") != new.inputs.get("energy_profile"):
        changes.append(
            Change(
                gettext("Data centre and electricity grid"),
                _energy_profile(old),
                _energy_profile(new),
            )
        )
    return changes


def edit_conflict(scenario, base_number: int, latest: ScenarioVersion) -> dict:
    """Who saved the scenario since the version a form was based on, and what they changed."""
    versions = list(
        scenario.versions.filter(number__gte=base_number, number__lte=latest.number)
        .select_related("created_by")
        .order_by("number")
    )
    base = versions[0] if versions and versions[0].number == base_number else None
    return {
        "base_number": base_number,
        "saved_since": [v for v in versions if v.number > base_number],
        "latest": latest,
        "changes": inputs_changes(base, latest) if base else [],
    }
