"""A sweep of a scenario in a project in euros computes its money in euros, at the rate the
scenario page converts at, pinned when the sweep was made; its page, CSV and API say the
currency and never "$" (issue 23)."""

import csv
import io
from datetime import date
from decimal import Decimal

import pytest
from rest_framework.test import APIClient

from apps.catalogue.resolve import DEFAULT_ENERGY_PROFILE, estimate_from_request
from apps.catalogue.snapshot import Catalogue
from apps.exchange.models import EcbRate
from apps.projects.currency import project_exchange
from apps.projects.models import Project
from apps.sweeps import services
from apps.sweeps.freshness import sweeps_mark_stale
from apps.sweeps.models import Sweep
from tests.factories import make_project, make_scenario
from tests.integration.test_exchange_rates import load_ecb
from tests.integration.test_sweeps_api import run_chunks

pytestmark = pytest.mark.django_db

# 1 USD = 1 / 1.1419 EUR: the ECB's reference rate of 2 June 2025 (1 EUR = 1.1419 USD).
RATE = Decimal(1) / Decimal("1.1419")
DEMAND = {"field": "inference.requests_per_month", "kind": "list", "values": [5_000, 50_000]}
PRICE = {"field": "inference.price_per_accelerator_hour", "kind": "list", "values": [2.0, 4.0]}
CENT = 0.005


@pytest.fixture
def ecb():
    load_ecb()


@pytest.fixture
def api(owner) -> APIClient:
    client = APIClient()
    client.force_authenticate(owner)
    return client


def _project(owner, currency: str):
    return make_project(
        owner,
        f"Translation in {currency}",
        currency=currency,
        rate_date=date(2025, 6, 2),
        period_start=date(2026, 1, 1),
        period_end=date(2027, 12, 31),
    )


def _swept(owner, currency: str, *inputs: dict) -> Sweep:
    scenario = make_scenario(_project(owner, currency))
    sweep = services.sweep_create(
        scenario=scenario, created_by=owner, definition={"inputs": list(inputs)}
    )
    run_chunks(sweep)
    assert sweep.status == Sweep.Status.COMPLETED, sweep.error
    return sweep


def _rows(api, sweep: Sweep) -> list[dict]:
    return api.get(f"/api/v1/sweeps/{sweep.pk}/results/?page_size=100").json()["results"]


def test_each_point_in_euros_is_the_dollar_point_times_the_pinned_rate(
    ecb, owner, api, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        dollars = _swept(owner, "USD", DEMAND, PRICE)
        euros = _swept(owner, "EUR", DEMAND, PRICE)
    assert dollars.exchange is None and dollars.currency == "USD"
    assert euros.currency == "EUR"
    assert euros.exchange_rate.rate == RATE.quantize(Decimal("1e-10"))
    usd_rows, eur_rows = _rows(api, dollars), _rows(api, euros)
    assert len(usd_rows) == len(eur_rows) == 4
    rate = float(euros.exchange_rate.rate)
    for usd, eur in zip(usd_rows, eur_rows, strict=True):
        assert eur["inputs"] == usd["inputs"]  # a varied price is given in dollars, as the form
        for name in ("total_cost", "inference_cost", "training_cost", "cost_per_request"):
            assert eur["figures"][name] == pytest.approx(usd["figures"][name] * rate, abs=CENT)
        # Not money: the same figures in any currency.
        assert eur["figures"]["peak_accelerators"] == usd["figures"]["peak_accelerators"]
    # The price varied from 2 to 4 USD an hour doubles the inference cost, in euros too.
    low, high = eur_rows[0]["figures"], eur_rows[1]["figures"]
    assert high["inference_cost"] == pytest.approx(2 * low["inference_cost"], rel=1e-12)


def test_a_point_is_the_scenario_pages_estimate_in_euros(
    ecb, owner, api, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        sweep = _swept(owner, "EUR", DEMAND)
    scenario = sweep.scenario
    catalogue = Catalogue.from_database()
    exchange = project_exchange(scenario.project, catalogue)
    assert exchange == sweep.exchange_rate
    rows = _rows(api, sweep)
    for row, demand in zip(rows, DEMAND["values"], strict=True):
        request = {**scenario.inputs}
        request["inference"] = {**request["inference"], "requests_per_month": demand}
        result, _ = estimate_from_request(request, catalogue, exchange)
        assert row["figures"]["inference_cost"] == pytest.approx(
            float(result.inference.total.cost), abs=CENT
        )
        assert row["figures"]["training_cost"] == pytest.approx(
            float(result.training.cost), abs=CENT
        )


def test_the_rate_is_pinned_when_the_sweep_is_made(
    ecb, owner, api, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        sweep = _swept(owner, "EUR", DEMAND)
    before = [row["figures"]["total_cost"] for row in _rows(api, sweep)]
    EcbRate.objects.filter(currency="USD").update(per_euro=Decimal("2"))
    # A new run, as a catalogue change starts, computes at the rate the sweep pinned.
    assert sweeps_mark_stale(key=f"energy:{DEFAULT_ENERGY_PROFILE}") == [sweep.pk]
    run_chunks(sweep)
    assert (sweep.run, sweep.results_run, sweep.stale_since) == (2, 2, None)
    assert [row["figures"]["total_cost"] for row in _rows(api, sweep)] == before
    assert api.get(f"/api/v1/sweeps/{sweep.pk}/").json()["exchange_rates"][0]["rate"] == str(
        RATE.quantize(Decimal("1e-10"))
    )


def test_the_api_csv_and_page_say_euros_and_never_dollars(
    ecb, owner, api, client, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        sweep = _swept(owner, "EUR", DEMAND)
    url = f"/api/v1/sweeps/{sweep.pk}/"
    detail = api.get(url).json()
    assert detail["currency"] == "EUR"
    [used] = detail["exchange_rates"]
    assert (used["from"], used["to"], used["date"], used["source"]) == (
        "USD",
        "EUR",
        "2025-06-02",
        "ecb",
    )
    summary = api.get(f"{url}summary/").json()["figures"]
    assert summary["total_cost"]["unit"] == "EUR"
    assert summary["cost_per_request"]["unit"] == "EUR"
    assert summary["training_flop"]["unit"] == "FLOP"
    assert "USD" not in str(summary)

    download = api.get(f"{url}results.csv", HTTP_ACCEPT="text/csv")
    text = b"".join(download.streaming_content).decode("utf-8-sig")
    header = next(csv.reader(io.StringIO(text)))
    assert "Total cost (training + inference) [EUR]" in header
    assert "USD" not in ",".join(header)

    client.force_login(owner)
    page = client.get(sweep.get_absolute_url()).content.decode()
    assert "1 USD = 0.8757 EUR (ECB reference rate of 2 June 2025)" in page
    results = page[page.index('id="sweep-results"') :]
    assert "€" in results
    assert "$" not in results and "USD" not in results


def test_a_dollar_projects_sweep_lists_no_rate(
    owner, api, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        sweep = _swept(owner, "USD", DEMAND)
    detail = api.get(f"/api/v1/sweeps/{sweep.pk}/").json()
    assert (detail["currency"], detail["exchange_rates"]) == ("USD", [])
    assert api.get(f"/api/v1/sweeps/{sweep.pk}/summary/").json()["figures"]["total_cost"][
        "unit"
    ] == ("USD")


def test_a_project_in_a_currency_without_a_rate_cannot_sweep(ecb, owner, api):
    scenario = make_scenario(_project(owner, "EUR"))
    # A day before the first rate held: none converts dollars into euros, refused as the
    # scenario page refuses it, never swept at zero.
    Project.objects.filter(pk=scenario.project_id).update(rate_date=date(2025, 5, 1))
    response = api.post(
        f"/api/v1/scenarios/{scenario.pk}/sweeps/", {"inputs": [DEMAND]}, format="json"
    )
    assert response.status_code == 400
    assert "needs attention first" in str(response.json())
    assert not Sweep.objects.exists()
