"""The scenario page reads the estimate and budget its latest version kept while they are still
the scenario's figures (apps.projects.versions.current_version), and computes them again once
anything they were computed from has changed: the inputs, the catalogue's prices, the API prices
in force, the cost lines (whichever way they change), the project's currency, budget settings and
planning period, the month when the period follows it, the engine or the release. Read from
the version or computed afresh, the page is the same, in English and in French."""

import datetime
import re
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.db.models import F
from django.utils import timezone

from apps.apiprices.models import ApiPrice
from apps.budget.models import CostLine
from apps.budget.services import cost_line_create
from apps.catalogue.models import PriceOffer
from apps.catalogue.snapshot import Catalogue
from apps.estimates import engine
from apps.projects import versions
from apps.projects.models import Project, ScenarioVersion
from apps.projects.versions import current_version
from tests.factories import load_ecb, make_manager, make_project, make_scenario
from tests.integration.test_budget_models import STAFF
from tests.integration.test_one_save_one_computation import form_data
from tests.integration.test_records_migration import first_difference, stable
from tests.integration.test_scenario_page_cache import exact_training_cost
from tests.integration.test_scenario_page_ranges import RANGED_INPUTS

pytestmark = pytest.mark.django_db
API_INPUTS = {
    "inference": {
        "method": "external_api",
        "api_model": "openai-gpt-4o-mini",
        "requests_per_month": 100_000,
        "input_tokens": 1000,
        "output_tokens": 500,
        "months": 12,
    }
}


@pytest.fixture
def owner(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


def saved(client, owner, inputs: dict = RANGED_INPUTS, **project_fields):
    """A scenario with a cost line, saved through its page's form (as a manager saves it)."""
    scenario = make_scenario(make_project(owner, **project_fields), "Pilot", inputs=inputs)
    cost_line_create(scenario=scenario, fields=STAFF, user=owner)
    scenario.refresh_from_db()
    response = client.post(f"/scenarios/{scenario.pk}/", form_data(scenario))
    assert response.status_code == 302, response.content.decode()[:2000]
    client.get(response["Location"])  # the message the save left, shown
    scenario.refresh_from_db()
    return scenario


@pytest.fixture
def engine_runs(monkeypatch) -> list:
    runs = []
    compute = engine.compute
    monkeypatch.setattr(engine, "compute", lambda inp, **kw: runs.append(inp) or compute(inp, **kw))
    return runs


def page(client, scenario, language: str = "en") -> str:
    """The scenario's page drawn now (the cache left out), without what changes from one
    request to the next (its CSRF tokens, nonces)."""
    cache.clear()
    response = client.get(f"/scenarios/{scenario.pk}/", headers={"accept-language": language})
    assert response.status_code == 200
    return re.sub(r'"X-CSRFToken": "[^"]+"', "", stable(response.content.decode()))


def is_current(scenario) -> bool:
    scenario.refresh_from_db()
    return current_version(scenario, Catalogue.load()) is not None


@pytest.mark.parametrize("inputs", [RANGED_INPUTS, API_INPUTS], ids=["ranges", "external API"])
def test_the_page_read_from_the_version_is_the_page_computed_afresh(
    client, owner, engine_runs, inputs
):
    scenario = saved(client, owner, inputs)
    assert is_current(scenario)
    engine_runs.clear()
    kept = {language: page(client, scenario, language) for language in ("en", "fr")}
    assert engine_runs == []
    ScenarioVersion.objects.filter(scenario=scenario).update(figures_key="")  # as if stale
    afresh = {language: page(client, scenario, language) for language in ("en", "fr")}
    assert engine_runs, "the page did not compute its figures again"
    for language, html in kept.items():
        assert afresh[language] == html, (language, first_difference(html, afresh[language]))
    assert "Budget by fiscal year" in kept["en"] and kept["fr"] != kept["en"]


def set_rent_price(price: str) -> None:
    offers = PriceOffer.objects.filter(accelerator__slug="nvidia-h100-sxm", kind="rent")
    for offer in offers:
        offer.price_per_accelerator_hour = Decimal(price)
        offer.save()


def change_project(**fields):
    def change(scenario) -> None:
        Project.objects.filter(pk=scenario.project_id).update(**fields)

    return change


def cost_line_saved_elsewhere(scenario) -> None:
    """A line changed as the admin or a shell changes it: no new version."""
    line = CostLine.objects.get(scenario=scenario)
    line.unit_price = Decimal("120000")
    line.save()


def next_month(monkeypatch):
    today = timezone.localdate()
    monkeypatch.setattr(timezone, "localdate", lambda *args: today + datetime.timedelta(days=40))


CHANGES = {
    "the catalogue's rent price": lambda scenario, _: set_rent_price("9.99"),
    "a cost line outside the services": lambda scenario, _: cost_line_saved_elsewhere(scenario),
    "the currency": lambda scenario, _: (load_ecb(), change_project(currency="EUR")(scenario)),
    "the discount rate": lambda scenario, _: change_project(discount_rate=Decimal("0.09"))(
        scenario
    ),
    "the fiscal year": lambda scenario, _: change_project(fiscal_year_start_month=4)(scenario),
    "the planning period": lambda scenario, _: change_project(
        period_start=datetime.date(2026, 1, 1), period_end=datetime.date(2028, 12, 31)
    )(scenario),
    "the month, with no planning period": lambda scenario, monkeypatch: next_month(monkeypatch),
    "the engine": lambda scenario, monkeypatch: monkeypatch.setattr(
        versions, "ENGINE_VERSION", "next"
    ),
    "the release": lambda scenario, monkeypatch: monkeypatch.setattr(
        versions.settings, "RELEASE_ID", "next-release"
    ),
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_a_change_to_what_the_figures_come_from_makes_the_page_compute_them_again(
    client, owner, engine_runs, monkeypatch, django_capture_on_commit_callbacks, change
):
    scenario = saved(client, owner)
    assert is_current(scenario)
    with django_capture_on_commit_callbacks(execute=True):  # a catalogue change is announced
        change(scenario, monkeypatch)
    assert not is_current(scenario)
    engine_runs.clear()
    page(client, scenario)
    assert engine_runs


def test_a_change_of_api_price_makes_the_page_compute_the_api_s_cost_again(
    client, owner, engine_runs
):
    scenario = saved(client, owner, API_INPUTS)
    engine_runs.clear()
    before = page(client, scenario)
    assert engine_runs == [] and is_current(scenario)
    prices = ApiPrice.objects.filter(api_model__slug="openai-gpt-4o-mini", tier="standard")
    prices.update(input=F("input") * 2, output=F("output") * 2)
    assert not is_current(scenario)
    after = page(client, scenario)
    assert engine_runs and after != before


def test_a_catalogue_price_changed_after_the_save_shows_on_the_page(
    client, owner, django_capture_on_commit_callbacks
):
    scenario = saved(client, owner, {"training": RANGED_INPUTS["training"]})
    with django_capture_on_commit_callbacks(execute=True):
        set_rent_price("10.00")
    assert exact_training_cost(page(client, scenario)) == Decimal("2000")  # 200 hours
    with django_capture_on_commit_callbacks(execute=True):
        set_rent_price("12.50")
    assert exact_training_cost(page(client, scenario)) == Decimal("2500")
