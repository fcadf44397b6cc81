"""The API's catalogue errors follow Accept-Language: French for a French reader."""

import pytest
from rest_framework.test import APIClient

from tests.factories import make_manager

pytestmark = pytest.mark.django_db

REQUEST = {
    "training": {"method": "accelerator_hours", "accelerator_hours": 200, "accelerator": "gone"},
}


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en-gb", "No accelerator 'gone' in the catalogue."),
        ("fr", "Aucun accélérateur 'gone' dans le catalogue."),
    ],
)
def test_an_unknown_accelerator_is_reported_in_the_readers_language(language, message):
    client = APIClient()
    client.force_authenticate(make_manager("amina"))
    response = client.post(
        "/api/v1/estimate/", REQUEST, format="json", headers={"accept-language": language}
    )
    assert response.status_code == 400
    assert message in str(response.json())
