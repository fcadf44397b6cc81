"""The OpenAPI schema is generated once a process for each language and format, then served as
it was first rendered; a version, a language or a format's parameters that are not the site's are
generated each time and never kept (apps.api.schema_view)."""

import pytest
from django.utils import translation
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from apps.api import schema_view

pytestmark = pytest.mark.django_db

JSON = "application/vnd.oai.openapi+json"


@pytest.fixture
def generated(monkeypatch) -> list[str]:
    """The language of each schema generated, from an empty store of rendered schemas."""
    monkeypatch.setattr(schema_view, "_rendered", {})
    languages = []
    generate = SchemaGenerator.get_schema

    def counted(self, request=None, public=False):
        languages.append(translation.get_language())
        return generate(self, request=request, public=public)

    monkeypatch.setattr(SchemaGenerator, "get_schema", counted)
    return languages


def test_the_schema_is_generated_once_for_each_language_and_format(generated):
    client = APIClient()
    first = client.get("/api/schema/", HTTP_ACCEPT=JSON)
    again = client.get("/api/schema/", HTTP_ACCEPT=JSON)
    yaml = client.get("/api/schema/")
    french = client.get("/api/schema/", HTTP_ACCEPT=JSON, HTTP_ACCEPT_LANGUAGE="fr")
    french_again = client.get("/api/schema/", HTTP_ACCEPT=JSON, HTTP_ACCEPT_LANGUAGE="fr")
    assert generated == ["en-gb", "en-gb", "fr"]
    assert [r.status_code for r in (first, again, yaml, french, french_again)] == [200] * 5
    assert again.content == first.content
    assert first.json()["openapi"].startswith("3.")
    assert again["Content-Type"] == first["Content-Type"] == JSON
    assert again["Content-Disposition"] == first["Content-Disposition"]
    assert yaml["Content-Type"].startswith("application/vnd.oai.openapi")
    assert yaml.content.startswith(b"openapi: ")
    assert french_again.content == french.content


def test_the_schema_kept_is_the_one_generated_for_the_request(generated):
    kept = APIClient().get("/api/schema/", {"format": "json"}).json()
    assert kept == APIClient().get("/api/schema/", {"format": "json"}).json()
    assert kept["paths"] == SchemaGenerator().get_schema(request=None, public=True)["paths"]


@pytest.mark.parametrize(
    "asked",
    [
        {"data": {"version": "2"}},
        {"data": {"lang": "de"}},
        {"HTTP_ACCEPT": f"{JSON}; indent=2"},
    ],
    ids=["a version", "another language", "the format's parameters"],
)
def test_what_the_site_does_not_name_is_generated_each_time_and_never_kept(generated, asked):
    client = APIClient()
    for _ in range(2):
        assert client.get("/api/schema/", **asked).status_code == 200
    assert len(generated) == 2
    assert schema_view._rendered == {}
