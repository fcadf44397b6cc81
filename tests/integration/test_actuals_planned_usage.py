"""Planned tokens beside actual tokens: each month's planned requests × the tokens of a request,
by type, summed per fiscal year, in the variance API and on the actuals page."""

from datetime import date
from decimal import Decimal

import pytest

from apps.actuals.models import ActualAmount
from apps.actuals.services import actual_enter
from apps.budget.services import cost_line_create
from tests.actuals_worlds import STORAGE, baseline_project
from tests.factories import make_project, make_scenario
from tests.integration.test_api_projects import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def project(owner):
    return baseline_project(owner, "Assistant", inference=True, storage=False)


def test_planned_tokens_are_requests_times_tokens_per_request_by_type(owner, project):
    ActualAmount.objects.create(
        project=project,
        source="bill",
        billing_period=date(2026, 1, 1),
        month=date(2026, 1, 1),
        kind="inference_compute",
        token_type="input",
        amount=1,
        tokens=812_000,
    )
    body = client_for(owner).get(f"/api/v1/projects/{project.pk}/variance/").json()
    year = body["fiscal_years"][0]
    january, february = year["months"][0], year["months"][1]
    # January: 1,000 requests × (1,000 − 200) input, × 200 cached, × (300 + 100) output.
    assert january["tokens"] == {
        "plan": {"input": 800_000, "cached": 200_000, "output": 400_000},
        "actual": {"input": 812_000, "cached": 0, "output": 0},
    }
    # February: 1,100 requests.
    assert february["tokens"]["plan"] == {"input": 880_000, "cached": 220_000, "output": 440_000}
    # The year: 1,000 × (1.1¹² − 1) / 0.1 = 21,384.28 requests.
    requests = 1000 * (1.1**12 - 1) / 0.1
    assert year["tokens"]["plan"] == {
        "input": round(requests * 800),
        "cached": round(requests * 200),
        "output": round(requests * 400),
    }
    assert year["tokens"]["actual"]["input"] == 812_000
    assert year["accelerator_hours"]["plan"] > 0
    assert body["planned_model"] is None


def test_a_plan_in_accelerator_seconds_plans_no_tokens(owner):
    project = make_project(owner, "Seeds", period_start=date(2026, 1, 1))
    make_scenario(project, "Pilot", is_baseline=True)
    actual_enter(project=project, month=date(2026, 1, 1), kind="storage", amount=1)
    body = client_for(owner).get(f"/api/v1/projects/{project.pk}/variance/").json()
    assert body["fiscal_years"][0]["tokens"]["plan"] is None


def test_the_page_shows_planned_tokens_beside_the_actual(client, owner, project):
    client.force_login(owner)
    page = client.get(f"/projects/{project.pk}/actuals/").content.decode()
    assert "Tokens planned" in page
    assert "800,000" in page


def test_the_variance_follows_a_new_actual_and_a_new_cost_line(owner, project):
    url = f"/api/v1/projects/{project.pk}/variance/"
    api = client_for(owner)
    year = api.get(url).json()["fiscal_years"][0]
    assert year["actual"] == "0.00"
    actual_enter(project=project, month=date(2026, 2, 1), kind="storage", amount=120)
    after = api.get(url).json()["fiscal_years"][0]
    assert after["actual"] == "120.00"
    cost_line_create(scenario=project.scenarios.get(is_baseline=True), fields=STORAGE)
    # 10 TB × 25.00 a month, 12 months more planned.
    assert Decimal(api.get(url).json()["fiscal_years"][0]["plan"]) == Decimal(
        after["plan"]
    ) + Decimal("3000.00")
