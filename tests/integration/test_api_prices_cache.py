"""The API price list and page from the cache: the answer a fresh one would be, in its own
language and for its own query, renewed by every write to the API prices."""

import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.apiprices.loading import PRICES_FILE, api_prices_load
from apps.apiprices.models import ApiModel, ApiPrice
from tests.factories import make_lab_api_model

pytestmark = pytest.mark.django_db

API = "/api/v1/api-prices/"
PAGE = "/catalogue/api-prices/"
LAB = {"provider": "example-lab"}
CSRF_TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]*"')
# What is cached: today's list (of a provider, a model), and today's page of a provider or all.
ANSWERS = [
    (API, {}),
    (API, {"provider": "OpenAI"}),
    (API, {"provider": "openai", "model": "GPT-4o"}),
    (API, {"provider": "deepseek", "format": "json"}),
    (PAGE, {}),
    (PAGE, {"page": "3"}),
    (PAGE, {"provider": "deepseek"}),
    (PAGE, {"provider": "openai", "page": "2"}),
]


def answer(response) -> tuple:
    """What a reader gets: the status, the headers that say what the body is, and the body (its
    CSRF tokens, masked afresh for each response, left out)."""
    headers = ("Content-Type", "Content-Language", "Content-Length", "Vary", "Allow")
    body = CSRF_TOKEN.sub(b'name="csrfmiddlewaretoken" value=""', response.content)
    return response.status_code, {name: response.get(name) for name in headers}, body


def price_queries(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in queries.captured_queries if "apiprices_" in query["sql"]]


def submitted_unchanged(form) -> dict:
    """A form's fields as its page shows them, as a browser submits them untouched."""
    return {field.html_name: "" if field.value() is None else str(field.value()) for field in form}


@pytest.fixture
def lab_model() -> ApiModel:
    return make_lab_api_model()


@pytest.fixture
def admin_client() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("admin", password="x" * 20))
    return client


def lab_outputs(client: Client) -> tuple[list[str], str]:
    """The lab's output prices as the API lists them, and its page of prices."""
    response = client.get(API, LAB)
    assert response.status_code == 200
    return [row["output"] for row in response.json()], client.get(PAGE, LAB).content.decode()


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("url", "query"), ANSWERS)
def test_a_cached_answer_is_the_fresh_one_and_reads_no_price(client, url, query, language):
    fresh = client.get(url, query, HTTP_ACCEPT_LANGUAGE=language)
    assert fresh.status_code == 200
    with CaptureQueriesContext(connection) as queries:
        cached = client.get(url, query, HTTP_ACCEPT_LANGUAGE=language)
    assert answer(cached) == answer(fresh)
    assert price_queries(queries) == []


def test_a_signed_in_reader_gets_the_cached_prices_in_their_own_layout(client, admin_client):
    client.get(PAGE, {"provider": "openai"})
    with CaptureQueriesContext(connection) as queries:
        response = admin_client.get(PAGE, {"provider": "openai"})
    assert price_queries(queries) == []
    page = response.content.decode()
    assert "GPT-4o" in page and 'id="sign-out"' in page and "csrfmiddlewaretoken" in page


def test_each_language_filter_and_page_has_its_own_answer(client):
    asked = [
        (PAGE, {"provider": "deepseek"}, "en"),
        (PAGE, {"provider": "deepseek"}, "fr"),
        (PAGE, {"page": "2"}, "en"),
        (PAGE, {"page": "3"}, "en"),
        (API, {"provider": "deepseek"}, "en"),
        (API, {"provider": "anthropic"}, "en"),
        (API, {"provider": "anthropic", "model": "claude-opus-4-0"}, "en"),
    ]

    def answers() -> list[tuple]:
        return [
            answer(client.get(url, query, HTTP_ACCEPT_LANGUAGE=lang)) for url, query, lang in asked
        ]

    fresh = answers()
    with CaptureQueriesContext(connection) as queries:
        cached = answers()
    assert price_queries(queries) == []
    assert cached == fresh and len({body for _, _, body in cached}) == len(asked)
    assert b"models priced on" in cached[0][2] and "modèles".encode() in cached[1][2]


def test_a_page_with_a_provider_none_of_the_choices_is_drawn_afresh_each_time(client):
    with CaptureQueriesContext(connection) as first:
        client.get(PAGE, {"provider": "no-such-provider"})
    with CaptureQueriesContext(connection) as second:
        response = client.get(PAGE, {"provider": "no-such-provider"})
    assert "Select a valid choice." in response.content.decode()
    assert price_queries(second) == price_queries(first) != []


def test_a_filter_in_other_capitals_reads_the_same_cached_list(client):
    fresh = client.get(API, {"provider": "openai", "model": "gpt-4o"})
    with CaptureQueriesContext(connection) as queries:
        other = client.get(API, {"provider": "OpenAI", "model": "GPT-4O"})
    assert price_queries(queries) == []
    assert other.content == fresh.content and len(other.json()) == 1


def edit_in_the_admin(client: Client, model: ApiModel) -> None:
    url = f"/admin/apiprices/apimodel/{model.pk}/change/"
    page = client.get(url)
    data = submitted_unchanged(page.context["adminform"].form)
    [inline] = page.context["inline_admin_formsets"]
    data.update(submitted_unchanged(inline.formset.management_form))
    [price_form] = inline.formset.forms
    data.update(submitted_unchanged(price_form))
    data[f"{price_form.prefix}-output"] = "12"
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors


def edit_a_row(client: Client, model: ApiModel) -> None:
    price = model.prices.get()
    price.output = "12"
    price.save()


@pytest.mark.parametrize("edit", [edit_in_the_admin, edit_a_row])
def test_a_price_edited_is_in_the_next_answers(
    admin_client, lab_model, edit, django_capture_on_commit_callbacks
):
    reader = Client()
    outputs, page = lab_outputs(reader)
    assert outputs == ["15"] and "<td>15</td>" in page
    with django_capture_on_commit_callbacks(execute=True):
        edit(admin_client, lab_model)
    outputs, page = lab_outputs(reader)
    assert outputs == ["12"] and "<td>12</td>" in page and "<td>15</td>" not in page


def test_a_model_deleted_in_the_admin_is_gone_from_the_next_answers(
    admin_client, lab_model, django_capture_on_commit_callbacks
):
    reader = Client()
    assert lab_outputs(reader)[0] == ["15"]
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            f"/admin/apiprices/apimodel/{lab_model.pk}/delete/", {"post": "yes"}
        )
    assert response.status_code == 302
    outputs, page = lab_outputs(reader)
    # The provider is no longer a choice: the page says so and lists every other model.
    assert outputs == [] and "Select a valid choice." in page and "Model One" not in page


def test_a_model_loaded_from_a_new_file_is_in_the_next_answers(
    client, tmp_path, django_capture_on_commit_callbacks
):
    assert lab_outputs(client)[0] == []
    vendored = json.loads(PRICES_FILE.read_text(encoding="utf-8"))
    lab = {
        "provider": "example-lab",
        "name": "Example Lab",
        "source_url": "https://example.org/pricing",
        "notes": "",
        "models": [
            {
                "model": "Model-One",
                "name": "Model One",
                "slug": "example-lab-model-one",
                "deprecated": False,
                "notes": "",
                "prices": [
                    {"valid_from": None, "input": "3", "cached_input": None, "output": "15"}
                ],
            }
        ],
    }
    path = tmp_path / "prices.json"
    path.write_text(json.dumps({**vendored, "providers": [*vendored["providers"], lab]}))
    # Only inserts, which send no signal: the load itself starts the new version.
    with django_capture_on_commit_callbacks(execute=True):
        report = api_prices_load(path=path)
    assert report.created == 1
    outputs, page = lab_outputs(client)
    assert outputs == ["15"] and "<td>15</td>" in page


def test_prices_reset_by_the_load_command_are_in_the_next_answers(
    client, django_capture_on_commit_callbacks
):
    query = {"provider": "openai", "model": "gpt-4o"}
    ApiPrice.objects.filter(api_model__slug="openai-gpt-4o").update(output="99")
    assert {row["output"] for row in client.get(API, query).json()} == {"99"}
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_api_prices", "--overwrite", stdout=io.StringIO())
    [row] = client.get(API, query).json()
    assert row["output"] == "10"
