"""The budget in the review, in headless Chromium: a front office sorts the queue by a fiscal
year and reads the budget diff of a resubmitted workplan and the portfolio; a board member opens
a share link and reads the frozen budget; axe-core's WCAG 2.2 AA rules hold at 1280 and 390 px."""

import re
from datetime import date
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from apps.budget.services import cost_line_create
from apps.reviews import services
from apps.sharing.services import share_link_create
from tests.browser.conftest import login
from tests.browser.test_front_office_review import (
    PASSWORD,
    AxeAudit,
    click_and_wait,
    people,  # noqa: F401 (a fixture)
    watch_for_problems,
)
from tests.factories import make_project, make_scenario

PERIOD = {"period_start": date(2026, 1, 1), "period_end": date(2027, 12, 31)}


def licence(name: str, month: date, price: str) -> dict:
    return {
        "name": name, "kind": "licence", "quantity": Decimal("1"), "unit": "licence",
        "unit_price": Decimal(price), "recurrence": "one_off", "start": month, "end": None,
        "category": 7, "basis": "Vendor quote.",
    }  # fmt: skip


@pytest.fixture
def workplans(people):  # noqa: F811
    """Early spends in FY2026, Late in FY2027; Late was returned, given a licence, resubmitted."""
    manager, reviewer = people
    early = make_project(manager, "Early", **PERIOD)
    cost_line_create(
        scenario=make_scenario(early, "Pilot", is_baseline=True),
        fields=licence("Platform", date(2026, 3, 1), "200000"),
    )
    services.project_submit(project=early, user=manager)
    late = make_project(manager, "Late", **PERIOD)
    baseline = make_scenario(late, "Pilot", is_baseline=True)
    cost_line_create(scenario=baseline, fields=licence("Platform", date(2027, 3, 1), "300000"))
    services.project_submit(project=late, user=manager)
    services.project_return(project=late, user=reviewer, comment="Add the evaluation.")
    cost_line_create(scenario=baseline, fields=licence("Red-teaming", date(2027, 6, 1), "40000"))
    snapshot = services.project_submit(project=late, user=manager)
    return {"early": early, "late": late, "snapshot": snapshot}


def test_front_office_sorts_by_a_fiscal_year_and_reads_the_budget_diff(
    new_page, live_server, workplans
) -> None:
    front_office = new_page()
    problems = watch_for_problems(front_office)
    audit = AxeAudit(front_office)
    login(front_office, live_server, "fiona", PASSWORD, next_path="/reviews/")
    queue = front_office.get_by_role("table", name="Workplans in review")
    expect(queue.locator("tbody th")).to_have_text(["Early", "Late"])
    audit("review queue with fiscal-year columns")
    link = queue.get_by_role("link", name=re.compile("^FY2027"))
    link.focus()
    with front_office.expect_navigation():
        front_office.keyboard.press("Enter")  # a plain link: the keyboard sorts too
    expect(queue.locator("tbody th")).to_have_text(["Late", "Early"])
    expect(queue.locator('th[aria-sort="descending"]')).to_contain_text("FY2027")
    audit("review queue sorted by FY2027")

    click_and_wait(front_office, "link", "Late")
    diff = front_office.get_by_role("table", name=re.compile("^The budget per line"))
    expect(diff).to_contain_text("Submission 1")
    expect(diff).to_contain_text("Submission 2")
    red_team = diff.locator("tbody", has_text="Red-teaming")
    expect(red_team).to_contain_text("(new line)")
    expect(red_team.get_by_role("row").last).to_contain_text("$40,000.00")
    audit("review page with the budget diff")

    click_and_wait(front_office, "link", "Portfolio")
    expect(front_office.get_by_role("heading", level=1)).to_have_text("Portfolio budget")
    expect(
        front_office.get_by_role("table", name=re.compile("^Budgets by fiscal year"))
    ).to_contain_text("$540,000.00")  # every licence
    audit("portfolio")
    assert problems == []
    audit.check()


def test_a_board_member_opens_a_share_link_and_reads_the_frozen_budget(
    new_page,
    live_server,
    workplans,
) -> None:
    manager = workplans["late"].owner
    _, token = share_link_create(subject=workplans["snapshot"], user=manager, label="Board")
    board = new_page()
    problems = watch_for_problems(board)
    audit = AxeAudit(board)
    board.goto(f"{live_server.url}/s/{token}/")
    section = board.get_by_role("region", name=re.compile("budget \\(baseline scenario\\)"))
    table = section.get_by_role("table", name=re.compile("^Budget by fiscal year"))
    expect(table).to_contain_text("Red-teaming")
    expect(table).to_contain_text("FY2027")
    expect(section).to_contain_text("Total over the period")
    audit("shared snapshot with its budget")
    assert problems == []
    audit.check()
