"""The inputs a sweep may vary, by their path in the estimate request: the scenario form's numbers
and the energy figures."""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from apps.estimates.limits import RULES, Rule
from apps.projects.api_methods import API_METHODS, read_by_api_method
from apps.projects.field_terms import FIELD_TERMS
from apps.projects.scenario_fields import COMMITMENT_NUMBERS, NUMBER_FIELDS, FieldSpec

PRICING_NAMES = ("price_per_accelerator_hour", "purchase_price", "lifetime_years")
# Pricing inputs the engine only reads in one pricing mode.
PRICING_MODE_OF = {
    "price_per_accelerator_hour": "rent",
    "purchase_price": "own",
    "lifetime_years": "own",
}


@dataclass(frozen=True)
class SweepableInput:
    """One number a sweep may vary, named by its path in the estimate request."""

    path: str  # "inference.requests_per_month"; top-level energy figures have no section: "pue"
    field_label: str | Promise  # "Requests in the first month", without its section
    hint: str | Promise
    scale: float = 1.0  # the page shows value × scale (percentages), the API the value itself
    methods: tuple[str, ...] = ()  # empty: every method of the section uses it
    term: str | None = None  # the glossary term that explains it; None: plain words

    @property
    def section(self) -> str | None:
        return self.path.rpartition(".")[0] or None

    @property
    def section_label(self) -> str | Promise:
        return SECTION_LABELS.get(self.section or "energy", self.section)

    @property
    def label(self) -> Promise:
        """ "Inference: Requests in the first month", in the active language when shown."""
        return format_lazy(
            _("{section}: {label}"), section=self.section_label, label=self.field_label
        )

    @property
    def name(self) -> str:
        return self.path.rpartition(".")[2]

    @property
    def rule(self) -> Rule:
        return RULES[self.name]

    @property
    def engine_path(self) -> tuple[str, ...]:
        """Where the engine reads this number in an EstimateInput."""
        if self.section is None:
            return ("energy", self.name)
        if self.name in PRICING_NAMES:
            return (self.section, "pricing", self.name)
        return (self.section, self.name)

    def unused_by(self, request: dict) -> str | None:
        """Why the scenario's own choices leave this number unused, or None when it is used."""
        if self.section is None:
            return None
        section = request.get(self.section)
        if not section:
            return str(UNUSED_MESSAGES[self.section, "no_section"])
        if self.methods and section.get("method") not in self.methods:
            return str(UNUSED_MESSAGES[self.section, "method"])
        mode = PRICING_MODE_OF.get(self.name)
        if mode and section.get("pricing_mode", "rent") != mode:
            return str(UNUSED_MESSAGES[self.section, mode])
        if self.name in COMMITMENT_NUMBERS and section.get("provisioning") != "committed":
            return str(UNUSED_MESSAGES[self.section, "committed"])
        return None


SECTION_LABELS = {
    "training": _("Training"),
    "inference": _("Inference"),
    "energy": _("Energy"),
}
# Why an input is not used, by (section, reason): whole sentences, each language words its own.
UNUSED_MESSAGES = {
    ("training", "no_section"): _("The scenario has no training, so this input is not used."),
    ("inference", "no_section"): _("The scenario has no inference, so this input is not used."),
    ("training", "method"): _("The scenario's training method does not use this input."),
    ("inference", "method"): _("The scenario's inference method does not use this input."),
    ("training", "rent"): _("Only used when the scenario rents its training accelerators."),
    ("inference", "rent"): _("Only used when the scenario rents its inference accelerators."),
    ("training", "own"): _("Only used when the scenario owns its training accelerators."),
    ("inference", "own"): _("Only used when the scenario owns its inference accelerators."),
    ("inference", "committed"): _(
        "Only used when the scenario's serving capacity is committed for a term."
    ),
}


def _methods(spec: FieldSpec) -> tuple[str, ...]:
    """The methods that read the number: the form's, and the API method that shares it (tokens
    per request are read by an external API too); empty stays every method."""
    if not spec.methods:
        return ()
    shared = tuple(
        method
        for method in API_METHODS.values()
        if method not in spec.methods and read_by_api_method(spec, method)
    )
    return (*spec.methods, *shared)


def _from_scenario_form() -> tuple[SweepableInput, ...]:
    return tuple(
        SweepableInput(
            path=f"{spec.section}.{spec.name}",
            field_label=spec.label,
            hint=spec.hint,
            scale=spec.scale,
            methods=_methods(spec),
            term=FIELD_TERMS.get(spec.field_name),
        )
        for spec in NUMBER_FIELDS
        if spec.name in RULES
    )


ENERGY_INPUTS = (
    SweepableInput(
        "pue",
        _("PUE"),
        _("Facility overhead: 1 for none, 1.1–1.6 in data centres."),
        term="pue",
    ),
    SweepableInput(
        "kg_co2e_per_kwh",
        _("Grid carbon intensity (kg CO2e per kWh)"),
        _("About 0.05 for hydro or nuclear grids, 0.5 world average, 1 for coal."),
        term="emissions",
    ),
    SweepableInput(
        "electricity_price_per_kwh",
        _("Electricity price (USD per kWh)"),
        _("Used for owned accelerators; typical 0.05–0.30."),
        term="energy",
    ),
)
SWEEPABLE = {spec.path: spec for spec in (*_from_scenario_form(), *ENERGY_INPUTS)}
