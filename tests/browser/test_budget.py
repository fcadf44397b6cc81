"""The budget in headless Chromium: a manager adds a staff line and a licence line and sees the
budget change, without a reload (JavaScript on) and by plain form posts (JavaScript off); axe-core
finds no WCAG 2.2 AA violation on the budget's pages and states at desktop and phone widths."""

import re
from datetime import date
from decimal import Decimal

import pytest
from playwright.sync_api import Locator, Page, expect

from apps.budget.models import CostLine
from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    login,
)
from tests.browser.test_workplans import PASSWORD, USERNAME, field, manager  # noqa: F401
from tests.factories import make_project, make_scenario

pytestmark = pytest.mark.browser


@pytest.fixture
def scenario(manager):  # noqa: F811
    project = make_project(
        manager,
        "Translation assistant",
        period_start=date(2026, 1, 1),
        period_end=date(2027, 12, 31),
    )
    return make_scenario(project, "Pilot", is_baseline=True)


def budget_total(page: Page) -> Decimal:
    value = (
        page.locator(".budget-strip div", has_text="Total over the period")
        .locator("data")
        .get_attribute("value")
    )
    return Decimal(value)


def line_form(page: Page) -> Locator:
    return page.locator("main form", has=page.get_by_role("button", name="Add line"))


def add_line(page: Page, template: str, values: dict[str, str], *, javascript: bool) -> None:
    """Open a template from the budget section, fill the form in and add the line."""
    page.get_by_role("navigation", name="Add a line from a template").get_by_role(
        "link", name=template
    ).click()
    form = line_form(page)
    expect(form).to_be_visible()
    if javascript:
        expect(form.get_by_label(re.compile(r"^Name:?$"))).to_be_focused()
    for label, value in values.items():
        form.get_by_label(re.compile(rf"^{re.escape(label)}:?$")).fill(value)
    form.get_by_role("button", name="Add line").click()


def test_a_manager_adds_a_staff_and_a_licence_line_and_the_budget_follows(
    page_js_and_no_js: Page, live_server, scenario, request
):
    page = page_js_and_no_js
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    javascript = _javascript_on(request)
    before = budget_total(page)
    if javascript:
        page.evaluate("() => { window.notReloaded = true; }")

    add_line(
        page,
        "Staff",
        {"Name": "Two data scientists", "Quantity": "2", "Unit price": "80,000",
         "Start": "2026-01-01"},
        javascript=javascript,
    )  # fmt: skip
    expect(
        page.get_by_role("status").filter(has_text="“Two data scientists” added")
    ).to_be_visible()
    staff_row = page.locator(".budget-table tr", has_text="Two data scientists")
    expect(staff_row).to_contain_text("$160,000.00")
    assert budget_total(page) == before + Decimal(320000)

    add_line(
        page,
        "Software licences",
        {"Name": "Translation memory", "Quantity": "10", "Unit price": "1200",
         "Start": "2026-01-01"},
        javascript=javascript,
    )  # fmt: skip
    expect(page.locator(".budget-table tr", has_text="Translation memory")).to_contain_text(
        "$12,000.00"
    )
    assert budget_total(page) == before + Decimal(320000) + Decimal(24000)
    page.get_by_role("button", name="Delete Translation memory").click()
    expect(
        page.get_by_role("status").filter(has_text="“Translation memory” deleted")
    ).to_be_visible()
    expect(page.locator(".budget-table tr", has_text="Translation memory")).to_have_count(0)
    assert budget_total(page) == before + Decimal(320000)
    if javascript:
        assert page.evaluate("() => window.notReloaded") is True
    else:
        expect(page).to_have_url(re.compile(rf"/scenarios/{scenario.pk}/#budget$"))
    assert list(CostLine.objects.values_list("kind", flat=True)) == ["staff"]


def _javascript_on(request: pytest.FixtureRequest) -> bool:
    """Whether this run of a `page_js_and_no_js` test has JavaScript on."""
    return "no-js" not in request.node.callspec.id


def test_a_bad_value_is_shown_beside_its_field_and_nothing_typed_is_lost(
    page_js_and_no_js: Page, live_server, scenario, request
):
    page = page_js_and_no_js
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/budget/")
    add_line(
        page,
        "Storage",
        {"Name": "Archive", "Quantity": "twenty", "Unit price": "23", "Start": "2026-01-01"},
        javascript=_javascript_on(request),
    )
    form = line_form(page)
    expect(form.locator(".form-field-error")).to_contain_text("Enter a number")
    expect(form.get_by_label(re.compile(r"^Quantity:?$"))).to_have_value("twenty")
    expect(form.get_by_label(re.compile(r"^Name:?$"))).to_have_value("Archive")
    assert not CostLine.objects.exists()


@pytest.mark.parametrize("viewport", ["phone"], indirect=True, ids=["phone-390x844"])
def test_the_budget_pages_and_states_have_no_axe_violations(
    page: Page, live_server, scenario, viewport: dict
):
    login(page, live_server, USERNAME, PASSWORD, next_path=f"/scenarios/{scenario.pk}/budget/")
    assert_no_axe_violations_at_each_width(page, "budget page, no lines")
    add_line(
        page,
        "Staff",
        {"Name": "Analyst", "Quantity": "1", "Unit price": "70000", "Start": "2026-01-01"},
        javascript=True,
    )
    expect(page.locator(".budget-table tr", has_text="Analyst")).to_be_visible()
    assert_no_axe_violations_at_each_width(page, "budget page with a line")
    page.get_by_role("link", name="Edit Analyst").click()
    form = page.locator("form.cost-line-form")
    expect(form.get_by_label(re.compile(r"^Name:?$"))).to_be_focused()  # the swap has settled
    form.get_by_label(re.compile(r"^Quantity:?$")).fill("x")
    form.get_by_role("button", name="Save line").click()
    expect(page.locator(".error-summary")).to_be_visible(timeout=15_000)
    assert_no_axe_violations_at_each_width(page, "line form with an error")
    for path in (f"/scenarios/{scenario.pk}/", f"/projects/{scenario.project_id}/"):
        page.goto(path)
        expect(page.locator("#budget")).to_be_visible()
        assert_no_axe_violations_at_each_width(page, f"{path}")
    page.goto(f"/scenarios/{scenario.pk}/cost-lines/new/?kind=licence")
    assert_no_axe_violations_at_each_width(page, "the line form's own page")
