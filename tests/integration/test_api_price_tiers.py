"""API price tiers (issue 20): the standard price is the one in force; DeepSeek's off-peak discount
and Gemini's price above 200,000 prompt tokens are dated tiers a user chooses (the API, the
estimate, the scenario form, the API-prices page), and the vendored DeepSeek rows are corrected."""

import datetime
import json
from decimal import Decimal

import pytest

from apps.apiprices.loading import PRICES_FILE, api_prices_load
from apps.apiprices.models import ApiModel, ApiPrice
from apps.apiprices.vendoring import CORRECTIONS_FILE
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db
ESTIMATE = "/api/v1/estimate/"


def prices(slug: str, day: str, tier: str = "standard") -> tuple[str, str, str] | None:
    price = ApiModel.objects.get(slug=slug).price_on(datetime.date.fromisoformat(day), tier)
    if price is None:
        return None
    return tuple(
        f"{value.normalize():f}" for value in (price.input, price.cached_input, price.output)
    )


@pytest.mark.parametrize("slug", ["deepseek-deepseek-chat", "deepseek-deepseek-reasoner"])
def test_deepseeks_night_discount_is_a_tier_not_the_price(slug):
    standard_before = {
        "deepseek-deepseek-chat": ("0.27", "0.07", "1.1"),
        "deepseek-deepseek-reasoner": ("0.55", "0.14", "2.19"),
    }[slug]
    # Before the discount existed (26 Feb 2025), during it, and after DeepSeek's 5 Sep 2025 list.
    assert prices(slug, "2025-02-01") == standard_before
    assert prices(slug, "2025-02-01", "off_peak") is None
    assert prices(slug, "2025-06-01") == standard_before
    assert prices(slug, "2025-06-01", "off_peak") == ("0.135", "0.035", "0.55")
    # The change takes effect on 5 September 2025 (16:00 UTC), not a day later.
    assert prices(slug, "2025-09-04") == standard_before
    assert prices(slug, "2025-09-05") == ("0.56", "0.07", "1.68")
    assert prices(slug, "2025-09-05", "off_peak") is None  # the discount ended with that list
    assert prices(slug, "2025-10-01") == ("0.28", "0.028", "0.42")  # V3.2-Exp, 29 Sep 2025


def test_deepseek_v4_is_at_its_peak_rate_with_the_off_peak_half_as_a_tier():
    assert prices("deepseek-deepseek-v4-pro", "2026-08-16") == ("0.435", "0.003625", "0.87")
    assert prices("deepseek-deepseek-v4-pro", "2026-08-16", "off_peak") is None
    assert prices("deepseek-deepseek-v4-pro", "2026-09-01") == ("1.32", "0.044", "3.96")
    assert prices("deepseek-deepseek-v4-pro", "2026-09-01", "off_peak") == ("0.66", "0.022", "1.98")
    assert prices("deepseek-deepseek-v4-flash", "2026-09-01") == ("0.44", "0.014", "1.32")
    assert prices("deepseek-deepseek-v4-flash", "2026-09-10", "off_peak") == (
        "0.15",
        "0.003",
        "0.6",
    )


def test_gemini_2_5_pro_has_its_price_above_200000_prompt_tokens_as_a_tier():
    pro = ApiModel.objects.get(slug="google-gemini-2-5-pro")
    long_prompt = pro.price_on(datetime.date(2026, 12, 1), "long_prompt")
    assert long_prompt.above_input_tokens == 200_000
    assert (long_prompt.input, long_prompt.cached_input, long_prompt.output) == (
        Decimal("2.5"),
        Decimal("0.25"),
        Decimal("15"),
    )
    assert prices("google-gemini-2-5-pro", "2026-12-01") == ("1.25", "0.125", "10")


def test_the_vendored_file_carries_the_corrected_rows_and_says_why():
    vendored = json.loads(PRICES_FILE.read_text(encoding="utf-8"))
    corrections = json.loads(CORRECTIONS_FILE.read_text(encoding="utf-8"))
    rows = {m["slug"]: m for p in vendored["providers"] for m in p["models"]}
    for fix in corrections["models"]:
        row = rows[fix["slug"]]
        assert row["prices"] == fix["prices"] and row["tier_prices"] == fix["tier_prices"]
        assert row["notes"].startswith("Corrected in this catalogue:")
        assert "api-docs.deepseek.com" in fix["source"]


def test_a_database_loaded_from_the_earlier_file_gets_the_corrected_rows_but_keeps_edits():
    chat, reasoner = (
        ApiModel.objects.get(slug=slug)
        for slug in ("deepseek-deepseek-chat", "deepseek-deepseek-reasoner")
    )
    # What the earlier file shipped: the discount as the only price.
    for model in (chat, reasoner):
        model.prices.all().delete()
        ApiPrice.objects.create(api_model=model, input="0.135", cached_input="0.035", output="0.55")
    # A catalogue editor changed the reasoner's row since: it is kept.
    reasoner.prices.update(output="0.6")
    report = api_prices_load()
    assert report.corrected == 1
    assert prices("deepseek-deepseek-chat", "2025-06-01") == ("0.27", "0.07", "1.1")
    assert prices("deepseek-deepseek-reasoner", "2025-06-01") == ("0.135", "0.035", "0.6")


def test_the_price_list_api_names_each_models_tiers(api_client):
    [row] = api_client.get(
        "/api/v1/api-prices/",
        {"provider": "deepseek", "model": "deepseek-chat", "at": "2025-06-01"},
    ).json()
    assert (row["input"], row["output"]) == ("0.27", "1.1")
    assert row["tiers"] == [
        {
            "tier": "off_peak",
            "above_input_tokens": None,
            "input": "0.135",
            "cached_input": "0.035",
            "output": "0.55",
            "valid_from": "2025-02-26",
        }
    ]
    gemini = api_client.get("/api/v1/api-prices/google-gemini-2-5-pro/").json()
    assert [(t["tier"], t["above_input_tokens"]) for t in gemini["tiers"]] == [
        ("long_prompt", 200000)
    ]


def estimate(client, inference: dict, language: str = "en"):
    body = {
        "inference": {
            "method": "external_api",
            "input_tokens": 1_000_000,
            "output_tokens": 1_000_000,
            "requests_per_month": 1,
            "months": 1,
            **inference,
        }
    }
    return client.post(
        ESTIMATE,
        data=json.dumps(body),
        content_type="application/json",
        headers={"accept-language": language},
    )


def per_request(response) -> Decimal:
    assert response.status_code == 200, response.content
    return Decimal(response.json()["inference"]["per_request"]["cost"])


def test_the_estimate_uses_the_chosen_tiers_prices(api_client):
    gemini = {"api_model": "google-gemini-2-5-pro"}
    # A million input and a million output tokens: input + output price per million.
    assert per_request(estimate(api_client, gemini)) == Decimal("11.25")
    long_prompt = estimate(api_client, {**gemini, "api_price_tier": "long_prompt"})
    assert per_request(long_prompt) == Decimal("17.5")
    notes = " ".join(long_prompt.json()["inference"]["assumptions"])
    assert "above 200,000 tokens" in notes


def test_a_tier_the_model_lacks_is_refused_naming_the_tiers_it_has(api_client):
    response = estimate(
        api_client, {"api_model": "google-gemini-2-5-pro", "api_price_tier": "off_peak"}
    )
    assert response.status_code == 400
    errors = response.json()["inference"]
    assert list(errors) == ["api_price_tier"]
    [message] = errors["api_price_tier"]
    assert "Gemini 2.5 Pro has no 'off_peak' price on " in message
    assert message.endswith("choose one of its price tiers: standard, long_prompt.")


def test_a_tier_without_an_api_model_is_refused_and_an_unknown_tier_is_a_choice_error(
    api_client,
):
    prices_given = {
        "price_per_million_input_tokens": 1,
        "price_per_million_output_tokens": 2,
        "api_price_tier": "off_peak",
    }
    response = estimate(api_client, prices_given)
    assert response.status_code == 400
    assert list(response.json()["inference"]) == ["api_price_tier"]
    response = estimate(api_client, {"api_model": "openai-gpt-4o", "api_price_tier": "night"})
    assert response.status_code == 400
    assert "api_price_tier" in response.json()["inference"]


def test_the_tier_refusal_is_in_french_for_a_french_reader(api_client):
    response = estimate(
        api_client,
        {"api_model": "google-gemini-2-5-pro", "api_price_tier": "off_peak"},
        language="fr",
    )
    [message] = response.json()["inference"]["api_price_tier"]
    assert "n’a pas de prix 'off_peak'" in message and "paliers de prix" in message


def test_the_api_prices_page_shows_the_tiers_in_english_and_french(client):
    query = {"provider": "deepseek", "model": "deepseek-chat", "at": "2025-06-01"}
    page = client.get("/catalogue/api-prices/", query).content.decode()
    assert "Other price tiers (input / cached input / output)" in page
    assert "Off-peak discount (<code>off_peak</code>): 0.135 / 0.035 / 0.55" in page
    gemini = client.get(
        "/catalogue/api-prices/", {"provider": "google", "model": "gemini-2.5-pro"}
    ).content.decode()
    assert "Prompts above 200,000 tokens (<code>long_prompt</code>): 2.5 / 0.25 / 15" in gemini
    french = client.get(
        "/catalogue/api-prices/", query, headers={"accept-language": "fr"}
    ).content.decode()
    assert "Remise heures creuses (<code>off_peak</code>)" in french
    assert "depuis le 26 févr. 2025" in french


def test_the_scenario_form_offers_the_tier_saves_it_and_refuses_one_the_model_lacks(client):
    manager = make_manager("maria")
    client.force_login(manager)
    scenario = make_scenario(make_project(manager))
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert 'name="inference_api_price_tier"' in html
    assert '<option value="long_prompt">Long-prompt price</option>' in html
    fields = {
        "training_enabled": "",
        "inference_method": "external_api",
        "inference_api_model": "google-gemini-2-5-pro",
        "inference_input_tokens": "300000",
        "inference_output_tokens": "500",
        "inference_requests_per_month": "1000",
    }
    response = client.post(
        f"/scenarios/{scenario.pk}/",
        scenario_post(**fields, inference_api_price_tier="long_prompt"),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    scenario.refresh_from_db()
    assert scenario.inputs["inference"]["api_price_tier"] == "long_prompt"
    response = client.post(
        f"/scenarios/{scenario.pk}/", scenario_post(**fields, inference_api_price_tier="off_peak")
    )
    assert response.status_code == 200
    assert "choose one of its price tiers: standard, long_prompt." in response.content.decode()


def test_a_prompt_above_the_long_prompt_threshold_at_the_standard_price_says_so(api_client):
    response = estimate(api_client, {"api_model": "google-gemini-2-5-pro"})
    notes = " ".join(response.json()["inference"]["assumptions"])
    assert "Prompts of 1,000,000 input tokens are above 200,000" in notes
    short = estimate(api_client, {"api_model": "google-gemini-2-5-pro", "input_tokens": 1000})
    assert "long-prompt price tier" not in " ".join(short.json()["inference"]["assumptions"])
