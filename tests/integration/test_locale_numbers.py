"""Pages in French write figures the French way and read numbers typed the French way."""

import pytest
from django.conf import settings

from apps.projects.models import Scenario
from tests.factories import make_manager, make_project, make_scenario
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
    assert "8,33 accelerator-hours" in html
    assert "8.33 accelerator-hours" not in html
    assert f"15{NNBSP}000 requests" in html
    # machine values stay unlocalised: the data value and what the form is filled with
    assert '<data value="8.333333333333334">8,33 accelerator-hours</data>' in html
    assert 'name="training_accelerator_hours" value="200"' in html


def test_the_scenario_page_in_french_by_cookie_groups_digits_with_a_narrow_space(client, manager):
    scenario = make_scenario(make_project(manager))
    client.post(
        f"/scenarios/{scenario.pk}/",
        scenario_post(inference_requests_per_month="300000"),
    )
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "167 accelerator-hours" in html
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
