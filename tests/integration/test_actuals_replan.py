"""Re-plan from actuals: a new scenario whose demand starts from the requests measured in the
latest full month, growing by the geometric mean of the last three month-on-month ratios, the
rest copied from the baseline; by the page (confirmation, then POST) and by the API."""

from datetime import date

import pytest
from django.utils import translation

from apps.actuals.models import ActualAmount
from apps.actuals.services import ReplanRefused, scenario_replan
from apps.projects.models import Scenario
from apps.reviews.services import project_submit
from tests.actuals_worlds import baseline_project
from tests.factories import make_front_office, make_manager
from tests.integration.test_api_projects import client_for

pytestmark = pytest.mark.django_db

# A planned request uses 800 input + 200 cached + 400 output = 1,400 tokens.
REQUESTS = {3: 1_000, 4: 1_100, 5: 1_320, 6: 1_452}


def _bill(project, month: int, tokens: int) -> None:
    for token_type, share in (("input", 4), ("cached", 1), ("output", 2)):
        ActualAmount.objects.create(
            project=project,
            source="gateway",
            billing_period=date(2026, month, 1),
            month=date(2026, month, 1),
            kind="inference_compute",
            token_type=token_type,
            amount=1,
            tokens=tokens * share // 7,
        )


@pytest.fixture
def project(owner):
    project = baseline_project(owner, "Assistant", period_end=date(2027, 12, 31), inference=True)
    for month, requests in REQUESTS.items():
        _bill(project, month, requests * 1_400)
    _bill(project, 7, 300 * 1_400)  # July, in progress on 15 July: left out
    return project


def test_the_new_demand_starts_from_the_latest_full_month_and_its_growth(owner, project):
    scenario = scenario_replan(project=project, user=owner, today=date(2026, 7, 15))
    inference = scenario.inputs["inference"]
    assert inference["requests_per_month"] == 1_452
    # Ratios 1.1, 1.2, 1.1: (1,452 / 1,000)^(1/3) − 1 = 0.132371.
    assert inference["monthly_growth"] == pytest.approx(0.132371, abs=1e-6)
    assert scenario.service_start == date(2026, 7, 1)
    assert not scenario.is_baseline
    baseline = project.scenarios.get(is_baseline=True)
    # The rest is the baseline's.
    assert {
        k: v for k, v in inference.items() if k not in ("requests_per_month", "monthly_growth")
    } == {
        k: v
        for k, v in baseline.inputs["inference"].items()
        if k not in ("requests_per_month", "monthly_growth")
    }
    assert [line.name for line in scenario.cost_lines.all()] == ["Object storage"]
    assert baseline.inputs["inference"]["requests_per_month"] == 1000  # unchanged
    assert "1,452 requests in June 2026" in scenario.origin_text
    assert "+13.24%" in scenario.origin_text
    with translation.override("fr"):
        assert "1 452 requêtes en juin 2026" in scenario.origin_text.replace("\u202f", " ")


def test_without_usage_in_a_full_month_nothing_is_made(owner, project):
    with pytest.raises(ReplanRefused):
        scenario_replan(project=project, user=owner, today=date(2026, 3, 20))


def test_the_page_confirms_then_makes_the_scenario_and_its_page_says_where_from(
    client, owner, project
):
    client.force_login(owner)
    actuals = client.get(f"/projects/{project.pk}/actuals/").content.decode()
    assert f'href="/projects/{project.pk}/actuals/replan/"' in actuals
    confirm = client.get(f"/projects/{project.pk}/actuals/replan/").content.decode()
    # Today is past July 2026: July, 300 requests, is the latest full month.
    assert "<dt>Requests that month</dt><dd>300</dd>" in confirm
    answer = client.post(f"/projects/{project.pk}/actuals/replan/create/")
    scenario = Scenario.objects.get(project=project, is_baseline=False)
    assert answer.status_code == 302 and answer["Location"] == scenario.get_absolute_url()
    page = client.get(answer["Location"]).content.decode()
    assert "Re-planned from the actuals" in page
    assert "latest full month" in page


def test_the_api_answers_201_with_the_scenario(owner, project):
    answer = client_for(owner).post(f"/api/v1/projects/{project.pk}/actuals/replan/")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["project"] == project.pk and body["is_baseline"] is False
    # July's 300 requests are the latest full month now (the clock is past 2026).
    assert body["inputs"]["inference"]["requests_per_month"] == 300


def test_others_get_404_and_a_frozen_project_409(owner, project):
    url = f"/api/v1/projects/{project.pk}/actuals/replan/"
    assert client_for(make_manager("someone")).post(url).status_code == 404
    front = client_for(make_front_office("front"))
    project_submit(project=project, user=owner)
    assert front.post(url).status_code == 404
    assert client_for(owner).post(url).status_code == 409
