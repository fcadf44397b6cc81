"""The scenario form offers the number formats of the accelerator chosen (issue 20): FP4 only
where the accelerator has an FP4 peak, whether the page is drawn, drawn again after a save, or
asked for by htmx when the accelerator changes; a format the accelerator lacks, when chosen, stays
marked as unavailable and is refused at its field naming the accelerator's own formats."""

import pytest
from django.utils import translation

from tests.factories import make_project, make_scenario, seed_000_inference
from tests.html_tree import Element, parse
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
H100_FORMATS = ["fp32", "tf32", "bf16", "fp16", "fp8", "int8"]


def options(html: str, name: str) -> list[tuple[str, str, bool]]:
    """(value, label, selected) of the select named `name`."""
    select = parse(html).find_all(lambda e: e.tag == "select" and e.attrs.get("name") == name)
    assert len(select) == 1, f"no select {name}"
    return [
        (o.attrs["value"], o.text(), "selected" in o.attrs)
        for o in select[0].find_all(lambda e: e.tag == "option")
    ]


def by_id(html: str, element_id: str) -> Element:
    found = parse(html).find_all(lambda e: e.attrs.get("id") == element_id)
    assert len(found) == 1, f"no element #{element_id}"
    return found[0]


@pytest.fixture
def scenario(owner):
    inference = {**seed_000_inference(15_000), "accelerator": "nvidia-b200", "precision": "fp4"}
    return make_scenario(
        make_project(owner, "Blackwell"), "FP4", inputs={"inference": inference}, is_baseline=True
    )


def test_the_page_offers_fp4_only_for_an_accelerator_with_an_fp4_peak(client, owner, scenario):
    client.force_login(owner)
    page = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    inference = options(page, "inference_precision")
    assert ("fp4", "FP4", True) in inference
    # Training is off, on the default H100: no FP4 among its formats.
    assert [value for value, _label, _selected in options(page, "training_precision")] == (
        H100_FORMATS
    )
    help_text = by_id(page, "id_inference_precision_helptext").text()
    assert "NVIDIA B200 (HGX, 1,000 W) computes in" in help_text
    assert help_text.endswith("FP8, INT8, FP4.")


def test_the_accelerator_asks_for_its_formats_when_it_changes(client, owner, scenario):
    client.force_login(owner)
    page = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    accelerator = by_id(page, "id_inference_accelerator")
    assert accelerator.attrs["hx-get"] == "/scenarios/precisions/inference/"
    assert accelerator.attrs["hx-include"] == "#id_inference_precision"
    assert accelerator.attrs["hx-target"] == "#id_inference_precision_choices"
    assert by_id(page, "id_inference_precision_choices").find_all(
        lambda e: e.attrs.get("id") == "id_inference_precision"
    )


def test_htmx_gets_the_formats_of_the_accelerator_chosen(client, owner):
    client.force_login(owner)
    url = "/scenarios/precisions/inference/"
    b200 = client.get(
        url, {"inference_accelerator": "nvidia-b200", "inference_precision": "bf16"}, **HTMX
    )
    assert b200.status_code == 200
    assert "HX-Request" in b200["Vary"]
    html = b200.content.decode()
    assert html.strip().startswith('<div id="id_inference_precision_choices">')
    assert ("fp4", "FP4", False) in options(html, "inference_precision")
    assert ("bf16", "BF16", True) in options(html, "inference_precision")
    # The serving fields' methods, so that the page's method switch keeps hiding it right.
    assert 'data-methods="accelerator_seconds tokens"' in html
    h100 = client.get(
        url, {"inference_accelerator": "nvidia-h100-sxm", "inference_precision": "bf16"}, **HTMX
    ).content.decode()
    assert [value for value, _label, _selected in options(h100, "inference_precision")] == (
        H100_FORMATS
    )


def test_a_format_the_new_accelerator_lacks_stays_chosen_and_marked(client, owner):
    client.force_login(owner)
    html = client.get(
        "/scenarios/precisions/training/",
        {"training_accelerator": "nvidia-h100-sxm", "training_precision": "fp4"},
        **HTMX,
    ).content.decode()
    assert options(html, "training_precision")[-1] == (
        "fp4",
        "FP4 (not available on NVIDIA H100 SXM)",
        True,
    )


def test_without_an_accelerator_every_format_is_offered(client, owner):
    client.force_login(owner)
    html = client.get(
        "/scenarios/precisions/inference/",
        {"inference_accelerator": "", "inference_precision": "bf16"},
        **HTMX,
    ).content.decode()
    values = [value for value, _label, _selected in options(html, "inference_precision")]
    assert values == [*H100_FORMATS, "fp4"]


def test_the_formats_address_is_for_htmx_signed_in_and_two_sections(client, owner):
    assert client.get("/scenarios/precisions/inference/", **HTMX).status_code == 302
    client.force_login(owner)
    plain = client.get("/scenarios/precisions/inference/")
    assert plain.status_code == 302
    assert plain["Location"] == "/projects/"
    assert client.get("/scenarios/precisions/budget/", **HTMX).status_code == 404
    assert client.post("/scenarios/precisions/inference/", **HTMX).status_code == 405


def test_without_javascript_a_refused_fp4_is_drawn_again_at_its_field(client, owner, scenario):
    client.force_login(owner)
    response = client.post(
        f"/scenarios/{scenario.pk}/",
        scenario_post(inference_precision="fp4", inference_accelerator="nvidia-h100-sxm"),
    )
    html = response.content.decode()
    error = by_id(html, "id_inference_precision_error").text()
    assert "NVIDIA H100 SXM cannot compute in fp4" in error
    assert "Choose one of its precisions: fp32, tf32, bf16, fp16, fp8, int8." in error
    inference = options(html, "inference_precision")
    assert [value for value, _label, _selected in inference] == [*H100_FORMATS, "fp4"]
    assert inference[-1] == ("fp4", "FP4 (not available on NVIDIA H100 SXM)", True)


def test_the_formats_are_worded_in_french(client, owner):
    client.force_login(owner)
    with translation.override("fr"):
        html = client.get(
            "/scenarios/precisions/inference/",
            {"inference_accelerator": "nvidia-h100-sxm", "inference_precision": "fp4"},
            HTTP_ACCEPT_LANGUAGE="fr",
            **HTMX,
        ).content.decode()
    assert options(html, "inference_precision")[-1][1] == (
        "FP4 (non disponible sur NVIDIA H100 SXM)"
    )
    assert "NVIDIA H100 SXM calcule en FP32, TF32, BF16, FP16, FP8, INT8." in html
