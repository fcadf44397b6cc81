"""A project with everything its JSON export holds set: budget settings, timing, ranges and a
seed, several cost lines of every recurrence and class, and a baseline among three scenarios."""

from datetime import date
from decimal import Decimal

from apps.budget.services import cost_line_create
from apps.projects.models import Project
from apps.projects.presets import PRESETS_BY_SLUG
from tests.factories import (
    SEED_000_TRAINING,
    TRANSLATION_INFERENCE,
    make_project,
    make_scenario,
    seed_000_inference,
)

RANGED_INPUTS = {
    "training": SEED_000_TRAINING,
    "inference": seed_000_inference(15_000),
    "ranges": {
        "training.accelerator_hours": {"low": 100, "high": 400},
        "inference.requests_per_month": {"low": 5_000, "high": 50_000},
    },
    "uncertainty": {"seed": 7, "samples": 2_000},
}

PILOT_LINES = [
    {
        "name": "Data scientist", "kind": "staff", "quantity": Decimal("1.5"), "unit": "FTE",
        "unit_price": Decimal("90000"), "recurrence": "yearly", "start": date(2026, 1, 1),
        "end": date(2027, 12, 31), "annual_escalation": Decimal("0.03"), "category": 1,
        "basis": "1.5 FTE × loaded annual cost of a P3.",
    },
    {
        "name": "Vector database", "kind": "licence", "quantity": Decimal("1"),
        "unit": "licence", "unit_price": Decimal("12000"), "recurrence": "yearly",
        "start": date(2026, 7, 1), "end": date(2027, 12, 31), "budget_class": "opex",
        "category": 7, "basis": "Vendor quote of 2026-05.",
    },
    {
        "name": "Object storage", "kind": "storage", "quantity": Decimal("20.25"),
        "unit": "TB-month", "unit_price": Decimal("23.0050"), "recurrence": "monthly",
        "start": date(2026, 3, 1), "end": None, "annual_escalation": Decimal("0.015"),
        "category": 4, "basis": "",
    },
    {
        "name": "Red-teaming", "kind": "evaluation", "quantity": Decimal("2"), "unit": "sprint",
        "unit_price": Decimal("4500.50"), "recurrence": "one_off", "start": date(2026, 9, 1),
        "budget_class": "capex", "category": 4, "basis": "Two sprints by an external team.",
    },
]  # fmt: skip

WIDER_LINE = {
    "name": "Support desk", "kind": "support", "quantity": Decimal("0.5"), "unit": "FTE",
    "unit_price": Decimal("60000"), "recurrence": "yearly", "start": date(2027, 1, 1),
    "end": None, "category": 1, "basis": "Half a colleague on the help line.",
}  # fmt: skip


def make_full_project(owner) -> Project:
    """The project, made through the services the pages use, as its owner would."""
    project = make_project(
        owner,
        "Translation assistant",
        unit="Language services",
        description="Pilot first.\n\nThen every office.",
        classification="internal",
        period_start=date(2026, 1, 1),
        period_end=date(2028, 6, 30),
        fiscal_year_start_month=7,
        fiscal_year_label="start_end",
        capitalisation_threshold=Decimal("2500.00"),
        discount_rate=Decimal("0.05"),
        contingency_capex=Decimal("0.1"),
        contingency_opex=Decimal("0.05"),
        indirect_rate=Decimal("0.07"),
    )
    pilot = make_scenario(
        project,
        "Pilot",
        inputs=RANGED_INPUTS,
        is_baseline=True,
        timing={"training_start": date(2026, 2, 1), "service_start": date(2026, 5, 1)},
    )
    for fields in PILOT_LINES:
        cost_line_create(scenario=pilot, fields=fields, user=owner)
    wider = make_scenario(
        project,
        "Wider use",
        inputs={
            "training": {**SEED_000_TRAINING, "pricing_mode": "own"},
            "inference": TRANSLATION_INFERENCE,
        },
        timing={"service_start": date(2027, 1, 1)},
    )
    cost_line_create(scenario=wider, fields=WIDER_LINE, user=owner)
    make_scenario(project, "Pre-train", inputs=PRESETS_BY_SLUG["pre-train-70b"].inputs)
    return project
