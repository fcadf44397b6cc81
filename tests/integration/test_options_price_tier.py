"""The decision page and the options API choose the external API's price tier (issue 20):
standard unless the user or the scenario says otherwise (DeepSeek's off-peak discount, Gemini's
long-prompt price), and say which tier each API option is priced at, with its date."""

import pytest
from django.utils import timezone

from apps.apiprices.loading import api_prices_load
from apps.apiprices.models import ApiModel
from apps.options.kept import OptionRow
from apps.words.dates import date_text
from tests.factories import TRANSLATION_INFERENCE, make_project, make_scenario
from tests.html_tree import parse

pytestmark = pytest.mark.django_db

V4_PRO = "deepseek-deepseek-v4-pro"  # an off-peak tier at half its standard price


@pytest.fixture
def scenario(owner):
    api_prices_load()
    project = make_project(owner, "Translation assistant")
    return make_scenario(project, "Wider use", inputs={"inference": TRANSLATION_INFERENCE})


def price_since(slug: str, tier: str):
    return ApiModel.objects.get(slug=slug).price_on(timezone.localdate(), tier).valid_from


def external_api(response) -> OptionRow:
    (option,) = [row for row in response.context["rows"] if row.key == "external_api"]
    return option


def api_row_header(html: str) -> str:
    (header,) = parse(html).find_all(lambda e: e.attrs.get("id") == "option-external_api")
    return header.text()


def test_the_page_says_the_api_option_is_at_the_standard_price_and_since_when(
    client, owner, scenario
):
    client.force_login(owner)
    response = client.get(f"/scenarios/{scenario.pk}/options/")
    price = external_api(response).api_price
    assert price.api_model == "openai-gpt-4o-mini"
    assert price.tier == "standard"
    since = price_since("openai-gpt-4o-mini", "standard")
    assert price.valid_from == since
    header = api_row_header(response.content.decode())
    assert "openai-gpt-4o-mini at its standard price" in header
    if since:
        assert f"in force since {date_text(since)}" in header
    else:
        checked = ApiModel.objects.get(slug="openai-gpt-4o-mini").as_of
        assert f"checked on {date_text(checked)}" in header
    # The tier is a field of the form, as in the scenario unless chosen.
    assert '<select name="api_price_tier"' in response.content.decode()


def test_the_off_peak_tier_prices_the_api_option_at_its_discount(client, owner, scenario):
    client.force_login(owner)
    url = f"/scenarios/{scenario.pk}/options/"
    standard = external_api(client.get(url, {"api_model": V4_PRO}))
    response = client.get(url, {"api_model": V4_PRO, "api_price_tier": "off_peak"})
    off_peak = external_api(response)
    assert off_peak.api_price.tier == "off_peak"
    assert off_peak.api_price.valid_from == price_since(V4_PRO, "off_peak")
    assert standard.api_price.tier == "standard"
    # Half the standard price on input and output tokens alike.
    assert float(off_peak.total) == pytest.approx(float(standard.total) / 2, rel=1e-6)
    header = api_row_header(response.content.decode())
    assert (
        f"{V4_PRO} at its off-peak price, in force since {date_text(price_since(V4_PRO, 'off_peak'))}"
        in header
    )
    # "Use this option" carries the tier to the new scenario.
    assert '<input type="hidden" name="api_price_tier" value="off_peak">' in (
        response.content.decode()
    )


def test_a_tier_the_model_lacks_is_refused_naming_its_tiers(client, owner, scenario):
    client.force_login(owner)
    response = client.get(
        f"/scenarios/{scenario.pk}/options/",
        {"api_model": "openai-gpt-4o-mini", "api_price_tier": "off_peak"},
    )
    problems = " ".join(response.context["problems"])
    assert "has no 'off_peak' price" in problems
    assert "choose one of its price tiers: standard" in problems


def test_using_the_api_option_keeps_its_tier(client, owner, scenario):
    client.force_login(owner)
    response = client.post(
        f"/scenarios/{scenario.pk}/options/use/",
        {"key": "external_api", "api_model": V4_PRO, "api_price_tier": "off_peak"},
    )
    assert response.status_code == 302
    copy = scenario.project.scenarios.exclude(pk=scenario.pk).get()
    assert copy.inputs["inference"]["api_price_tier"] == "off_peak"
    assert copy.inputs["inference"]["api_model"] == V4_PRO


def test_a_scenario_on_an_off_peak_api_compares_its_api_option_at_that_tier(client, owner):
    api_prices_load()
    inference = {
        "method": "external_api",
        "api_model": V4_PRO,
        "api_price_tier": "off_peak",
        "input_tokens": 1000,
        "output_tokens": 500,
        "requests_per_month": 300_000,
        "months": 24,
    }
    scenario = make_scenario(make_project(owner), "Night", inputs={"inference": inference})
    client.force_login(owner)
    price = external_api(client.get(f"/scenarios/{scenario.pk}/options/")).api_price
    assert (price.api_model, price.tier, price.valid_from, price.as_of) == (
        V4_PRO,
        "off_peak",
        price_since(V4_PRO, "off_peak"),
        ApiModel.objects.get(slug=V4_PRO).as_of,
    )


def test_the_options_api_takes_and_reports_the_tier(api_client, owner, scenario):
    api_client.force_authenticate(owner)
    saved = api_client.get(
        f"/api/v1/scenarios/{scenario.pk}/options/",
        {"options": "external_api", "api_model": V4_PRO, "api_price_tier": "off_peak"},
    )
    assert saved.status_code == 200, saved.content
    (option,) = saved.json()["options"]
    assert option["api_price"]["tier"] == "off_peak"
    body = {
        "inference": TRANSLATION_INFERENCE,
        "options": [
            {"key": "external_api", "api_model": V4_PRO, "api_price_tier": "off_peak"},
            {"key": "rent_pay_per_use"},
        ],
    }
    stateless = api_client.post("/api/v1/options/", body, format="json")
    assert stateless.status_code == 200, stateless.content
    options = {o["key"]: o for o in stateless.json()["options"]}
    assert options["external_api"]["api_price"]["tier"] == "off_peak"
    assert "api_price" not in options["rent_pay_per_use"]
    refused = api_client.post(
        "/api/v1/options/",
        {**body, "options": [{"key": "external_api", "api_price_tier": "night"}]},
        format="json",
    )
    assert refused.status_code == 400
    assert "api_price_tier" in str(refused.json())


def test_the_tier_is_worded_in_french(client, owner, scenario):
    client.force_login(owner)
    response = client.get(
        f"/scenarios/{scenario.pk}/options/",
        {"api_model": V4_PRO, "api_price_tier": "off_peak"},
        headers={"accept-language": "fr"},
    )
    header = api_row_header(response.content.decode())
    assert f"{V4_PRO}, tarif heures creuses, en vigueur depuis le" in header
