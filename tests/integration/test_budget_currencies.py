"""Cost lines entered in another currency and a rate per fiscal year, by hand-computed cases:
each month converted at its rate and rounded to the cent once, the fiscal years, totals and NPV
following; the rates listed in the budget's `exchange_rates`, pinned in versions; the page saying
them beside the amounts."""

from datetime import date
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from apps.budget.kept import version_budget
from apps.budget.models import CostLine
from apps.exchange.models import EcbRate
from tests.factories import load_ecb, make_manager, make_project, make_scenario
from tests.integration.test_api_projects import client_for

pytestmark = pytest.mark.django_db

USD_EUR = Decimal("0.8757334267")  # the ECB's of 2 June 2025: 1 / 1.1419
CHF_EUR = Decimal("1.0711225364")  # 1 / 0.9336


@pytest.fixture
def ecb():
    load_ecb()


def _euro_project(owner, **fields):
    return make_project(
        owner,
        "Traduction",
        currency="EUR",
        rate_date=date(2025, 6, 2),
        period_start=date(2026, 1, 1),
        period_end=date(2027, 12, 31),
        **fields,
    )


def _line(scenario, name, currency, unit_price, recurrence="monthly", start=date(2026, 1, 1)):
    return CostLine.objects.create(
        scenario=scenario,
        name=name,
        kind="licence",
        quantity=1,
        unit="seat",
        unit_price=Decimal(unit_price),
        currency=currency,
        recurrence=recurrence,
        start=start,
        category=7,
    )


def _budget(owner, scenario) -> dict:
    answer = client_for(owner).get(f"/api/v1/scenarios/{scenario.pk}/budget/")
    assert answer.status_code == 200, answer.json()
    return answer.json()


def _row(body: dict, name: str) -> dict:
    return next(line for line in body["lines"] if line["name"] == name)


def _assert_totals_and_npv_follow_the_lines(body: dict) -> None:
    """Each year's total is the sum of its lines (no contingency, no indirect costs), the NPV
    at 3.5 % the years' totals discounted: year 0 as it is, year 1 divided by 1.035."""
    years = [
        sum((Decimal(line["amounts"][year]) for line in body["lines"]), Decimal(0))
        for year in range(2)
    ]
    assert [Decimal(total) for total in body["totals"]["total"]] == years
    npv = (years[0] + years[1] / Decimal("1.035")).quantize(Decimal("0.01"))
    assert Decimal(body["summary"]["npv"]) == npv


def test_a_line_in_francs_is_converted_month_by_month_at_the_rate_date(ecb, owner):
    scenario = make_scenario(_euro_project(owner), is_baseline=True)
    _line(scenario, "Swiss licence", "CHF", "1200")
    body = _budget(owner, scenario)
    row = _row(body, "Swiss licence")
    # 1 200 CHF × 1.0711225364 = 1 285.347… EUR a month, 1 285.35 to the cent; 12 a year.
    assert row["amounts"] == ["15424.20", "15424.20"]
    assert row["currency"] == "CHF"
    _assert_totals_and_npv_follow_the_lines(body)
    rates = {(r["from"], r["to"]): r for r in body["exchange_rates"]}
    assert rates[("CHF", "EUR")]["rate"] == str(CHF_EUR)
    assert rates[("CHF", "EUR")]["date"] == "2025-06-02"


def test_a_fiscal_years_own_rate_converts_that_years_dollars_and_the_npv_follows(ecb, owner):
    project = _euro_project(owner, fiscal_year_rates={"FY2027": "0.95"})
    scenario = make_scenario(project, is_baseline=True)
    _line(scenario, "Cloud support", "USD", "100")
    _line(scenario, "Audit", "USD", "1000", recurrence="one_off", start=date(2027, 3, 1))
    _line(scenario, "Staff", "", "5000")
    body = _budget(owner, scenario)
    # FY2026 at the rate date: 100 × 0.8757334267 = 87.57 a month; FY2027 at 0.95: 95.00.
    assert _row(body, "Cloud support")["amounts"] == ["1050.84", "1140.00"]
    assert _row(body, "Audit")["amounts"] == ["0.00", "950.00"]
    assert _row(body, "Staff")["amounts"] == ["60000.00", "60000.00"]  # in euros already
    _assert_totals_and_npv_follow_the_lines(body)
    [prices, fy2027] = [r for r in body["exchange_rates"] if r["from"] == "USD"]
    assert (prices["rate"], prices.get("fiscal_year")) == (str(USD_EUR), None)
    assert (fy2027["rate"], fy2027["fiscal_year"], fy2027["source"]) == (
        "0.95",
        "FY2027",
        "fiscal_year",
    )


def test_the_estimates_compute_follows_each_fiscal_years_rate(ecb, owner):
    plain = make_scenario(_euro_project(owner), is_baseline=True)
    own = make_scenario(
        _euro_project(owner, fiscal_year_rates={"FY2027": "0.95"}), is_baseline=True
    )
    before, after = _budget(owner, plain), _budget(owner, own)
    assert after["totals"]["total"][0] == before["totals"]["total"][0]
    expected = Decimal(before["totals"]["total"][1]) * Decimal("0.95") / USD_EUR
    # Each month is converted and rounded to the cent once: within a cent a month.
    assert abs(Decimal(after["totals"]["total"][1]) - expected) <= Decimal("0.12")
    assert Decimal(after["totals"]["total"][1]) > Decimal(before["totals"]["total"][1])


def test_a_version_keeps_the_rates_of_its_lines_and_years(ecb, owner):
    project = _euro_project(owner, fiscal_year_rates={"FY2027": "0.95"})
    scenario = make_scenario(project, is_baseline=True)
    _line(scenario, "Swiss licence", "CHF", "1200")
    scenario.refresh_from_db()
    version = scenario.versions.get(number=scenario.version)
    kept = version_budget(version)
    EcbRate.objects.filter(currency="CHF").update(per_euro=Decimal("2"))
    project.fiscal_year_rates = {"FY2027": "0.5"}
    project.save()
    assert version_budget(scenario.versions.get(number=version.number)) == kept


def test_a_cost_lines_currency_goes_through_the_api_and_a_currency_without_rate_is_refused(
    ecb, owner
):
    scenario = make_scenario(_euro_project(owner), is_baseline=True)
    api = client_for(owner)
    url = f"/api/v1/scenarios/{scenario.pk}/cost-lines/"
    line = {
        "name": "Swiss licence",
        "kind": "licence",
        "quantity": 1,
        "unit": "seat",
        "unit_price": "1200.00",
        "recurrence": "monthly",
        "start": "2026-01-01",
        "category": 7,
    }
    created = api.post(url, {**line, "currency": "CHF"}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["currency"] == "CHF"
    plain = api.post(url, {**line, "name": "Staff"}, format="json")
    assert plain.json()["currency"] == "EUR"  # the project's, by default
    refused = api.post(url, {**line, "currency": "NGN"}, format="json")
    assert refused.status_code == 400 and "currency" in refused.json()


def test_the_project_api_takes_rates_per_fiscal_year_and_refuses_them_in_dollars(ecb, owner):
    api = client_for(owner)
    project = _euro_project(owner)
    answer = api.patch(
        f"/api/v1/projects/{project.pk}/", {"fiscal_year_rates": {"FY2027": "0.95"}}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    project.refresh_from_db()
    assert project.fiscal_year_rates == {"FY2027": "0.95"}
    dollars = make_project(owner, "Dollars")
    refused = api.patch(
        f"/api/v1/projects/{dollars.pk}/", {"fiscal_year_rates": {"FY2027": "1.1"}}, format="json"
    )
    assert refused.status_code == 400 and "fiscal_year_rates" in refused.json()


def test_only_the_owner_is_offered_the_fiscal_years_rates(ecb, owner):
    """The page that gives a fiscal year its own rate is the owner's, as the project's other
    settings: a collaborator reading the budget is not sent to a page that refuses them."""
    project = _euro_project(owner)
    scenario = make_scenario(project)
    colleague = make_manager("colleague")
    project.collaborators.add(colleague)
    link = reverse("fiscal-year-rates", args=[scenario.pk])
    page = reverse("scenario-budget-page", kwargs={"scenario_id": scenario.pk})
    for user, offered in ((owner, True), (colleague, False)):
        client = Client()
        client.force_login(user)
        answer = client.get(page)
        assert answer.status_code == 200
        assert (link in answer.content.decode()) is offered
        assert client.get(link).status_code == (200 if offered else 403)


def test_a_dollar_project_refuses_a_fiscal_years_rate_on_the_page(owner):
    """A project in US dollars has no rate to give: the page says so beside the form rather
    than failing (the refusal is the project's field's, which the form has no field for)."""
    scenario = make_scenario(make_project(owner, "Dollars"))
    client = Client()
    client.force_login(owner)
    answer = client.post(reverse("fiscal-year-rates", args=[scenario.pk]), {"year_0": "0.9"})
    assert answer.status_code == 200
    assert "no rate converts them" in answer.content.decode()
    scenario.project.refresh_from_db()
    assert not scenario.project.fiscal_year_rates


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en-gb", "An exchange rate must be more than 0."),
        ("fr", "Un taux de change doit être supérieur à 0."),
    ],
)
def test_a_fiscal_years_rate_of_0_is_refused_beside_it_in_the_readers_language(
    ecb, owner, language, said
):
    """The page's rate field says what the API says of a rate of 0, not DRF's or Django's
    "greater than or equal to 1E-10", and keeps the project's rates as they were."""
    scenario = make_scenario(_euro_project(owner))
    client = Client(headers={"accept-language": language})
    client.force_login(owner)
    answer = client.post(reverse("fiscal-year-rates", args=[scenario.pk]), {"year_0": "0"})
    assert answer.status_code == 200
    assert said in answer.content.decode()
    assert "1E-10" not in answer.content.decode()
    scenario.project.refresh_from_db()
    assert not scenario.project.fiscal_year_rates
