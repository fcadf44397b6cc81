"""The scenario form's fields are made once per catalogue and language and shared by every form
(apps.projects.forms.scenario_fields): drawing the page, previewing as a manager types (valid,
invalid, with a range, another accelerator's number formats) and saving leave each shared field,
its widget and the widget's attributes as they were, in English and in French."""

import pytest
from django.utils import translation

from apps.catalogue.snapshot import Catalogue
from apps.projects.forms import scenario_fields
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_one_save_one_computation import form_data

pytestmark = pytest.mark.django_db


def _state(fields: dict) -> dict:
    """Each field's and widget's attributes, by identity (nothing set again) and by value
    (nothing changed in place), and the widget's HTML attributes."""
    return {
        name: [
            {key: (id(value), repr(value)) for key, value in vars(part).items()}
            for part in (field, field.widget)
        ]
        + [dict(field.widget.attrs)]
        for name, field in fields.items()
    }


@pytest.mark.parametrize("language_code", ["en-gb", "fr"])
def test_no_request_changes_the_fields_the_forms_share(client, language_code):
    owner = make_manager("maria")
    scenario = make_scenario(make_project(owner))
    client.force_login(owner)
    client.cookies["django_language"] = language_code
    headers = {"accept-language": language_code}
    with translation.override(language_code):
        data = form_data(scenario)
        shared = scenario_fields(Catalogue.load())
        before = _state(shared)
    assert client.get(f"/scenarios/{scenario.pk}/", headers=headers).status_code == 200
    previews = [
        data,
        {**data, "inference_requests_per_month": "abc"},
        {**data, "inference_requests_per_month_low": "1", "inference_requests_per_month_high": "9"},
        {**data, "inference_accelerator": "nvidia-a100-sxm-80gb", "inference_precision": "fp8"},
    ]
    for posted in previews:
        response = client.post(
            f"/scenarios/{scenario.pk}/preview/", posted, headers={**headers, "hx-request": "true"}
        )
        assert response.status_code == 200
    invalid = client.post(
        f"/scenarios/{scenario.pk}/",
        {**data, "inference_requests_per_month": "abc"},
        headers=headers,
    )
    assert invalid.status_code == 200 and b"form-field-error" in invalid.content
    saved = client.post(f"/scenarios/{scenario.pk}/", data, headers=headers)
    assert saved.status_code == 302
    with translation.override(language_code):
        assert scenario_fields(Catalogue.load()) is shared
    assert _state(shared) == before
