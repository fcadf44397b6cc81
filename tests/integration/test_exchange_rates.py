"""Exchange rates: the ECB's euro reference rates of given dates (a weekday, a weekend that falls
back, a currency without a rate refused), treaty pegs, an organisation's rates first, the
exchange-rates API, and a project's figures in its currency (NPV in euros = NPV in dollars ×
the rate), pinned in its versions."""

import io
import zipfile
from datetime import date
from decimal import Decimal

import pytest
from django.core.management import call_command
from django.utils import translation

from apps.exchange.management.commands.load_ecb_rates import ecb_rates
from apps.exchange.models import EcbRate, OrganisationRate, RateTable
from apps.exchange.rates import RateUnavailable, exchange_rate
from apps.projects.versions import version_estimate
from apps.sharing.services import share_link_create
from tests.factories import SEED_000_TRAINING, load_ecb, make_project, make_scenario
from tests.integration.test_api_projects import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def ecb():
    load_ecb()


def test_a_weekdays_rate_is_the_ecbs_of_that_day_crossed_through_the_euro(ecb):
    rate = exchange_rate("USD", "EUR", date(2025, 6, 2))
    assert rate.rate == Decimal("0.8757334267")  # 1 / 1.1419
    assert (rate.date, rate.source, rate.fell_back) == (date(2025, 6, 2), "ecb", False)
    francs = exchange_rate("USD", "CHF", date(2025, 6, 2))
    assert francs.rate == Decimal("0.8175847272")  # 0.9336 / 1.1419


def test_a_weekend_uses_fridays_rate_and_says_so(ecb):
    rate = exchange_rate("USD", "EUR", date(2025, 6, 1))  # a Sunday
    assert rate.rate == Decimal("0.8819119852")  # 1 / 1.1339, of Friday 30 May
    assert (rate.date, rate.asked, rate.fell_back) == (date(2025, 5, 30), date(2025, 6, 1), True)


def test_a_currency_without_any_rate_is_refused_with_a_message_naming_it(ecb):
    with pytest.raises(RateUnavailable) as refused:
        exchange_rate("USD", "NGN", date(2025, 6, 2))
    assert "NGN" in refused.value.message
    with pytest.raises(RateUnavailable):
        exchange_rate("USD", "EUR", date(2025, 5, 1))  # before the first rate held


def test_the_cfa_francs_are_derived_from_the_euro_at_their_treaty_parity(ecb):
    assert exchange_rate("EUR", "XOF", date(2025, 6, 2)).rate == Decimal("655.957")
    assert exchange_rate("EUR", "XAF", date(2025, 6, 2)).rate == Decimal("655.957")
    dakar = exchange_rate("USD", "XOF", date(2025, 6, 2))
    assert dakar.rate == Decimal("574.4434714073")  # 655.957 / 1.1419
    assert dakar.pegged == ("XOF",)
    assert exchange_rate("EUR", "KMF", date(2025, 6, 2)).rate == Decimal("491.96775")


def test_an_organisations_rate_takes_precedence_from_the_day_it_is_valid(ecb):
    table = RateTable.objects.create(name="UN operational rates", source="treasury.un.org")
    OrganisationRate.objects.create(
        table=table,
        base="usd",
        quote="EUR",
        valid_from=date(2025, 6, 1),
        rate=Decimal("0.9"),
        source="UN operational rates of exchange, June 2025",
        as_of=date(2025, 6, 1),
    )
    OrganisationRate.objects.create(
        table=table,
        base="USD",
        quote="CHF",
        valid_from=date(2025, 6, 1),
        rate=Decimal("0.8"),
        source="UN operational rates of exchange, June 2025",
        as_of=date(2025, 6, 1),
    )
    used = exchange_rate("USD", "EUR", date(2025, 6, 2), table)
    assert (used.rate, used.date, used.source) == (Decimal("0.9"), date(2025, 6, 1), table.name)
    # Crossed through the dollar both are quoted against.
    assert exchange_rate("EUR", "CHF", date(2025, 6, 2), table).rate == Decimal("0.8888888889")
    # Before the table's rate is valid, and for a pair it does not quote, the ECB's.
    assert exchange_rate("USD", "EUR", date(2025, 5, 30), table).source == "ecb"
    assert exchange_rate("USD", "JPY", date(2025, 6, 2), table).source == "ecb"


def _history_zip(path, text: str) -> str:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("eurofxref-hist.csv", text)
    return str(path)


def test_the_loader_reads_the_ecbs_history_file_and_a_second_run_changes_nothing(tmp_path):
    history = _history_zip(
        tmp_path / "hist.zip",
        "Date,USD,JPY,CYP,\n2025-06-02,1.1419,162.98,N/A,\n2025-05-30,1.1339,162.96,N/A,\n",
    )
    out = io.StringIO()
    call_command("load_ecb_rates", file=history, stdout=out)
    call_command("load_ecb_rates", file=history, stdout=out)
    assert EcbRate.objects.count() == 4
    assert EcbRate.objects.get(currency="USD", date=date(2025, 6, 2)).per_euro == Decimal("1.1419")


def test_the_installed_package_ships_the_ecbs_rates_since_1999():
    assert ecb_rates()["USD", date(1999, 1, 4)] == Decimal("1.1789")


def test_the_api_answers_the_rate_in_force_that_day_its_date_and_source(ecb, client):
    body = client.get("/api/v1/exchange-rates/?from=USD&to=EUR&at=2025-06-01").json()
    assert body["from"] == "USD" and body["to"] == "EUR"
    assert (body["rate"], body["date"], body["source"]) == ("0.8819119852", "2025-05-30", "ecb")
    missing = client.get("/api/v1/exchange-rates/?from=USD&to=NGN&at=2025-06-02")
    assert missing.status_code == 404
    assert "NGN" in missing.json()["detail"]


def _euro_project(owner, **fields):
    fields.setdefault("rate_date", date(2025, 6, 2))
    return make_project(
        owner,
        "Traduction",
        currency="EUR",
        period_start=date(2026, 1, 1),
        period_end=date(2027, 12, 31),
        **fields,
    )


def test_a_projects_budget_in_euros_is_the_dollar_budget_times_the_rate(ecb, owner):
    api = client_for(owner)
    dollars = make_project(
        owner, "Translation", period_start=date(2026, 1, 1), period_end=date(2027, 12, 31)
    )
    in_dollars = make_scenario(dollars, is_baseline=True)
    in_euros = make_scenario(_euro_project(owner), is_baseline=True)
    usd = api.get(f"/api/v1/scenarios/{in_dollars.pk}/budget/").json()["summary"]
    eur = api.get(f"/api/v1/scenarios/{in_euros.pk}/budget/").json()["summary"]
    rate = Decimal("0.8757334267")
    assert Decimal(usd["npv"]) > 0
    # Each fiscal year is rounded to the cent once: within a cent a year of the product.
    assert abs(Decimal(eur["npv"]) - Decimal(usd["npv"]) * rate) <= Decimal("0.02")
    assert abs(Decimal(eur["total"]) - Decimal(usd["total"]) * rate) <= Decimal("0.02")


def test_a_scenarios_estimate_answers_in_the_projects_currency_with_the_rate_used(ecb, owner):
    api = client_for(owner)
    scenario = make_scenario(_euro_project(owner, rate_date=None), is_baseline=True)
    body = api.get(f"/api/v1/scenarios/{scenario.pk}/estimate/").json()
    assert body["currency"] == "EUR"
    [used] = body["exchange_rates"]
    assert (used["from"], used["to"], used["source"]) == ("USD", "EUR", "ecb")


def test_a_saved_version_keeps_its_rate_when_the_ecbs_rates_change(ecb, owner):
    scenario = make_scenario(_euro_project(owner), is_baseline=True)
    kept = version_estimate(scenario.versions.get(number=scenario.version))
    assert kept.exchange.rate == Decimal("0.8757334267")
    assert kept.exchange.date == date(2025, 6, 2)
    EcbRate.objects.filter(currency="USD").update(per_euro=Decimal("1.5"))
    again = version_estimate(scenario.versions.get(number=scenario.version))
    assert again.exchange == kept.exchange
    assert again.result == kept.result


def test_a_euro_projects_scenario_page_says_its_rate_and_shows_no_dollar(ecb, owner, client):
    scenario = make_scenario(_euro_project(owner), is_baseline=True)
    client.force_login(owner)
    page = client.get(scenario.get_absolute_url()).content.decode()
    assert "1 USD = 0.8757 EUR (ECB reference rate of 2 June 2025)" in page
    start = page.index('id="comparison"')
    comparison = page[start : page.index("</section>", start)]
    assert "€" in comparison
    assert "$" not in comparison
    # Beside the rate's sentence, only prices quoted in their own currency by the catalogue's
    # notes, each section's notes saying at which rate they were converted.
    quoted = comparison.count("USD per accelerator-hour: the median")
    assert comparison.count("USD") == 1 + quoted + 2 * quoted
    assert (
        comparison.count("Prices in USD converted into EUR at 0.8757334267 EUR per USD.") == quoted
    )


def test_the_project_form_refuses_a_currency_no_rate_converts_into(ecb, owner, client):
    project = _euro_project(owner)
    client.force_login(owner)
    url = f"/projects/{project.pk}/edit/"
    form = client.get(url)
    assert form.status_code == 200
    data = {
        "title": "Traduction",
        "currency": "NGN",
        "classification": project.classification,
        "fiscal_year_start_month": 1,
        "fiscal_year_label": project.fiscal_year_label,
        "capitalisation_threshold": "5000",
        "discount_rate": "0.035",
        "contingency_capex": "0",
        "contingency_opex": "0",
        "indirect_rate": "0",
    }
    refused = client.post(url, data)
    assert "No exchange rate converts US dollars into NGN" in refused.content.decode()
    accepted = client.post(url, {**data, "currency": "XOF", "rate_date": "2025-06-01"})
    assert accepted.status_code == 302
    project.refresh_from_db()
    assert (project.currency, project.rate_date) == ("XOF", date(2025, 6, 1))


def test_a_euro_projects_csv_export_says_its_rate_and_has_its_figures_in_euros(ecb, owner, client):
    project = _euro_project(owner)
    make_scenario(project, is_baseline=True)
    client.force_login(owner)
    with translation.override("fr"):
        client.cookies["django_language"] = "fr"
        response = client.get(f"/projects/{project.pk}/export.csv", HTTP_ACCEPT_LANGUAGE="fr")
    text = b"".join(response.streaming_content if response.streaming else [response.content])
    text = text.decode("utf-8-sig")
    assert response.status_code == 200
    assert "1 USD = 0,8757 EUR (taux de référence de la BCE du 2 juin 2025)" in text
    assert "EUR" in text
    assert "$" not in text


def test_the_stateless_estimate_answers_in_the_currency_asked_for(client):
    # The newest rates held: today's answer uses them, whatever today is.
    load_ecb({date(2025, 6, 2): {"USD": "1.1419"}})
    request = {"training": SEED_000_TRAINING}
    dollars = client.post("/api/v1/estimate/", request, content_type="application/json").json()
    euros = client.post(
        "/api/v1/estimate/", {**request, "currency": "EUR"}, content_type="application/json"
    ).json()
    assert (dollars["currency"], euros["currency"]) == ("USD", "EUR")
    assert "exchange_rates" not in dollars
    [used] = euros["exchange_rates"]
    assert (used["from"], used["to"], used["rate"], used["date"]) == (
        "USD", "EUR", "0.8757334267", "2025-06-02"
    )  # fmt: skip
    usd_cost = Decimal(dollars["training"]["cost"])
    assert abs(Decimal(euros["training"]["cost"]) - usd_cost * Decimal(used["rate"])) <= Decimal(
        "0.01"
    )
    refused = client.post(
        "/api/v1/estimate/", {**request, "currency": "NGN"}, content_type="application/json"
    )
    assert refused.status_code == 400
    assert "NGN" in refused.json()["currency"][0]


def test_a_share_link_shows_the_rate_its_version_froze_after_the_rates_change(ecb, owner, client):
    scenario = make_scenario(_euro_project(owner), is_baseline=True)
    version = scenario.versions.get(number=scenario.version)
    _link, token = share_link_create(subject=version, user=owner, label="Board")
    EcbRate.objects.filter(currency="USD").update(per_euro=Decimal("1.5"))
    page = client.get(f"/s/{token}/").content.decode()
    assert "1 USD = 0.8757 EUR (ECB reference rate of 2 June 2025)" in page
    start = page.index('id="comparison"')
    comparison = page[start : page.index("</section>", start)]
    assert "€" in comparison and "$" not in comparison
