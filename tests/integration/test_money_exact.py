"""Every amount a cost line accepts is stored and read back exactly, on the database in use
(SQLite locally, PostgreSQL in CI): SQLite keeps a decimal column as a float, exact to 15
significant digits, so an amount is at most 15 digits and a longer one is refused at its field."""

from datetime import date
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from apps.budget.models import AMOUNT_DIGITS, AMOUNT_PLACES, CostLine
from apps.budget.services import cost_line_create
from apps.projects.models import ScenarioVersion
from tests.factories import make_project, make_scenario
from tests.integration.test_api_projects import client_for

pytestmark = pytest.mark.django_db

LARGEST = Decimal("99999999999.9999")  # 15 digits, 4 after the point
SMALLEST_STEP = Decimal("0.0001")
LINE = {
    "name": "Licence",
    "kind": "licence",
    "unit": "seat",
    "recurrence": "one_off",
    "start": "2026-03-01",
    "category": 7,
}


@pytest.fixture
def scenario(owner):
    project = make_project(
        owner, "Exact money", period_start=date(2026, 1, 1), period_end=date(2026, 12, 31)
    )
    return make_scenario(project, "Pilot", is_baseline=True)


def lines_url(scenario) -> str:
    return f"/api/v1/scenarios/{scenario.pk}/cost-lines/"


def test_the_largest_amount_is_fifteen_digits_with_four_after_the_point():
    assert (AMOUNT_DIGITS, AMOUNT_PLACES) == (15, 4)
    assert len(LARGEST.as_tuple().digits) == AMOUNT_DIGITS


@pytest.mark.parametrize("amount", ["0.0000", "0.0001", "1.0000", "99999999999.9999"])
def test_the_boundaries_written_through_the_api_read_back_exactly(owner, scenario, amount):
    api = client_for(owner)
    created = api.post(
        lines_url(scenario), {**LINE, "quantity": 1, "unit_price": amount}, format="json"
    )
    assert created.status_code == 201, created.json()
    line_url = f"{lines_url(scenario)}{created.json()['id']}/"
    assert api.get(line_url).json()["unit_price"] == amount
    assert CostLine.objects.get(pk=created.json()["id"]).unit_price == Decimal(amount)
    # The version the write saved re-reads the line and keeps it as text, exactly.
    version = ScenarioVersion.objects.get(scenario=scenario, number=2)
    assert version.budget["cost_lines"][0]["unit_price"] == amount


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("unit_price", "999999999999.9999"),  # the probe's value: 16 digits
        ("unit_price", "100000000000"),
        ("unit_price", "0.00001"),
        ("quantity", 999999999999.9999),
        ("quantity", 1e15),
    ],
)
def test_an_amount_beyond_what_is_stored_exactly_is_refused_at_its_field(
    owner, scenario, field, value
):
    body = {**LINE, "quantity": 1, "unit_price": "1.00", field: value}
    response = client_for(owner).post(lines_url(scenario), body, format="json")
    assert response.status_code == 400
    assert list(response.json()) == [field]
    assert not CostLine.objects.exists()


amounts = st.decimals(
    min_value=0, max_value=LARGEST, places=AMOUNT_PLACES, allow_nan=False, allow_infinity=False
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(quantity=amounts, unit_price=amounts)
@example(quantity=LARGEST, unit_price=LARGEST)
@example(quantity=SMALLEST_STEP, unit_price=Decimal("12345678901.2345"))
@example(quantity=Decimal("9999999999.9999"), unit_price=Decimal("0.1000"))
def test_any_accepted_amount_reads_back_exactly_from_the_database(scenario, quantity, unit_price):
    line = CostLine(scenario=scenario, **{**LINE, "start": date(2026, 3, 1)})
    line.quantity, line.unit_price = quantity, unit_price
    line.full_clean()
    line.save()
    line.refresh_from_db()
    assert (line.quantity, line.unit_price) == (quantity, unit_price)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(amount=st.decimals(min_value=0, max_value=Decimal("999999999999.9999"), places=4))
@example(amount=Decimal("999999999999.9999"))
@example(amount=LARGEST)
def test_the_api_stores_a_unit_price_exactly_or_refuses_it_at_its_field(owner, scenario, amount):
    api = client_for(owner)
    body = {**LINE, "quantity": 1, "unit_price": f"{amount:f}"}
    response = api.post(lines_url(scenario), body, format="json")
    if amount > LARGEST:
        assert response.status_code == 400
        assert list(response.json()) == ["unit_price"]
        return
    assert response.status_code == 201, response.content
    read = api.get(f"{lines_url(scenario)}{response.json()['id']}/").json()
    assert Decimal(read["unit_price"]) == amount
    assert CostLine.objects.get(pk=read["id"]).unit_price == amount


def test_the_largest_amounts_save_a_version_through_the_service(scenario):
    fields = {**LINE, "start": date(2026, 3, 1), "quantity": LARGEST, "unit_price": LARGEST}
    line = cost_line_create(scenario=scenario, fields=fields)
    line.refresh_from_db()
    assert (line.quantity, line.unit_price) == (LARGEST, LARGEST)
    version = ScenarioVersion.objects.get(scenario=scenario, number=2)
    assert version.budget["cost_lines"][0]["unit_price"] == str(LARGEST)
