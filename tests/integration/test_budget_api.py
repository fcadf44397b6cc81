"""/api/v1/ cost lines and budgets: the issue's names and shapes, permissions, frozen projects."""

from datetime import date
from decimal import Decimal

import pytest

from apps.budget.services import cost_line_create
from apps.catalogue.resolve import estimate_from_request
from apps.projects.conditional import scenario_etag
from apps.reviews.services import project_submit
from tests.factories import make_manager, make_project, make_scenario, seed_000_inference
from tests.integration.test_api_projects import client_for
from tests.integration.test_budget_models import STAFF

pytestmark = pytest.mark.django_db

LINE = {
    "name": "Translation memory licence",
    "kind": "licence",
    "quantity": 10,
    "unit": "seat",
    "unit_price": "1200.00",
    "recurrence": "yearly",
    "start": "2026-01-01",
    "end": None,
    "annual_escalation": 0.03,
    "budget_class": None,
    "category": 7,
    "basis": "10 seats × list price.",
}
LINE_NAMES = {
    "id", "name", "kind", "quantity", "unit", "unit_price", "recurrence", "start", "end",
    "annual_escalation", "budget_class", "category", "basis", "currency",
}  # fmt: skip


@pytest.fixture
def scenario(owner):
    project = make_project(
        owner,
        "Translation assistant",
        period_start=date(2026, 1, 1),
        period_end=date(2027, 12, 31),
    )
    return make_scenario(project, "Pilot", is_baseline=True)


@pytest.fixture
def api(owner):
    return client_for(owner)


def lines_url(scenario) -> str:
    return f"/api/v1/scenarios/{scenario.pk}/cost-lines/"


def budget_url(scenario) -> str:
    return f"/api/v1/scenarios/{scenario.pk}/budget/"


def test_a_cost_line_is_created_read_changed_and_deleted_with_the_issues_names(api, scenario):
    created = api.post(lines_url(scenario), LINE, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert set(body) == LINE_NAMES
    assert {k: v for k, v in body.items() if k != "id"} == {
        **LINE,
        "unit_price": "1200.0000",
        "currency": "USD",  # the project's, by default
    }
    url = f"{lines_url(scenario)}{body['id']}/"
    assert api.get(url).json() == body
    assert api.get(lines_url(scenario)).json() == [body]

    changed = api.patch(
        url, {"budget_class": "capex", "quantity": 12}, format="json", HTTP_IF_MATCH=created["ETag"]
    )
    assert changed.status_code == 200
    assert (changed.json()["budget_class"], changed.json()["quantity"]) == ("capex", 12.0)
    replaced = api.put(
        url, {**LINE, "name": "Licences"}, format="json", HTTP_IF_MATCH=changed["ETag"]
    )
    assert replaced.json()["name"] == "Licences"
    assert replaced.json()["budget_class"] is None

    assert api.delete(url, HTTP_IF_MATCH=replaced["ETag"]).status_code == 204
    assert api.get(lines_url(scenario)).json() == []
    scenario.refresh_from_db()
    assert scenario.version == 5  # created, patched, replaced, deleted: a version each


def test_a_line_change_is_a_new_scenario_version_whose_etag_changes(api, scenario):
    before = scenario_etag(scenario)
    api.post(lines_url(scenario), LINE, format="json")
    scenario.refresh_from_db()
    assert scenario_etag(scenario) != before
    stale = api.patch(
        f"/api/v1/projects/{scenario.project_id}/scenarios/{scenario.pk}/",
        {"name": "Renamed"},
        format="json",
        HTTP_IF_MATCH=before,
    )
    assert stale.status_code == 412


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"recurrence": "one_off", "end": "2026-06-30"}, "end"),
        ({"end": "2025-06-30"}, "end"),
        ({"unit_price": "-1"}, "unit_price"),
        ({"category": 9}, "category"),
        ({"kind": "training_compute"}, "kind"),
        ({"budget_class": "grant"}, "budget_class"),
        ({"annual_escalation": 1.5}, "annual_escalation"),
    ],
)
def test_a_bad_line_is_a_400_naming_its_field(api, scenario, change, field):
    response = api.post(lines_url(scenario), {**LINE, **change}, format="json")
    assert response.status_code == 400
    assert field in response.json()


def test_anothers_scenario_and_line_are_404_and_so_is_a_line_under_the_wrong_scenario(
    api, scenario
):
    stranger = make_manager("stranger")
    theirs = make_scenario(make_project(stranger, "Theirs"), is_baseline=True)
    their_line = cost_line_create(scenario=theirs, fields=STAFF)
    assert api.get(lines_url(theirs)).status_code == 404
    assert api.post(lines_url(theirs), LINE, format="json").status_code == 404
    assert api.get(f"{lines_url(theirs)}{their_line.pk}/").status_code == 404
    assert api.delete(f"{lines_url(scenario)}{their_line.pk}/").status_code == 404
    assert api.get(budget_url(theirs)).status_code == 404
    assert api.get(f"/api/v1/projects/{theirs.project_id}/budget/").status_code == 404
    assert theirs.cost_lines.count() == 1


def test_a_frozen_project_answers_409_to_line_changes(api, owner, scenario):
    line = cost_line_create(scenario=scenario, fields=STAFF)
    project_submit(project=scenario.project, user=owner)
    assert api.post(lines_url(scenario), LINE, format="json").status_code == 409
    url = f"{lines_url(scenario)}{line.pk}/"
    etag = api.get(url)["ETag"]
    changed = api.patch(url, {"quantity": 3}, format="json", HTTP_IF_MATCH=etag)
    assert changed.status_code == 409
    assert api.delete(url, HTTP_IF_MATCH=etag).status_code == 409
    assert api.get(budget_url(scenario)).status_code == 200


def test_the_budget_has_exactly_the_issues_shape_with_money_as_decimal_strings(api, scenario):
    cost_line_create(scenario=scenario, fields=STAFF)
    body = api.get(budget_url(scenario)).json()
    assert set(body) == {
        "currency",
        "exchange_rates",
        "fiscal_years",
        "lines",
        "totals",
        "memo",
        "summary",
        "notes",
    }
    assert body["currency"] == "USD"
    assert body["fiscal_years"] == [
        {"label": "FY2026", "start": "2026-01-01", "end": "2026-12-31", "months": 12},
        {"label": "FY2027", "start": "2027-01-01", "end": "2027-12-31", "months": 12},
    ]
    assert [line["kind"] for line in body["lines"]] == [
        "training_compute",
        "inference_compute",
        "staff",
    ]
    staff = body["lines"][2]
    assert set(staff) == {
        "name", "kind", "budget_class", "category", "basis", "amounts", "total", "currency",
    }  # fmt: skip
    assert staff["currency"] is None  # in the budget's own
    assert staff["amounts"] == ["135000.00", "135000.00"]
    assert (staff["total"], staff["budget_class"], staff["category"]) == ("270000.00", "opex", 1)
    assert set(body["totals"]) == {"capex", "opex", "contingency", "indirect", "total"}
    assert all(len(row) == 2 for row in body["totals"].values())
    assert set(body["memo"]) == {
        "depreciation",
        "energy_kwh",
        "emissions_kg_co2e",
        "embodied_kg_co2e",
        "water_litres",
        "idle_commitment",
    }
    assert body["memo"]["idle_commitment"] is None  # no commitment
    assert set(body["summary"]) == {
        "upfront", "annual_run_rate", "total", "npv", "discount_rate", "prices_as_of",
    }  # fmt: skip
    total = sum(Decimal(line["total"]) for line in body["lines"])
    assert body["summary"]["total"] == f"{total:.2f}"
    assert sum(Decimal(t) for t in body["totals"]["total"]) == total
    fy = [Decimal(t) for t in body["totals"]["total"]]
    assert Decimal(body["summary"]["npv"]) == (fy[0] + fy[1] / Decimal("1.035")).quantize(
        Decimal("0.01")
    )
    assert body["summary"]["discount_rate"] == 0.035
    assert body["summary"]["upfront"] == "0.00"


def test_the_compute_lines_are_the_estimates_months_summed_into_fiscal_years(api, owner):
    """October fiscal years, a period starting mid-year: partial first and last years."""
    project = make_project(
        owner,
        "October plan",
        period_start=date(2026, 3, 1),
        period_end=date(2028, 2, 29),
        fiscal_year_start_month=10,
    )
    inputs = {"inference": seed_000_inference(15_000, monthly_growth=0.1, months=24)}
    scenario = make_scenario(project, "Growing", inputs=inputs, is_baseline=True)
    body = api.get(budget_url(scenario)).json()
    assert [(y["label"], y["months"]) for y in body["fiscal_years"]] == [
        ("FY2026", 7),
        ("FY2027", 12),
        ("FY2028", 5),
    ]
    result, _ = estimate_from_request(inputs)
    costs = [month.cost for month in result.inference.monthly]
    expected = [sum(costs[:7]), sum(costs[7:19]), sum(costs[19:24])]
    (inference,) = [line for line in body["lines"] if line["kind"] == "inference_compute"]
    assert inference["amounts"] == [f"{amount:.2f}" for amount in expected]
    assert Decimal(inference["total"]) == sum(costs)


def test_the_projects_budget_is_its_baseline_scenarios(api, scenario):
    other = make_scenario(
        scenario.project, "Wider use", inputs={"inference": seed_000_inference(300_000)}
    )
    cost_line_create(scenario=other, fields=STAFF)
    project_budget = api.get(f"/api/v1/projects/{scenario.project_id}/budget/").json()
    assert project_budget == api.get(budget_url(scenario)).json()
    assert project_budget != api.get(budget_url(other)).json()


def test_the_project_and_scenario_carry_the_budget_fields(api, scenario):
    project_url = f"/api/v1/projects/{scenario.project_id}/"
    body = api.get(project_url).json()
    assert {
        key: body[key]
        for key in (
            "fiscal_year_start_month", "fiscal_year_label", "capitalisation_threshold",
            "discount_rate", "contingency_capex", "contingency_opex", "indirect_rate",
        )
    } == {
        "fiscal_year_start_month": 1, "fiscal_year_label": "end_year",
        "capitalisation_threshold": "5000.00", "discount_rate": 0.035, "contingency_capex": 0.0,
        "contingency_opex": 0.0, "indirect_rate": 0.0,
    }  # fmt: skip
    changed = api.patch(
        project_url,
        {"fiscal_year_start_month": 10, "fiscal_year_label": "start_end", "contingency_opex": 0.1},
        format="json",
    )
    assert changed.status_code == 200, changed.json()
    budget = api.get(budget_url(scenario)).json()
    assert [y["label"] for y in budget["fiscal_years"]] == ["2025/26", "2026/27", "2027/28"]
    opex, contingency = budget["totals"]["opex"], budget["totals"]["contingency"]
    assert contingency == [f"{Decimal(o) * Decimal('0.1'):.2f}" for o in opex]
    assert api.patch(project_url, {"discount_rate": 2}, format="json").status_code == 400
    assert api.patch(project_url, {"fiscal_year_start_month": 13}, format="json").status_code == 400

    scenario_url = f"/api/v1/projects/{scenario.project_id}/scenarios/{scenario.pk}/"
    timing = {"training_start": "2026-03-01", "service_start": "2026-06-01"}
    saved = api.patch(scenario_url, timing, format="json", HTTP_IF_MATCH=scenario_etag(scenario))
    assert saved.status_code == 200, saved.json()
    assert {k: saved.json()[k] for k in timing} == timing
    budget = api.get(budget_url(scenario)).json()
    (inference,) = [line for line in budget["lines"] if line["kind"] == "inference_compute"]
    assert "from June 2026" in inference["basis"]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "The planning period must end after it starts."),
        ("fr", "La période de planification doit finir après son début."),
    ],
)
def test_a_calendar_no_year_can_be_drawn_from_is_said_in_the_readers_language(
    api, scenario, language, words
):
    """A period stored ending before it starts (the forms refuse one; an old row or a manual
    change may hold one) makes the budget unavailable, and says why in the reader's words."""
    from apps.projects.models import Project

    Project.objects.filter(pk=scenario.project.pk).update(period_end=date(2025, 6, 30))
    response = api.get(budget_url(scenario), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 409
    assert words in response.json()["detail"], response.json()
