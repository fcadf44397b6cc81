"""Pages in French write figures the French way and read numbers typed the French way."""

from datetime import date
from decimal import Decimal

import pytest
from django.conf import settings

from apps.budget.models import CostLine
from apps.projects.models import Scenario
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_budget_pages import LICENCE_FORM
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db

NNBSP = "\u202f"


@pytest.fixture
def manager(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


def test_the_scenario_page_in_french_by_accept_language_writes_a_decimal_comma(client, manager):
    scenario = make_scenario(make_project(manager))
    html = client.get(
        f"/scenarios/{scenario.pk}/", headers={"accept-language": "fr-FR,fr;q=0.9"}
    ).content.decode()
    assert '<html lang="fr"' in html
    assert "8,33 heures-accélérateur" in html
    assert "8.33 heures-accélérateur" not in html
    assert f"15{NNBSP}000 demandes" in html
    # machine values stay unlocalised: the data value and what the form is filled with
    assert '<data value="8.333333333333334">8,33 heures-accélérateur</data>' in html
    assert 'name="training_accelerator_hours" value="200"' in html


def test_the_scenario_page_in_french_by_cookie_groups_digits_with_a_narrow_space(client, manager):
    scenario = make_scenario(make_project(manager))
    client.post(
        f"/scenarios/{scenario.pk}/",
        scenario_post(inference_requests_per_month="300000"),
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "167 heures-accélérateur" in html
    assert f"300{NNBSP}000" in html


@pytest.mark.parametrize("space", [NNBSP, "\u00a0", " "], ids=["U+202F", "U+00A0", "space"])
def test_a_french_form_post_saves_1234_5(client, manager, space):
    scenario = make_scenario(make_project(manager))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    response = client.post(
        f"/scenarios/{scenario.pk}/",
        scenario_post(
            training_accelerator_hours=f"1{space}234,5",
            inference_requests_per_month=f"15{space}000",
            training_mfu="40,5",
        ),
    )
    assert response.status_code == 302
    scenario = Scenario.objects.get(pk=scenario.pk)
    assert scenario.inputs["training"]["accelerator_hours"] == 1234.5
    assert scenario.inputs["inference"]["requests_per_month"] == 15_000
    assert scenario.inputs["training"]["mfu"] == pytest.approx(0.405)


def test_an_english_number_in_a_french_form_is_refused_beside_its_field_and_kept(client, manager):
    scenario = make_scenario(make_project(manager))
    before = dict(scenario.inputs)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    response = client.post(
        f"/scenarios/{scenario.pk}/",
        scenario_post(inference_requests_per_month="12,345.5"),
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="id_inference_requests_per_month_error"' in html
    assert 'value="12,345.5"' in html
    scenario.refresh_from_db()
    assert scenario.inputs == before


def test_a_french_cost_line_reads_french_amounts_and_the_budget_shows_them_the_french_way(
    client, manager
):
    project = make_project(
        manager, "Traduction", period_start=date(2026, 1, 1), period_end=date(2027, 12, 31)
    )
    scenario = make_scenario(project, "Pilote", is_baseline=True)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    form = {
        **LICENCE_FORM,
        "quantity": "10",
        "unit_price": f"1{NNBSP}234,5",
        "annual_escalation": "2,5",
    }
    response = client.post(
        f"/scenarios/{scenario.pk}/cost-lines/new/?from=budget", form, follow=True
    )
    assert response.status_code == 200
    line = CostLine.objects.get()
    assert line.unit_price == Decimal("1234.5")
    assert line.annual_escalation == Decimal("0.025")
    assert f'<data value="12345.00">12{NNBSP}345,00\u00a0$US</data>' in response.content.decode()
