"""The worlds the actuals tests share: a project with a baseline scenario and a storage cost
line (10 TB-month at 25.00 from January 2026), optionally with planned inference."""

from datetime import date
from decimal import Decimal

from apps.actuals.services import actual_enter
from apps.budget.services import cost_line_create
from apps.reviews.services import project_submit
from tests.factories import make_project, make_scenario

STORAGE = {
    "name": "Object storage",
    "kind": "storage",
    "quantity": Decimal(10),
    "unit": "TB-month",
    "unit_price": Decimal("25.00"),
    "recurrence": "monthly",
    "start": date(2026, 1, 1),
    "end": None,
    "category": 4,
}

# 1,000 requests in the first month, growing 10 % a month; 1,000 tokens in of which 200 read
# from a cache, 300 out and 100 of hidden reasoning (billed as output).
INFERENCE = {
    "method": "tokens",
    "parameters": 8e9,
    "input_tokens": 1000,
    "cached_input_tokens": 200,
    "output_tokens": 300,
    "reasoning_tokens": 100,
    "accelerator": "nvidia-h100-sxm",
    "requests_per_month": 1000,
    "monthly_growth": 0.1,
    "months": 12,
}


def baseline_project(
    owner,
    title: str = "Translation",
    *,
    period_end: date = date(2026, 12, 31),
    inference: bool = False,
    storage: bool = True,
):
    """A project from 1 January 2026 whose baseline "Pilot" has the storage line (unless
    `storage` is false) and, with `inference`, INFERENCE from a service start on 1 January."""
    project = make_project(owner, title, period_start=date(2026, 1, 1), period_end=period_end)
    extra = (
        {"timing": {"service_start": date(2026, 1, 1)}, "inputs": {"inference": INFERENCE}}
        if inference
        else {}
    )
    baseline = make_scenario(project, "Pilot", is_baseline=True, **extra)
    if storage:
        cost_line_create(scenario=baseline, fields=STORAGE, user=owner)
    return project


def submitted_with_actuals(
    owner, title: str, currency: str, spent: dict[date, int], *, period_end: date, **scenario
):
    """A project in `currency` (at the rates of 2 June 2025) from 1 January 2026 to `period_end`,
    whose baseline "Pilot" (with `scenario`'s fields) has the storage line, submitted for review,
    with storage billed `spent` by month."""
    project = make_project(
        owner,
        title,
        currency=currency,
        rate_date=date(2025, 6, 2),
        period_start=date(2026, 1, 1),
        period_end=period_end,
    )
    baseline = make_scenario(project, "Pilot", is_baseline=True, **scenario)
    cost_line_create(scenario=baseline, fields=STORAGE)
    project_submit(project=project, user=owner)
    for month, amount in spent.items():
        actual_enter(project=project, month=month, kind="storage", amount=Decimal(amount))
    return project
