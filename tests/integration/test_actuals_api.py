"""/api/v1/ actuals: imports (202, then their counts), mapping rules, plan against actual with the
baseline's budget by month, and who may see what."""

from datetime import date
from decimal import Decimal

import kombu.exceptions
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from apps.actuals import services, tasks
from apps.actuals.alerts import alerts_raise
from apps.actuals.runs import actuals_import_run
from apps.actuals.services import actual_enter
from apps.budget.selectors import scenario_budget
from apps.budget.services import cost_line_create
from apps.reviews.services import project_submit
from tests.actuals_worlds import STORAGE, baseline_project
from tests.factories import (
    load_ecb,
    make_front_office,
    make_manager,
    make_project,
    make_scenario,
)
from tests.integration.test_api_projects import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def project(owner):
    return baseline_project(owner, period_end=date(2027, 12, 31))


@pytest.fixture
def inline_tasks(monkeypatch):
    """The import task run in this process as its commit queues it (as under `make run`)."""
    monkeypatch.setattr(
        tasks.actuals_import_task, "delay", lambda pk: actuals_import_run(import_id=pk)
    )


PLAIN = b"month,kind,amount,currency\n2026-01,storage,300.00,USD\n2026-02,storage,200,USD\n"


def test_an_upload_answers_202_then_the_import_gives_its_counts(
    owner, project, inline_tasks, django_capture_on_commit_callbacks
):
    api = client_for(owner)
    url = f"/api/v1/projects/{project.pk}/actuals/imports/"
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(
            url,
            {"file": SimpleUploadedFile("bill.csv", PLAIN), "source": "ledger"},
            format="multipart",
        )
    assert answer.status_code == 202, answer.content
    assert set(answer.json()) == {"id", "status"}
    detail = api.get(f"{url}{answer.json()['id']}/").json()
    assert detail["status"] == "done"
    assert (detail["rows_read"], detail["rows_matched"], detail["rows_unmatched"]) == (2, 2, 0)
    assert detail["amount_unmatched"] == "0.00"
    assert detail["errors"] == []
    assert (detail["period_start"], detail["period_end"]) == ("2026-01-01", "2026-02-01")


def test_rules_are_listed_added_changed_and_deleted(owner, project):
    api = client_for(owner)
    api.default_format = "json"
    url = f"/api/v1/projects/{project.pk}/actuals/rules/"
    first = api.post(url, {"column": "ServiceName", "value": "S3", "kind": "storage"}).json()
    second = api.post(url, {"column": "Tags.team", "value": "ml", "kind": "training_compute"})
    assert second.status_code == 201
    assert [r["position"] for r in api.get(url).json()] == [0, 1]
    changed = api.patch(f"{url}{first['id']}/", {"value": "Amazon S3"})
    assert changed.status_code == 200 and changed.json()["value"] == "Amazon S3"
    assert (
        api.post(url, {"column": "ServiceName", "value": "x", "kind": "coffee"}).status_code == 400
    )
    assert api.delete(f"{url}{first['id']}/").status_code == 204
    assert [r["column"] for r in api.get(url).json()] == ["Tags.team"]


def test_variance_compares_the_baselines_budget_by_month_with_the_actuals(owner, project):
    actual_enter(project=project, month=date(2026, 1, 1), kind="storage", amount=Decimal(300))
    actual_enter(project=project, month=date(2026, 2, 1), kind="storage", amount=Decimal(200))
    answer = client_for(owner).get(f"/api/v1/projects/{project.pk}/variance/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["currency"] == "USD" and body["through"] == "2026-02"
    budget = scenario_budget(project.scenarios.get(is_baseline=True)).budget
    years = body["fiscal_years"]
    assert [y["label"] for y in years] == [y.label for y in budget.fiscal_years]
    for year, position in zip(years, range(len(years)), strict=True):
        lines = sum(line.amounts[position] for line in budget.lines)
        assert Decimal(year["plan"]) == lines  # the budget's lines, month by month
    storage = next(k for k in years[0]["kinds"] if k["kind"] == "storage")
    # 10 TB × 25.00 = 250.00 a month, 3,000.00 a year; 500.00 spent in two months.
    assert (storage["plan"], storage["actual"]) == ("3000.00", "500.00")
    january = years[0]["months"][0]
    january_storage = next(k for k in january["kinds"] if k["kind"] == "storage")
    assert january["label"] == "2026-01"
    assert january_storage == {
        "kind": "storage",
        "plan": "250.00",
        "actual": "300.00",
        "variance": "50.00",
        "variance_share": 0.2,
        "forecast": "300.00",
    }
    # By plan: 500 + 10 × 250 = 3,000; by run rate (250 a month): the same.
    assert storage["forecast"] == "3000.00"


def test_the_front_office_reads_variance_in_review_only_and_strangers_never(owner, project):
    front = client_for(make_front_office("front"))
    stranger = client_for(make_manager("someone"))
    url = f"/api/v1/projects/{project.pk}/variance/"
    assert front.get(url).status_code == 404
    project_submit(project=project, user=owner)
    assert front.get(url).status_code == 200
    assert stranger.get(url).status_code == 404
    assert front.get(f"/api/v1/projects/{project.pk}/actuals/rules/").status_code == 404
    assert stranger.post(f"/api/v1/projects/{project.pk}/actuals/rules/", {}).status_code == 404


def test_an_import_that_cannot_be_queued_says_so(owner, project, monkeypatch):
    def refuse(pk):
        raise kombu.exceptions.OperationalError("down")

    monkeypatch.setattr(tasks.actuals_import_task, "delay", refuse)
    record = services.actuals_import_create(
        project=project, user=owner, upload=SimpleUploadedFile("b.csv", PLAIN)
    )
    services._enqueue(record.pk)
    record.refresh_from_db()
    assert record.status == "failed" and "queued" in record.errors[0]["message"]


def test_a_euro_projects_plan_is_its_budget_converted_as_the_budget_converts_it(owner):
    """The plan the actuals are compared with is the budget the page shows: the estimate's
    dollar prices converted at the project's rate, a line entered in francs at its own, a fiscal
    year with a rate of its own at that rate; never dollars beside euros."""
    load_ecb()
    project = make_project(
        owner,
        "Traduction",
        currency="EUR",
        rate_date=date(2025, 6, 2),
        period_start=date(2026, 1, 1),
        period_end=date(2027, 12, 31),
        fiscal_year_rates={"FY2027": "0.95"},
    )
    scenario = make_scenario(project, "Pilote", is_baseline=True)
    cost_line_create(scenario=scenario, fields={**STORAGE, "currency": "CHF"}, user=owner)
    body = client_for(owner).get(f"/api/v1/projects/{project.pk}/variance/").json()
    assert body["currency"] == "EUR"
    budget = scenario_budget(project.scenarios.get(is_baseline=True)).budget
    assert [y["label"] for y in body["fiscal_years"]] == ["FY2026", "FY2027"]
    for position, year in enumerate(body["fiscal_years"]):
        for kind in year["kinds"]:
            planned = sum(
                line.amounts[position] for line in budget.lines if line.kind == kind["kind"]
            )
            assert Decimal(kind["plan"]) == planned, (year["label"], kind["kind"])
    storage = next(k for k in body["fiscal_years"][0]["kinds"] if k["kind"] == "storage")
    # 250.00 CHF a month at 1.0711225364 EUR (the ECB's of 2 June 2025: 1 / 0.9336), a cent each.
    assert storage["plan"] == str(Decimal("267.78") * 12)


def test_the_project_the_baseline_and_its_budget_pages_show_plan_against_actual(owner, project):
    """Once anything is billed, the project page, the baseline scenario's page (cached whole:
    its key follows the actuals) and its budget page show plan against actual by fiscal year
    with the budget alerts; not before, and never on another scenario's pages."""
    baseline = project.scenarios.get(is_baseline=True)
    other = make_scenario(project, "Wider use")
    client = Client()
    client.force_login(owner)
    pages = {
        "project": project.get_absolute_url(),
        "scenario": baseline.get_absolute_url(),
        "budget": reverse("scenario-budget-page", kwargs={"scenario_id": baseline.pk}),
    }
    others = [
        other.get_absolute_url(),
        reverse("scenario-budget-page", kwargs={"scenario_id": other.pk}),
    ]
    for url in [*pages.values(), *others]:
        assert 'class="plan-against-actual"' not in client.get(url).content.decode()
    actual_enter(project=project, month=date(2026, 1, 1), kind="storage", amount=Decimal(3100))
    alerts_raise(project=project)
    first = client_for(owner).get(f"/api/v1/projects/{project.pk}/variance/").json()
    first = first["fiscal_years"][0]
    # the same figures as the variance API: 3,100.00 billed in January against the year's plan
    plan, actual = (f"${Decimal(first[key]):,.2f}" for key in ("plan", "actual"))
    assert actual == "$3,100.00"
    for place, url in pages.items():
        html = client.get(url).content.decode()
        section = html.split('class="plan-against-actual"', 1)[1].split("</section>", 1)[0]
        assert f'id="{place}-variance-caption"' in section
        assert f">{plan}<" in section and f">{actual}<" in section
        assert "<li>" in section  # the alert the January bill raised
        assert f"/projects/{project.pk}/actuals/" in section
    for url in others:
        assert 'class="plan-against-actual"' not in client.get(url).content.decode()
