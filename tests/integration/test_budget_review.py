"""The budget in the review: versions and submissions keep the budget as drawn up then, and the
version diff and the review page show previous / new / difference per line and fiscal year."""

import json
import re
from datetime import date
from decimal import Decimal

import pytest
from django.test import Client
from rest_framework.renderers import JSONRenderer

from apps.budget.kept import (
    budget_changes,
    drawn_up_from_record,
    drawn_up_record,
    version_budget,
)
from apps.budget.selectors import scenario_budget
from apps.budget.serializers import BudgetSerializer
from apps.budget.services import cost_line_create, cost_line_update
from apps.estimates.budget import budget_diff
from apps.projects.models import Project, Scenario
from apps.reviews import services
from apps.sharing.services import share_link_create
from tests.factories import make_front_office, make_manager, make_project, make_scenario
from tests.integration.test_budget_models import STAFF

pytestmark = pytest.mark.django_db

PERIOD = {"period_start": date(2026, 1, 1), "period_end": date(2027, 12, 31)}
LICENCE = {
    "name": "Vector database", "kind": "licence", "quantity": Decimal("1"), "unit": "licence",
    "unit_price": Decimal("12000"), "recurrence": "yearly", "start": date(2026, 7, 1),
    "end": date(2027, 12, 31), "category": 7, "basis": "Vendor quote of 2026-05.",
}  # fmt: skip


@pytest.fixture
def owner():
    return make_manager("maria")


@pytest.fixture
def baseline(owner):
    project = make_project(owner, "Helpdesk", **PERIOD)
    scenario = make_scenario(project, "Pilot", is_baseline=True)
    cost_line_create(scenario=scenario, fields=STAFF)
    scenario.refresh_from_db()
    return scenario


def test_a_version_keeps_its_budget_and_gives_it_back_as_the_api_answered_to_the_cent(
    client, owner, baseline
):
    client.force_login(owner)
    live = client.get(f"/api/v1/scenarios/{baseline.pk}/budget/").json()
    stored = version_budget(baseline.versions.get(number=baseline.version))
    drawn_up = scenario_budget(baseline)
    assert stored == drawn_up_record(drawn_up)
    frozen = drawn_up_from_record(stored, baseline)
    assert frozen == drawn_up  # every field, Decimal for Decimal
    assert json.loads(JSONRenderer().render(BudgetSerializer(frozen).data)) == live


def years_of(html: str, name: str) -> list[str]:
    """The previous / new / difference rows of a line in a budget diff, as their cells' values."""
    group = re.search(
        rf'<th scope="rowgroup" rowspan="3">{re.escape(name)}.*?</tbody>', html, re.DOTALL
    )
    assert group, name
    return re.findall(r'<data value="([^"]+)">', group.group(0))


def test_the_version_diff_shows_previous_new_and_difference_per_line_and_fiscal_year(
    client, owner, baseline
):
    before = scenario_budget(baseline).budget
    line = baseline.cost_lines.get()
    cost_line_update(line=line, fields={"quantity": Decimal("2")})
    cost_line_create(scenario=baseline, fields=LICENCE)
    baseline.refresh_from_db()
    after = scenario_budget(baseline).budget
    expected = budget_diff(before, after)
    client.force_login(owner)
    html = client.get(
        f"/scenarios/{baseline.pk}/versions/compare/?old={baseline.version - 2}"
        f"&new={baseline.version}"
    ).content.decode()
    assert "FY2026" in html and "FY2027" in html
    staff = next(row for row in expected.lines if row.name == STAFF["name"])
    assert years_of(html, STAFF["name"]) == [
        f"{value:.2f}"
        for value in (
            *staff.previous, staff.previous_total, *staff.new, staff.new_total,
            *staff.difference, staff.difference_total,
        )
    ]  # fmt: skip
    assert staff.difference_total == Decimal("90000.00")  # 0.5 FTE more × 90,000 × 2 years
    licence = next(row for row in expected.lines if row.name == LICENCE["name"])
    assert licence.previous is None  # new: its previous row is dashes
    assert years_of(html, LICENCE["name"]) == [
        f"{v:.2f}" for v in (*licence.new, licence.new_total, *licence.difference)
    ] + [f"{licence.difference_total:.2f}"]
    assert "(new line)" in html
    total = expected.totals[-1]
    assert years_of(html, "Total")[-1] == f"{total.difference_total:.2f}"
    assert total.difference_total == after.summary.total - before.summary.total


def test_the_review_shows_the_budget_diff_of_a_resubmission(client, owner, baseline):
    reviewer = make_front_office("fiona")
    services.project_submit(project=baseline.project, user=owner)
    first = baseline.project.snapshots.get().budget
    services.project_return(project=baseline.project, user=reviewer, comment="Add the licence.")
    cost_line_create(scenario=baseline, fields=LICENCE)
    services.project_submit(project=baseline.project, user=owner)
    second = baseline.project.snapshots.get(number=2).budget
    diff = budget_changes(first, second)
    licence = next(row for row in diff.lines if row.name == LICENCE["name"])
    assert licence.previous is None and licence.new == (Decimal("12000.00"),) * 2  # paid each July
    client.force_login(reviewer)
    html = client.get(f"/reviews/{baseline.project.pk}/").content.decode()
    assert "Submission 1" in html and "Submission 2" in html
    cells = years_of(html, LICENCE["name"])
    assert cells == [f"{v:.2f}" for v in (*licence.new, licence.new_total)] + [
        f"{v:.2f}" for v in (*licence.difference, licence.difference_total)
    ]
    assert years_of(html, "Total")[-1] == f"{diff.totals[-1].difference_total:.2f}"


def test_without_a_stored_budget_there_is_nothing_to_compare():
    assert budget_changes(None, {"lines": []}) is None


def shared_page(token: str) -> str:
    html = Client().get(f"/s/{token}/").content.decode()  # a board member, without an account
    return re.sub(r'<form class="language-switcher".*?</form>', "", html, flags=re.S)


def test_a_share_link_shows_the_frozen_budget_byte_for_byte_after_later_edits(owner, baseline):
    snapshot = services.project_submit(project=baseline.project, user=owner)
    _, token = share_link_create(subject=snapshot, user=owner, label="Board")
    version = baseline.versions.get(number=baseline.version)
    _, version_token = share_link_create(subject=version, user=owner, label="Board")
    before, version_before = shared_page(token), shared_page(version_token)
    frozen = drawn_up_from_record(snapshot.budget).budget
    assert f'<data value="{frozen.summary.total:.2f}">' in before
    assert f'<data value="{frozen.summary.npv:.2f}">' in before
    assert STAFF["basis"] in before and "FY2026" in before and "FY2027" in before
    assert "The project’s budget (baseline scenario), as submitted" in before
    assert "The budget of this version, as saved" in version_before
    reviewer = make_front_office("fiona")
    services.project_return(project=baseline.project, user=reviewer, comment="More staff.")
    cost_line_update(line=baseline.cost_lines.get(), fields={"quantity": Decimal("3")})
    cost_line_create(scenario=baseline, fields=LICENCE)
    Project.objects.filter(pk=baseline.project_id).update(contingency_opex=Decimal("0.1"))
    assert shared_page(token) == before
    assert shared_page(version_token) == version_before
    assert scenario_budget(Scenario.objects.get(pk=baseline.pk)).budget.summary.total != (
        frozen.summary.total
    )
