"""Each option reports the staff assumed: none unless given (no published figure gives it);
given, a monthly staff line in the option's budget, in its total and net present value."""

import pytest

pytestmark = pytest.mark.django_db

INFERENCE = {
    "method": "accelerator_seconds",
    "accelerator_seconds_per_request": 2,
    "accelerator": "nvidia-h100-sxm",
    "requests_per_month": 100_000,
    "months": 12,
}
BUDGET = {
    "period_start": "2027-01-01",
    "period_end": "2027-12-31",
    "service_start": "2027-01-01",
    "discount_rate": "0",
}


def compare(api_client, options, status=200):
    body = {"inference": INFERENCE, "budget": BUDGET, "options": options}
    response = api_client.post("/api/v1/options/", body, format="json")
    assert response.status_code == status, response.json()
    return response.json()


def test_staff_given_is_a_monthly_line_in_the_total(api_client):
    without = compare(api_client, [{"key": "rent_pay_per_use"}])["options"][0]
    assert without["staff"] == {"fte": None, "cost": None, "basis": "not_included"}
    given = {"key": "rent_pay_per_use", "staff_fte": 0.5, "staff_cost_per_fte_year": 120_000}
    with_staff = compare(api_client, [given])["options"][0]
    # 0.5 FTE × 120,000 USD a year ÷ 12 = 5,000 USD a month, for the 12 months of 2027.
    assert with_staff["staff"] == {"fte": 0.5, "cost": "60000.00", "basis": "given"}
    assert float(with_staff["total"]) == pytest.approx(float(without["total"]) + 60_000)
    assert float(with_staff["npv"]) == pytest.approx(float(without["npv"]) + 60_000)


def test_staff_needs_its_cost_and_is_not_negative(api_client):
    data = compare(api_client, [{"key": "own", "staff_fte": 1}], status=400)
    assert "staff_cost_per_fte_year" in str(data)
    data = compare(
        api_client, [{"key": "own", "staff_fte": -1, "staff_cost_per_fte_year": 1}], status=400
    )
    assert "staff_fte" in str(data)


def test_the_decision_page_has_a_staff_column(client):
    from tests.factories import make_manager, make_project, make_scenario

    owner = make_manager("owner")
    scenario = make_scenario(make_project(owner), inputs={"inference": INFERENCE})
    client.force_login(owner)
    html = client.get(f"/scenarios/{scenario.pk}/options/").content.decode()
    assert '<th scope="col">Staff assumed <a class="term-link"' in html
    assert html.count("<td>not given</td>") == html.count(">Use this option</button>") >= 3
