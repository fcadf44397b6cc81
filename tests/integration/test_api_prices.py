"""The API price catalogue: vendored from genai-prices, dated prices, the API and the page."""

import datetime
import json

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.apiprices.loading import PRICES_FILE, api_prices_load
from apps.apiprices.models import ApiModel, ApiPrice
from apps.apiprices.views import PAGE_SIZE
from apps.audit.models import Action, AuditEvent
from tests.factories import make_lab_api_model

pytestmark = pytest.mark.django_db

CONTRACT = {
    "provider",
    "model",
    "slug",
    "input",
    "cached_input",
    "output",
    "valid_from",
    "tiers",
    "checked_on",
    "source_url",
    "catalogue_version",
}


@pytest.fixture
def repriced():
    """A model whose prices changed on 1 March 2026 (input 3 → 2, output 15 → 10, cache added)."""
    model = make_lab_api_model()
    ApiPrice.objects.create(
        api_model=model,
        valid_from=datetime.date(2026, 3, 1),
        input="2",
        cached_input="0.2",
        output="10",
    )
    return model


def test_the_vendored_file_is_the_pinned_genai_prices_release(tmp_path):
    vendored = json.loads(PRICES_FILE.read_text(encoding="utf-8"))
    assert (vendored["source"], vendored["version"], vendored["licence"]) == (
        "genai-prices",
        "0.2.3",
        "MIT",
    )
    output = tmp_path / "prices.json"
    call_command(
        "refresh_api_prices", f"--checked-on={vendored['checked_on']}", f"--output={output}"
    )
    assert json.loads(output.read_text(encoding="utf-8")) == vendored


def test_the_loaded_catalogue_keeps_dated_changes_and_sources():
    # DeepSeek's own API: three prices of deepseek-v4-flash, changed on 17 Aug and 10 Sep 2026.
    flash = ApiModel.objects.get(provider="deepseek", model="deepseek-v4-flash")
    assert flash.source.startswith("https://") and flash.catalogue_version == "genai-prices 0.2.3"
    assert [p.valid_from for p in flash.prices.filter(tier="standard")] == [
        None,
        datetime.date(2026, 8, 17),
        datetime.date(2026, 9, 10),
    ]
    assert str(flash.price_on(datetime.date(2026, 8, 16)).output) == "0.280000"
    # The standard price is the peak-hours rate; the off-peak rate is a tier (corrections.json).
    assert str(flash.price_on(datetime.date(2026, 9, 10)).output) == "1.200000"
    assert str(flash.price_on(datetime.date(2026, 9, 10), "off_peak").output) == "0.600000"


def test_a_second_load_keeps_edits_and_overwrite_resets_them():
    price = ApiPrice.objects.filter(api_model__slug="openai-gpt-4o").order_by("pk").last()
    original = price.output
    ApiPrice.objects.filter(pk=price.pk).update(output="99")
    report = api_prices_load()
    assert report.created == 0 and report.unchanged == ApiModel.objects.count()
    assert ApiPrice.objects.get(pk=price.pk).output == 99
    api_prices_load(overwrite=True)
    reloaded = ApiModel.objects.get(slug="openai-gpt-4o").prices.order_by("pk").last()
    assert reloaded.output == original


def test_the_load_command_reports_and_logs_one_event(capsys):
    ApiPrice.objects.filter(api_model__slug="openai-gpt-4o").update(output="99")
    call_command("load_api_prices", "--overwrite")
    assert capsys.readouterr().out.startswith(f"API prices: 0 created, {ApiModel.objects.count()}")
    event = AuditEvent.objects.filter(action_name=Action.DATA_IMPORTED).latest("pk")
    assert event.object_repr == "API prices" and event.actor is None
    assert event.changes == {"updated": [None, ApiModel.objects.count()]}


def test_the_price_in_force_changes_on_the_day_of_the_change(api_client, repriced):
    def on(day):
        response = api_client.get("/api/v1/api-prices/", {"provider": "example-lab", "at": day})
        assert response.status_code == 200
        [row] = response.json()
        return row

    before, on_the_day = on("2026-02-28"), on("2026-03-01")
    assert (before["input"], before["cached_input"], before["output"]) == ("3", None, "15")
    assert before["valid_from"] is None
    assert (on_the_day["input"], on_the_day["cached_input"], on_the_day["output"]) == (
        "2",
        "0.2",
        "10",
    )
    assert on_the_day["valid_from"] == "2026-03-01"
    assert api_client.get("/api/v1/api-prices/example-lab-model-one/").json() == on("2030-01-01")


def test_a_price_row_has_exactly_the_contract_fields(api_client, repriced):
    [row] = api_client.get("/api/v1/api-prices/", {"model": "model-one"}).json()
    assert set(row) == CONTRACT
    assert row == {
        "provider": "example-lab",
        "model": "Model-One",
        "slug": "example-lab-model-one",
        "input": "2",
        "cached_input": "0.2",
        "output": "10",
        "valid_from": "2026-03-01",
        "tiers": [],
        "checked_on": "2026-12-01",
        "source_url": "https://example.org/pricing",
        "catalogue_version": "genai-prices 0.2.3",
    }


def test_filters_by_provider_and_model_without_regard_to_case(api_client):
    openai = api_client.get("/api/v1/api-prices/", {"provider": "OpenAI"}).json()
    assert len(openai) > 20 and {row["provider"] for row in openai} == {"openai"}
    [gpt4o] = api_client.get(
        "/api/v1/api-prices/", {"provider": "openai", "model": "GPT-4o"}
    ).json()
    assert gpt4o["slug"] == "openai-gpt-4o"
    assert api_client.get("/api/v1/api-prices/", {"provider": "nobody"}).json() == []
    everything = api_client.get("/api/v1/api-prices/").json()
    assert len(everything) > 1500


def test_a_model_priced_only_later_is_not_listed_before_then(api_client, repriced):
    repriced.prices.filter(valid_from=None).delete()
    assert (
        api_client.get(
            "/api/v1/api-prices/", {"provider": "example-lab", "at": "2026-01-01"}
        ).json()
        == []
    )
    response = api_client.get("/api/v1/api-prices/example-lab-model-one/", {"at": "2026-01-01"})
    assert response.status_code == 404


def test_unknown_slug_is_404_and_a_bad_date_400(api_client):
    assert api_client.get("/api/v1/api-prices/no-such-model/").status_code == 404
    response = api_client.get("/api/v1/api-prices/", {"at": "2026-02-30"})
    assert response.status_code == 400
    assert set(response.json()) == {"at"}
    assert api_client.get("/api/v1/api-prices/openai-gpt-4o/", {"at": "soon"}).status_code == 400
    assert api_client.post("/api/v1/api-prices/", {}, format="json").status_code == 405


def test_the_list_runs_a_constant_number_of_queries(api_client):
    with CaptureQueriesContext(connection) as queries:
        api_client.get("/api/v1/api-prices/")
    assert len(queries) <= 2  # models, and their prices in one prefetch


def test_the_catalogue_page_lists_prices_with_their_date_and_source(client, repriced):
    response = client.get("/catalogue/api-prices/", {"provider": "example-lab", "at": "2026-02-01"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Model One" in page and "1 model priced on 1 February 2026" in page
    assert "https://example.org/pricing" in page and "Prices as of 1 Dec 2026" in page
    assert "<td>3</td>" in page and "<td>15</td>" in page and "not published" in page


def test_the_catalogue_page_shows_a_bad_date_beside_the_field_and_keeps_the_rest(client):
    response = client.get("/catalogue/api-prices/", {"provider": "openai", "at": "2026-13-01"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Enter a valid date." in page
    assert "GPT-4o" in page and "Anthropic" in page  # filtered by provider; the choice is kept
    assert 'value="openai" selected' in page


def test_the_catalogue_page_reads_the_prices_of_its_own_models_only(client):
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/catalogue/api-prices/", {"page": "2"})
    assert response.status_code == 200
    assert len(response.context["page"].object_list) == PAGE_SIZE
    assert response.context["page"].paginator.count > 1500
    in_models = '"apiprices_apiprice"."api_model_id" IN ('
    prefetches = [q["sql"] for q in queries if in_models in q["sql"]]
    assert len(prefetches) == 1
    ids = prefetches[0].split(in_models, 1)[1].split(")", 1)[0]
    assert ids.count(",") == PAGE_SIZE - 1  # one id a model


def test_the_catalogue_page_leaves_out_a_model_priced_only_later(client, repriced):
    repriced.prices.filter(valid_from=None).delete()
    query = {"provider": "example-lab"}
    before = client.get("/catalogue/api-prices/", {**query, "at": "2026-02-01"})
    assert before.context["page"].paginator.count == 0
    assert "Model One" not in before.content.decode()
    after = client.get("/catalogue/api-prices/", {**query, "at": "2026-03-01"})
    assert [row.api_model for row in after.context["page"].object_list] == [repriced]
    assert "1 model priced on 1 March 2026" in after.content.decode()
