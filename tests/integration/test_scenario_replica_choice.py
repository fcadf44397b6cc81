"""The scenario page says which copy of the model was chosen and why, with the other sizes one
click away, in English and French; a shared snapshot shows the same."""

import pytest
from django.utils import translation

from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


def llama_2_70b_post(**overrides) -> dict:
    """Llama 2 70B by its architecture in FP8 (FP8 KV cache) on H100, 300 in / 291 out tokens,
    100 million requests a month, even demand."""
    fields = {
        "inference_method": "tokens",
        "inference_model": "",
        "inference_parameters": "68.98e9",
        "inference_layers": "80",
        "inference_kv_heads": "8",
        "inference_head_dim": "128",
        "inference_precision": "fp8",
        "inference_input_tokens": "300",
        "inference_output_tokens": "291",
        "inference_requests_per_month": "1e8",
        "inference_peak_to_average": "1",
        "inference_kv_cache_bytes_per_element": "1",
        "inference_memory_utilization": "90",
        "inference_memory_efficiency": "70",
    }
    return scenario_post(**{**fields, **overrides})


def preview(client, manager, body: dict, language: str = "en") -> str:
    scenario = make_scenario(make_project(manager))
    response = client.post(
        f"/scenarios/{scenario.pk}/preview/",
        body,
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert response.status_code == 200
    return response.content.decode()


def test_the_column_says_two_per_copy_and_why_with_the_other_sizes_in_a_table(client, manager):
    html = preview(client, manager, llama_2_70b_post())
    assert "2 accelerators per copy of the model, tensor parallel 2" in html
    assert (
        "2 accelerators per copy: the fewest accelerators at peak (8); 1 per copy would need 47 "
        "copies (47 accelerators)."
    ) in html
    assert "<summary>Other copy sizes considered</summary>" in html
    assert "Output speed per copy (tokens/s)" in html
    # The row of the size used is marked; one per copy needs 47 copies.
    assert '<tr class="chosen"><th scope="row">2 <strong>(used)</strong></th>' in html
    assert '<th scope="row">1</th><td>yes</td><td>11</td><td>340</td><td>47</td><td>47</td>' in html


def test_the_column_says_why_in_french(client, manager):
    with translation.override("fr"):
        html = preview(client, manager, llama_2_70b_post(), language="fr")
    assert (
        "2 accélérateurs par copie\u00a0: le moins d’accélérateurs en pointe (8)\u202f; avec 1 par "
        "copie, il faudrait 47 copies (47 accélérateurs)."
    ) in html
    assert "<summary>Autres tailles de copie envisagées</summary>" in html
    assert "Débit de sortie par copie (jetons/s)" in html


def test_a_given_size_is_said_to_be_given_and_no_table_is_drawn(client, manager):
    html = preview(client, manager, llama_2_70b_post(inference_accelerators_per_replica="1"))
    assert "1 accelerator(s) per copy, as given." in html
    assert "Other copy sizes considered" not in html


def test_a_saved_scenario_and_its_version_show_the_choice(client, manager):
    scenario = make_scenario(make_project(manager))
    response = client.post(f"/scenarios/{scenario.pk}/", llama_2_70b_post())
    assert response.status_code == 302
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "1 per copy would need 47 copies" in html
    assert "Other copy sizes considered" in html
