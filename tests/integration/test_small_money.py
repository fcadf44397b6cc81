"""A request cheaper than a cent shows what it costs ("$0.0017"), never "$0", wherever it is shown.

Seed 000's translation assistant: 2 accelerator-seconds a request at $2.995 an hour is $0.0016639,
which the engine and the API keep to four significant figures below a cent (0.001664; they once
rounded it to 0.00); the cost of 1,000 requests is $1.66.
"""

import io
import re

import pytest
from openpyxl import load_workbook

from apps.reviews.services import project_submit
from apps.sharing.services import share_link_create
from tests.factories import make_front_office, make_project, make_scenario
from tests.integration.test_exports import csv_figure, csv_rows, download, pdf_text, xlsx_figures
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db

PRECISE = '<data value="0.001664">$0.0017</data>'
PER_1000 = '<data value="1.66">$1.66</data>'
# "$0" as a whole figure: not followed by a digit or a decimal point.
ZERO_DOLLARS = re.compile(r"\$0(?![\d.])")


@pytest.fixture
def scenario(owner):
    return make_scenario(make_project(owner, "Translation assistant"), "Pilot", is_baseline=True)


def test_the_api_keeps_four_significant_figures_of_a_cost_below_a_cent(client, owner, scenario):
    client.force_login(owner)
    api = client.get(f"/api/v1/scenarios/{scenario.pk}/estimate/").json()
    per_request = api["inference"]["per_request"]
    assert (per_request["cost"], per_request["cost_per_1000"]) == ("0.001664", "1.66")
    assert api["inference"]["total"]["cost"] == "299.50"  # from a cent up: to the cent


def test_the_stateless_api_keeps_four_significant_figures_in_every_money_field(client):
    request = {
        "inference": {
            "method": "accelerator_seconds",
            "accelerator_seconds_per_request": 2,
            "accelerator": "nvidia-h100-sxm",
            "price_per_accelerator_hour": 2.995,
            "requests_per_month": 1,
            "months": 1,
            "revenue_per_request": 0.0005,
        }
    }
    api = client.post("/api/v1/estimate/", request, content_type="application/json").json()
    inference = api["inference"]
    assert inference["per_request"]["cost"] == "0.001664"
    assert inference["monthly"][0]["cost"] == "0.001664"
    assert inference["total"]["cost"] == "0.001664"
    assert inference["total"]["pay_per_use_cost"] == "0.001664"
    assert inference["revenue_total"] == "0.0005000"


def test_the_budget_books_a_cost_below_a_cent_to_the_cent(client, owner, scenario):
    client.force_login(owner)
    budget = client.get(f"/api/v1/scenarios/{scenario.pk}/budget/").json()
    for line in budget["lines"]:
        assert all(len(amount.partition(".")[2]) == 2 for amount in line["amounts"])


def test_the_scenario_page_shows_a_requests_cost_below_a_cent(client, owner, scenario):
    client.force_login(owner)
    html = client.get(f"/scenarios/{scenario.pk}/?view=single").content.decode()
    assert re.search(
        r'<dt>Cost per request <a class="term-link" href="/glossary/cost-per-request/">.*?</a>'
        rf"</dt><dd>{re.escape(PRECISE)}</dd>",
        html,
    )
    assert re.search(
        r'<dt>Cost per 1,000 requests <a class="term-link" href="/glossary/cost-per-request/">'
        rf".*?</a></dt><dd>{re.escape(PER_1000)}</dd>",
        html,
    )
    assert "<dt>Cost per request</dt><dd>0.001664 USD</dd>" in html  # the exact values
    assert "$0.0017 per request" in html  # the bottom strip
    assert "it costs $0.0017 ($1.66 per 1,000 requests)" in html  # the description
    assert not re.search(r"Cost per request</dt><dd>[^<]*<data[^>]*>\$0<", html)


def test_the_live_preview_shows_a_requests_cost_below_a_cent(client, owner, scenario):
    client.force_login(owner)
    response = client.post(
        f"/scenarios/{scenario.pk}/preview/?view=single", scenario_post(), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert '<strong class="marker-text">$0.0017 per request</strong>' in html
    assert "cost of $0.0017 per request" in html


def test_the_comparison_row_shows_a_requests_cost_below_a_cent(client, owner, scenario):
    wider = make_scenario(scenario.project, "Wider")
    client.force_login(owner)
    html = client.get(
        f"/projects/{scenario.project.pk}/compare/?s={scenario.pk}&s={wider.pk}"
    ).content.decode()
    row = html.split("Cost per request", 1)[1].split("</tr>", 1)[0]
    assert row.count("$0.0017") == 2
    assert not ZERO_DOLLARS.search(row)


def test_the_share_link_and_the_review_page_show_a_requests_cost_below_a_cent(
    client, owner, scenario
):
    version = scenario.versions.get(number=scenario.version)
    _, token = share_link_create(subject=version, user=owner, label="Board")
    shared = client.get(f"/s/{token}/?view=single").content.decode()
    assert PRECISE in shared
    project_submit(project=scenario.project, user=owner)
    client.force_login(make_front_office("fiona"))
    review = client.get(f"/reviews/{scenario.project.pk}/").content.decode()
    assert PRECISE in review and f"({PER_1000} per 1,000)" in review


@pytest.mark.parametrize("via", ["page", "api"])
def test_csv_gives_a_requests_cost_below_a_cent_with_its_digits(owner, scenario, via):
    rows = csv_rows(download(owner, "scenario", scenario, "csv", via))
    assert csv_figure(rows, "Pilot", "inference.per_request.cost") == "0.001664"
    assert csv_figure(rows, "Pilot", "inference.per_request.cost_per_1000") == "1.66"


def test_xlsx_shows_a_requests_cost_below_a_cent_with_its_digits(owner, scenario):
    content = download(owner, "project", scenario.project, "xlsx", "page")
    cell = xlsx_figures(content, "Pilot")["inference.per_request.cost"]
    assert cell.value == 0.001664
    assert cell.number_format == "0.0000"  # 0.0017, as the pages show it
    summary = load_workbook(io.BytesIO(content))["Summary"]
    (pilot,) = [row for row in summary.iter_rows() if row[0].value == "Pilot"]
    assert [c.number_format for c in pilot if c.value == 0.001664] == ["0.0000"]


def test_pdf_shows_a_requests_cost_below_a_cent(owner, scenario):
    text = pdf_text(download(owner, "scenario", scenario, "pdf", "page"))
    lines = text.splitlines()
    assert "$0.0017" in lines  # the inference figures
    assert "0.001664" in lines  # the exact figures table
    assert "$0.0017 per request" in text or "it costs $0.0017" in text
    assert not ZERO_DOLLARS.search(text)
