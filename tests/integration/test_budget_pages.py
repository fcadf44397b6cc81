"""Budget pages: the budget section and page, cost lines with and without HTMX, the project page,
the scenario page's cache, and a constant number of queries."""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.budget.models import CostLine
from apps.budget.services import cost_line_create, cost_line_update
from apps.projects.services import project_update
from apps.reviews.services import project_submit
from tests.factories import make_manager, make_project, make_scenario, seed_000_inference
from tests.integration.test_budget_models import STAFF
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
LICENCE_FORM = {
    "kind": "licence",
    "name": "Translation memory",
    "quantity": "10",
    "unit": "seat",
    "unit_price": "1,200",
    "recurrence": "yearly",
    "start": "2026-01-01",
    "end": "",
    "annual_escalation": "0",
    "budget_class": "",
    "category": "7",
    "basis": "10 seats × list price.",
}


@pytest.fixture
def owner(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


@pytest.fixture
def scenario(owner):
    project = make_project(
        owner, "Translation assistant", period_start=date(2026, 1, 1), period_end=date(2027, 12, 31)
    )
    return make_scenario(project, "Pilot", is_baseline=True)


def page(client, url, **kwargs) -> str:
    """The page's HTML without its CSRF tokens, which differ on every response."""
    response = client.get(url, **kwargs)
    assert response.status_code == 200
    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", response.content.decode())


def test_the_budget_page_shows_the_strip_the_table_by_fiscal_year_the_chart_and_memo(
    client, scenario
):
    cost_line_create(scenario=scenario, fields=STAFF)
    html = page(client, f"/scenarios/{scenario.pk}/budget/")
    for text in (
        "Upfront (capex)",
        "Annual run-rate (steady-state opex)",
        "Total over the period",
        "Net present value",
        "the first fiscal year is year 0, undiscounted",
        "at 3.5% a year",
        "Prices as of",
        "FY2026",
        "FY2027",
        "Subtotal capex",
        "Subtotal opex",
        "Contingency on capex",
        "Contingency on opex",
        "Indirect support costs",
        "Depreciation of owned hardware",
        "1 Staff and other personnel",
        "1.5 FTE × loaded annual cost of a P3.",
        'id="budget-chart"',
        'id="budget-chart-data"',
        "Capex and opex per fiscal year, in USD",
    ):
        assert text in html, text
    assert '<data value="135000.00">$135,000.00</data>' in html
    assert "kWh" in html and "CO2e" in html
    assert "style=" not in html


def test_a_manager_adds_a_line_without_javascript_and_the_budget_shows_it(client, scenario):
    html = page(client, f"/scenarios/{scenario.pk}/cost-lines/new/?kind=licence&from=budget")
    assert 'value="seat"' in html and "Add a line: Software licences" in html
    response = client.post(
        f"/scenarios/{scenario.pk}/cost-lines/new/?from=budget", LICENCE_FORM, follow=True
    )
    assert response.redirect_chain == [(f"/scenarios/{scenario.pk}/budget/", 302)]
    html = response.content.decode()
    assert "“Translation memory” added" in html
    assert '<data value="12000.00">$12,000.00</data>' in html
    line = CostLine.objects.get()
    assert (line.unit_price, line.budget_class, line.end) == (Decimal(1200), "", None)


def test_with_htmx_the_budget_section_comes_back_with_the_new_line(client, scenario):
    opened = page(client, f"/scenarios/{scenario.pk}/cost-lines/new/?kind=staff", headers=HTMX)
    assert opened.lstrip().startswith('<section id="budget"')
    assert 'name="unit" value="FTE"' in opened
    response = client.post(
        f"/scenarios/{scenario.pk}/cost-lines/new/?from=scenario", LICENCE_FORM, headers=HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="budget"')
    assert 'role="status">“Translation memory” added' in html
    assert "<strong>Translation memory</strong>" in html
    assert 'class="cost-line-form' not in html  # the form closes once the line is added
    assert response["Vary"] == "HX-Request" or "HX-Request" in response["Vary"]


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_bad_value_is_refused_beside_its_field_and_what_was_typed_is_kept(
    client, scenario, headers
):
    bad = {**LICENCE_FORM, "quantity": "ten", "recurrence": "one_off", "end": "2026-06-30"}
    response = client.post(f"/scenarios/{scenario.pk}/cost-lines/new/", bad, headers=headers)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Enter a number, for example 15,000 or 2.5." in html
    assert 'value="ten"' in html and 'value="Translation memory"' in html
    assert 'href="#cost-line-quantity"' in html  # the error summary links to the field
    assert not CostLine.objects.exists()
    bad_end = {**LICENCE_FORM, "recurrence": "one_off", "end": "2026-06-30"}
    html = client.post(
        f"/scenarios/{scenario.pk}/cost-lines/new/", bad_end, headers=headers
    ).content.decode()
    assert "leave its end empty" in html
    assert not CostLine.objects.exists()


@pytest.mark.parametrize("headers", [{}, HTMX], ids=["plain", "htmx"])
def test_a_line_is_changed_and_deleted_with_and_without_htmx(client, scenario, headers):
    line = cost_line_create(scenario=scenario, fields=STAFF)
    edit = f"/scenarios/{scenario.pk}/cost-lines/{line.pk}/edit/"
    html = page(client, edit, headers=headers)
    assert 'value="1.5"' in html and 'value="90000"' in html and 'value="2026-01-01"' in html
    changed = client.post(edit, {**LICENCE_FORM, "kind": "staff", "name": "Two"}, headers=headers)
    assert changed.status_code == (200 if headers else 302)
    line.refresh_from_db()
    assert line.name == "Two"
    deleted = client.post(f"/scenarios/{scenario.pk}/cost-lines/{line.pk}/delete/", headers=headers)
    assert deleted.status_code == (200 if headers else 302)
    if not headers:
        assert deleted["Location"] == f"/scenarios/{scenario.pk}/#budget"
    assert not CostLine.objects.exists()
    scenario.refresh_from_db()
    assert scenario.version == 4


def test_anothers_budget_and_lines_are_404(client, owner):
    theirs = make_scenario(make_project(make_manager("stranger"), "Theirs"), is_baseline=True)
    line = cost_line_create(scenario=theirs, fields=STAFF)
    for url in (
        f"/scenarios/{theirs.pk}/budget/",
        f"/scenarios/{theirs.pk}/cost-lines/new/",
        f"/scenarios/{theirs.pk}/cost-lines/{line.pk}/edit/",
    ):
        assert client.get(url).status_code == 404
    delete = f"/scenarios/{theirs.pk}/cost-lines/{line.pk}/delete/"
    assert client.post(delete).status_code == 404
    assert client.post(f"/scenarios/{theirs.pk}/cost-lines/new/", LICENCE_FORM).status_code == 404
    assert theirs.cost_lines.count() == 1


def test_a_frozen_project_shows_its_budget_but_no_line_controls_and_refuses_changes(
    client, owner, scenario
):
    line = cost_line_create(scenario=scenario, fields=STAFF)
    project_submit(project=scenario.project, user=owner)
    html = page(client, f"/scenarios/{scenario.pk}/budget/")
    assert "Data scientist" in html
    assert "Add a line from a template" not in html and "/delete/" not in html
    response = client.post(f"/scenarios/{scenario.pk}/cost-lines/new/", LICENCE_FORM)
    assert response["Location"] == f"/projects/{scenario.project_id}/"
    client.post(f"/scenarios/{scenario.pk}/cost-lines/{line.pk}/delete/")
    assert CostLine.objects.count() == 1


def test_the_scenario_page_has_the_budget_and_changes_when_a_line_or_a_setting_does(
    client, owner, scenario
):
    url = f"/scenarios/{scenario.pk}/"
    line = cost_line_create(scenario=scenario, fields=STAFF)
    first = page(client, url)
    assert 'id="budget"' in first and "<strong>Data scientist</strong>" in first
    assert page(client, url) == first  # from the fragment cache
    cost_line_update(line=line, fields={"quantity": Decimal(2)})
    second = page(client, url)
    assert '<data value="180000.00">$180,000.00</data>' in second
    project = scenario.project
    project_update(project=project, fields={"contingency_opex": Decimal("0.1")}, collaborators=[])
    third = page(client, url)
    assert third != second
    contingency = re.search(r"Contingency on opex</th>\s*<td[^>]*><data value=\"([\d.]+)\"", third)
    assert contingency and Decimal(contingency[1]) > 0


def test_a_line_changed_behind_the_versions_back_still_changes_the_scenario_page(client, scenario):
    """A line saved outside the services (a shell, a data fix) bumps no version, yet the page
    shows it: the save marks its scenario changed (apps.budget.wiring), which the page's key
    holds instead of reading the lines on every request. (A bulk queryset update sends no
    signal; like the budget API, the page then shows the lines at their next save.)"""
    line = cost_line_create(scenario=scenario, fields=STAFF)
    url = f"/scenarios/{scenario.pk}/"
    before = page(client, url)
    line.name = "Renamed in a shell"
    line.save()
    assert "Renamed in a shell" in page(client, url)
    assert before != page(client, url)
    line.delete()
    assert "Renamed in a shell" not in page(client, url)


def test_the_project_page_shows_the_baseline_budget_and_every_scenarios_total(client, scenario):
    cost_line_create(scenario=scenario, fields=STAFF)
    other = make_scenario(
        scenario.project, "Wider use", inputs={"inference": seed_000_inference(300_000)}
    )
    html = page(client, f"/projects/{scenario.project_id}/")
    assert "The project’s budget is its baseline scenario’s, “Pilot”" in html
    assert "Upfront (capex)" in html and "Subtotal opex" in html
    totals = re.findall(r'budget total <data value="([\d.]+)"', html)
    assert len(totals) == 2
    assert other.name in html
    assert "Add a line from a template" not in html  # lines are changed on the scenario's pages


@pytest.mark.parametrize("path", ["/scenarios/{}/budget/", "/scenarios/{}/"])
def test_the_budget_runs_the_same_number_of_queries_for_one_line_or_twenty(client, scenario, path):
    url = path.format(scenario.pk)
    cost_line_create(scenario=scenario, fields=STAFF)
    client.get(url)  # the catalogue's snapshot, the session: as any page after the first
    cache.clear()  # drawn afresh, not from the fragment cache
    with CaptureQueriesContext(connection) as one:
        page(client, url)
    for number in range(19):
        cost_line_create(scenario=scenario, fields={**STAFF, "name": f"Line {number}"})
    client.get(url)
    cache.clear()
    with CaptureQueriesContext(connection) as twenty:
        html = page(client, url)
    assert html.count("<strong>Line ") == 19
    assert len(twenty) == len(one), [q["sql"] for q in twenty.captured_queries]


def test_the_scenario_form_saves_when_training_and_the_service_start(client, scenario):
    data = {**scenario_post("Pilot"), "version": 1, "service_start": "2026-06-01"}
    assert client.post(f"/scenarios/{scenario.pk}/", data).status_code == 302
    scenario.refresh_from_db()
    assert (scenario.training_start, scenario.service_start) == (None, date(2026, 6, 1))
    assert scenario.versions.get(number=2).budget["service_start"] == "2026-06-01"
    html = page(client, f"/scenarios/{scenario.pk}/")
    assert 'name="service_start" value="2026-06-01"' in html
    assert "monthly inference cost from June 2026" in html
