"""Cost lines and budget settings: validation, versions, frozen projects, templates, copies."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from apps.budget.forms import CostLineForm
from apps.budget.line_templates import LINE_TEMPLATES
from apps.budget.models import CostLine, Kind
from apps.budget.services import cost_line_create, cost_line_delete, cost_line_update
from apps.estimates.budget import USER_KINDS
from apps.projects.forms import ProjectForm
from apps.projects.models import Project, ProjectFrozen
from apps.projects.services import scenario_duplicate
from apps.reviews.services import project_submit
from tests.factories import make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db

STAFF = {
    "name": "Data scientist",
    "kind": "staff",
    "quantity": Decimal("1.5"),
    "unit": "FTE",
    "unit_price": Decimal("90000"),
    "recurrence": "yearly",
    "start": date(2026, 1, 1),
    "end": date(2027, 12, 31),
    "category": 1,
    "basis": "1.5 FTE × loaded annual cost of a P3.",
}


@pytest.fixture
def scenario():
    owner = make_manager("maria")
    return make_scenario(make_project(owner, "Translation assistant"), is_baseline=True)


def test_a_new_project_has_the_issues_budget_defaults(scenario):
    project = scenario.project
    assert project.fiscal_year_start_month == 1
    assert project.fiscal_year_label == "end_year"
    assert project.capitalisation_threshold == Decimal(5000)
    assert project.discount_rate == Decimal("0.035")
    assert (project.contingency_capex, project.contingency_opex, project.indirect_rate) == (0, 0, 0)
    assert scenario.training_start is None and scenario.service_start is None


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"recurrence": "one_off"}, "end", "leave its end empty"),
        ({"end": date(2025, 12, 1)}, "end", "before the start"),
        ({"quantity": Decimal(-1)}, "quantity", "greater than or equal to 0"),
        ({"category": 8}, "category", "not a valid choice"),
        ({"kind": "travel"}, "kind", "not a valid choice"),
        ({"annual_escalation": Decimal(2)}, "annual_escalation", "less than or equal to 1"),
    ],
)
def test_a_bad_line_is_refused_with_a_plain_message_beside_its_field(
    scenario, fields, field, message
):
    with pytest.raises(ValidationError) as refused:
        cost_line_create(scenario=scenario, fields={**STAFF, **fields}, user=scenario.project.owner)
    assert message in " ".join(refused.value.message_dict[field])
    assert not CostLine.objects.exists()
    scenario.refresh_from_db()
    assert scenario.version == 1


def test_a_recurring_line_may_run_to_the_end_of_the_period_and_end_in_its_start_month(scenario):
    cost_line_create(scenario=scenario, fields={**STAFF, "end": None})
    cost_line_create(
        scenario=scenario, fields={**STAFF, "start": date(2026, 3, 15), "end": date(2026, 3, 1)}
    )
    assert scenario.cost_lines.count() == 2


def test_every_line_change_is_a_new_version_that_keeps_the_lines(scenario):
    owner = scenario.project.owner
    line = cost_line_create(scenario=scenario, fields=STAFF, user=owner)
    scenario.refresh_from_db()
    assert scenario.version == 2
    stored = scenario.versions.get(number=2)
    assert stored.created_by == owner
    assert stored.budget["cost_lines"] == [
        {
            "id": line.pk,
            "name": "Data scientist",
            "kind": "staff",
            "quantity": "1.5000",
            "unit": "FTE",
            "unit_price": "90000.0000",
            "currency": "",
            "recurrence": "yearly",
            "start": "2026-01-01",
            "end": "2027-12-31",
            "annual_escalation": "0.000000",
            "budget_class": "",
            "category": 1,
            "basis": "1.5 FTE × loaded annual cost of a P3.",
        }
    ]
    assert scenario.versions.get(number=1).budget["cost_lines"] == []

    cost_line_update(line=line, fields={"quantity": Decimal(2)}, user=owner)
    scenario.refresh_from_db()
    assert scenario.version == 3
    assert scenario.versions.get(number=3).budget["cost_lines"][0]["quantity"] == "2.0000"

    cost_line_delete(line=line, user=owner)
    scenario.refresh_from_db()
    assert scenario.version == 4
    assert scenario.versions.get(number=4).budget["cost_lines"] == []


def test_a_submitted_project_refuses_line_changes_and_keeps_its_lines(scenario):
    line = cost_line_create(scenario=scenario, fields=STAFF)
    project_submit(project=scenario.project, user=scenario.project.owner)
    scenario.refresh_from_db()
    version = scenario.version
    with pytest.raises(ProjectFrozen):
        cost_line_create(scenario=scenario, fields={**STAFF, "name": "Another"})
    with pytest.raises(ProjectFrozen):
        cost_line_update(line=line, fields={"quantity": Decimal(3)})
    with pytest.raises(ProjectFrozen):
        cost_line_delete(line=line)
    line.refresh_from_db()
    assert line.quantity == Decimal("1.5")
    assert list(scenario.cost_lines.values_list("name", flat=True)) == ["Data scientist"]
    scenario.refresh_from_db()
    assert scenario.version == version


def test_a_copy_of_a_scenario_has_its_timing_and_lines(scenario):
    scenario.training_start = date(2026, 2, 1)
    scenario.service_start = date(2026, 4, 1)
    scenario.save()
    cost_line_create(scenario=scenario, fields=STAFF)
    copy = scenario_duplicate(scenario=scenario, user=scenario.project.owner)
    assert (copy.training_start, copy.service_start) == (date(2026, 2, 1), date(2026, 4, 1))
    assert [line.name for line in copy.cost_lines.all()] == ["Data scientist"]
    assert copy.versions.get().budget["cost_lines"][0]["name"] == "Data scientist"
    assert scenario.cost_lines.count() == 1


def test_the_models_kinds_are_the_budget_engines_and_each_has_a_template():
    assert tuple(Kind.values) == USER_KINDS
    assert set(LINE_TEMPLATES) == set(USER_KINDS)


def test_a_template_prefills_a_staff_line_as_fte_times_loaded_annual_cost():
    form = CostLineForm.for_kind("staff")
    assert form["kind"].value() == "staff"
    assert form["unit"].value() == "FTE"
    assert form["recurrence"].value() == "yearly"
    assert form["category"].value() == 1
    assert "loaded annual cost" in str(form["basis"].value())
    storage = CostLineForm.for_kind("storage")
    assert (storage["unit"].value(), storage["recurrence"].value()) == ("TB-month", "monthly")


def test_the_line_form_takes_percentages_and_thousands_separators(scenario):
    form = CostLineForm(
        {
            **{k: v for k, v in STAFF.items() if k not in {"quantity", "unit_price"}},
            "quantity": "1.5",
            "unit_price": "90,000",
            "annual_escalation": "3",
            "budget_class": "",
        },
        instance=CostLine(scenario=scenario),
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["unit_price"] == Decimal(90000)
    assert form.cleaned_data["annual_escalation"] == Decimal("0.03")


def test_the_project_form_shows_rates_as_percentages_and_empty_settings_take_defaults(scenario):
    project = scenario.project
    project.discount_rate = Decimal("0.035")
    form = ProjectForm(instance=project, owner=project.owner)
    assert 'value="3.5"' in str(form["discount_rate"])
    posted = ProjectForm(
        {"title": "T", "currency": "USD", "classification": "public", "contingency_opex": "10"},
        instance=Project(owner=project.owner),
        owner=project.owner,
    )
    assert posted.is_valid(), posted.errors
    assert posted.cleaned_data["contingency_opex"] == Decimal("0.1")
    assert posted.cleaned_data["discount_rate"] == Decimal("0.035")
    assert posted.cleaned_data["fiscal_year_start_month"] == 1
    assert posted.cleaned_data["fiscal_year_label"] == "end_year"
    assert posted.cleaned_data["capitalisation_threshold"] == Decimal(5000)
