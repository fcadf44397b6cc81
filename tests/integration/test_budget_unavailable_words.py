"""Why a budget cannot be drawn up, in the reader's language: the engine's and the catalogue's
messages reach the page as Messages and are worded there, so a French page says it in French."""

import html

import pytest

from apps.budget.selectors import BudgetUnavailable, scenario_budget
from apps.projects.models import Scenario
from tests.factories import SEED_000_TRAINING, make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db
FRENCH = {"accept-language": "fr"}
ENGLISH = {"accept-language": "en"}
TOO_HIGH_MFU = {**SEED_000_TRAINING, "method": "parameters_tokens", "parameters": 7e9}
MFU_ENGLISH = "MFU must be more than 0 (at least 0.001) and at most 1 (typical 0.14–0.5)."
MFU_FRENCH = (
    "MFU\u00a0: saisissez plus de 0 (au moins 0,001) et au plus 1 (valeur courante 0,14–0,5)."
)


@pytest.fixture
def owner(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


def saved_behind_the_form(owner, training: dict) -> Scenario:
    """A scenario whose saved inputs the estimate now refuses (as when the catalogue or the
    engine's rules changed after it was saved)."""
    scenario = make_scenario(make_project(owner, "Translation assistant"), "Pilot")
    Scenario.objects.filter(pk=scenario.pk).update(inputs={"training": training})
    return Scenario.objects.select_related("project").get(pk=scenario.pk)


def budget_page(client, scenario: Scenario, headers: dict) -> str:
    response = client.get(f"/scenarios/{scenario.pk}/budget/", headers=headers)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def test_an_engine_error_that_stops_the_budget_is_french_on_a_french_page(client, owner):
    scenario = saved_behind_the_form(owner, {**TOO_HIGH_MFU, "tokens": 1e12, "mfu": 2})
    french = budget_page(client, scenario, FRENCH)
    assert f"Le budget ne peut pas être établi\u00a0: {MFU_FRENCH}" in french
    assert MFU_ENGLISH not in french
    assert MFU_ENGLISH in budget_page(client, scenario, ENGLISH)


def test_a_catalogue_error_that_stops_the_budget_is_french_on_a_french_page(client, owner):
    scenario = saved_behind_the_form(owner, {**SEED_000_TRAINING, "accelerator": "nvidia-h100"})
    french = budget_page(client, scenario, FRENCH)
    assert "Aucun accélérateur 'nvidia-h100' dans le catalogue. Vouliez-vous dire" in french
    english = budget_page(client, scenario, ENGLISH)
    assert "No accelerator 'nvidia-h100' in the catalogue. Did you mean" in english


def test_the_error_keeps_its_messages_and_says_them_in_english_to_a_log(owner):
    scenario = saved_behind_the_form(owner, {**TOO_HIGH_MFU, "tokens": 1e12, "mfu": 2})
    with pytest.raises(BudgetUnavailable) as raised:
        scenario_budget(scenario)
    (messages,) = raised.value.errors.values()
    assert [message.msgid for message in messages] == [
        "%(label)s must be more than 0 (at least 0.001) and at most 1 (typical "
        "%(typical_low)s–%(typical_high)s)."
    ]
    assert str(raised.value) == MFU_ENGLISH
