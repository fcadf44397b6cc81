"""Capacity rented on commitment on the pages: the scenario form's inputs and the figures they
give, the budget's payments and idle memo, the decision page's option committed for a term and
"Use this option", a saved version and its share link, in English and French (issue 23)."""

import datetime

import pytest
from django.utils import translation

from apps.catalogue.resolve import estimate_from_request
from apps.estimates import CommitmentResult, EstimateResult
from apps.estimates.record import dump, load
from apps.projects.models import Scenario
from apps.projects.versions import version_estimate
from apps.sharing.selectors import latest_version
from apps.sharing.services import share_link_create
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_exports import csv_rows, download
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db

# 300,000 requests a month × 2 accelerator-seconds at 3.00 an accelerator-hour: one accelerator
# at the peak, 166.67 busy hours of 730.5 a month.
COMMITTED = {
    "method": "accelerator_seconds",
    "accelerator_seconds_per_request": 2,
    "accelerator": "nvidia-h100-sxm",
    "price_per_accelerator_hour": 3.0,
    "requests_per_month": 300_000,
    "months": 12,
    "provisioning": "committed",
    "commitment_years": 1,
    "upfront_share": 0.5,
    "commitment_discount": 0.4,
}


def form(**overrides) -> dict:
    data = {
        "name": "Committed",
        "training_method": "accelerator_hours",
        "training_precision": "bf16",
        "training_pricing_mode": "rent",
        "inference_enabled": "on",
        "inference_method": "accelerator_seconds",
        "inference_accelerator_seconds_per_request": "2",
        "inference_accelerator": "nvidia-h100-sxm",
        "inference_precision": "bf16",
        "inference_price_per_accelerator_hour": "3",
        "inference_requests_per_month": "300,000",
        "inference_monthly_growth": "0",
        "inference_months": "12",
        "inference_peak_to_average": "1",
        "inference_target_utilization": "70",
        "inference_utilization": "30",
        "inference_provisioning": "committed",
        "inference_commitment_years": "1",
        "inference_upfront_share": "50",
        "inference_commitment_discount": "40",
        "inference_pricing_mode": "rent",
        "inference_lifetime_years": "5",
        "energy_profile": "world-average-grid-industry-pue",
    }
    data.update(overrides)
    return data


@pytest.fixture
def manager(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


@pytest.fixture
def scenario(manager):
    project = make_project(
        manager, period_start=datetime.date(2027, 1, 1), period_end=datetime.date(2028, 12, 31)
    )
    return make_scenario(
        project,
        inputs={"inference": COMMITTED},
        timing={"service_start": datetime.date(2027, 1, 1)},
    )


def test_the_scenario_form_saves_a_commitment_and_the_page_shows_its_figures(
    client, manager, scenario
):
    response = client.post(f"/scenarios/{scenario.pk}/", form())
    assert response.status_code == 302, response.content.decode()[:2000]
    scenario.refresh_from_db()
    inference = scenario.inputs["inference"]
    assert inference["provisioning"] == "committed"
    assert inference["commitment_years"] == 1
    assert inference["upfront_share"] == pytest.approx(0.5)
    assert inference["commitment_discount"] == pytest.approx(0.4)
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "Capacity committed for a term" in html
    # 730.5 h × 12 × 3.00 × 0.6 = 15,778.80: half at the start (7,889.40), 657.45 a month;
    # the page rounds thousands to the unit.
    assert '<data value="7889.40">$7,889</data>' in html and "$657.45" in html
    assert '<data value="15778.80">$15,779</data>' in html
    # (8,766 − 2,000) h × 1.80 = 12,178.80 idle, 6,766 / 8,766 = 77 % of the committed hours.
    assert '<data value="12178.80">$12,179</data>' in html
    assert "77%</data> of the committed hours" in html
    assert "Cost: committed for terms of 12 months" in html
    # The text alternative of the comparison says so too.
    assert (
        "Capacity is committed for terms of 12 months at 40% off on demand and paid whether "
        "used or not: $12,179 of it is left idle."
    ) in html


def test_capacity_paid_otherwise_keeps_no_commitment_inputs(client, manager, scenario):
    client.post(f"/scenarios/{scenario.pk}/", form(inference_provisioning="always_on"))
    scenario.refresh_from_db()
    inference = scenario.inputs["inference"]
    assert inference["provisioning"] == "always_on"
    assert not {"commitment_years", "upfront_share", "commitment_discount"} & set(inference)


def test_a_discount_the_catalogue_does_not_publish_is_asked_for_beside_its_field(
    client, manager, scenario
):
    response = client.post(
        f"/scenarios/{scenario.pk}/",
        form(
            inference_commitment_years="3",
            inference_commitment_discount="",
            inference_commitment_provider="google-cloud",
        ),
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'href="#id_inference_commitment_discount"' in html
    assert "The catalogue has no published discount for Google Cloud, 3-year" in html


def test_the_budget_page_shows_the_upfront_payment_the_monthly_part_and_the_idle_memo(
    client, scenario
):
    html = client.get(f"/scenarios/{scenario.pk}/budget/").content.decode()
    assert "Committed capacity paid upfront" in html
    assert "Committed capacity, monthly payments" in html
    # Fiscal years are calendar years: the upfront 7,889.40 and 12 × 657.45 = 7,889.40 in 2027.
    assert "$7,889.40" in html
    assert "Committed capacity left idle" in html
    assert "$12,178.80" in html  # 12 × (730.5 − 166.67) h × 1.80
    assert "so the threshold rule counts it as capex" in html


def test_the_budget_page_in_french(client, scenario):
    html = client.get(
        f"/scenarios/{scenario.pk}/budget/", HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Capacité engagée payée d’avance" in html
    assert "12\u202f178,80" in html  # French groups digits with a narrow no-break space


def test_the_decision_page_compares_the_option_committed_for_a_term(client, scenario):
    html = client.get(
        f"/scenarios/{scenario.pk}/options/",
        {
            "options": ["rent_pay_per_use", "rent_always_on", "rent_committed"],
            "commitment_years": "1",
            "upfront_share": "100",
            "commitment_discount": "40",
        },
    ).content.decode()
    assert "Self-host on rented accelerators, committed for a term" in html
    assert "When a commitment pays" in html
    assert "when they are busy more than 60% of the committed hours" in html
    assert "when the service runs more than 7.2 months of each 12 months term" in html
    # "Use this option" carries the commitment's terms.
    assert '<input type="hidden" name="upfront_share" value="1.0">' in html
    assert '<input type="hidden" name="commitment_discount" value="0.4">' in html


def test_use_this_option_makes_a_committed_scenario(client, scenario):
    response = client.post(
        f"/scenarios/{scenario.pk}/options/use/",
        {
            "key": "rent_committed",
            "commitment_years": "3",
            "upfront_share": "0",
            "commitment_discount": "0.6",
        },
    )
    assert response.status_code == 302
    made = Scenario.objects.exclude(pk=scenario.pk).get()
    inference = made.inputs["inference"]
    assert (inference["provisioning"], inference["commitment_years"]) == ("committed", 3)
    assert inference["commitment_discount"] == pytest.approx(0.6)


def test_a_saved_version_and_its_share_link_keep_the_commitment(client, manager, scenario):
    version = latest_version(scenario)
    commitment = version_estimate(version).result.inference.commitment
    assert (
        commitment.commitment_cost
        == estimate_from_request({"inference": COMMITTED})[0].inference.commitment.commitment_cost
    )
    _, token = share_link_create(subject=version, user=manager, label="Board")
    client.logout()
    html = client.get(f"/s/{token}/").content.decode()
    assert "Capacity committed for a term" in html and "$15,779" in html
    with translation.override("fr"):
        french = client.get(f"/s/{token}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Capacité engagée pour une durée" in french and "15\u202f779" in french


def test_the_record_codec_keeps_a_commitment_exactly():
    result, _ = estimate_from_request({"inference": COMMITTED})
    assert isinstance(result.inference.commitment, CommitmentResult)
    assert load(dump(result), EstimateResult) == result


def test_the_catalogue_page_lists_the_commitment_discounts_with_their_sources(client):
    html = client.get("/catalogue/").content.decode()
    assert "Commitment discounts" in html
    # AWS, one year, partial upfront: 47 % (evidence U), and the ones no source publishes.
    assert "47%" in html and "none published or offered" in html
    assert "disintermediate.global" in html and "Unverified or conflicting" in html
    french = client.get("/catalogue/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Remises d’engagement" in french and "aucune publiée ni offerte" in french


def test_the_exports_carry_the_commitment_and_when_it_pays(scenario, manager):
    rows = csv_rows(download(manager, "scenario", scenario, "csv", "api"))
    by_field = {row["field"]: row for row in rows}
    # The scenario's commitment, as the estimate API answers it.
    assert by_field["inference.commitment.upfront_per_term"]["value"] == "7889.40"
    assert by_field["inference.commitment.monthly_payment"]["value"] == "657.45"
    assert by_field["inference.commitment.idle_cost"]["value"] == "12178.80"
    # The decision view's option committed for a term, and where it beats the others.
    share = by_field["options.commitment_crossover.busy_share_over_pay_per_use"]
    assert float(share["value"]) == pytest.approx(0.6)
    months = by_field["options.commitment_crossover.service_months_over_always_on"]
    assert float(months["value"]) == pytest.approx(7.2)
    text = " ".join(pdf_text(download(manager, "scenario", scenario, "pdf", "api")).split())
    assert "when they are busy more than 60% of the committed hours" in text
    assert "Capacity committed for a term" in text or "The commitment in all" in text
