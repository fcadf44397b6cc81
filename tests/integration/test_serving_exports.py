"""Every export of a scenario that serves a language model carries its serving block, with units."""

import pytest

from apps.estimates import ServingResult
from apps.projects.versions import version_estimate
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_exports import csv_rows, download, xlsx_figures
from tests.integration.test_scenario_serving import serving_post
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


@pytest.fixture
def served(client, owner):
    """Llama 3.1 405B (405e9 in the catalogue, 810 GB) in bf16 on H100s: 16 accelerators per copy, tensor parallel 8 × 2 stages."""
    scenario = make_scenario(make_project(owner), name="Pilot")
    response = client.post(f"/scenarios/{scenario.pk}/", serving_post())
    assert response.status_code == 302
    scenario.refresh_from_db()
    return scenario


def _serving(scenario) -> ServingResult:
    version = scenario.versions.order_by("-number").first()
    return version_estimate(version).result.inference.serving


def test_the_csv_has_every_serving_figure_with_its_unit(owner, served):
    rows = {
        r["field"]: r
        for r in csv_rows(download(owner, "scenario", served, "csv", "page"))
        if r["field"].startswith("inference.serving.")
    }
    serving = _serving(served)
    assert rows["inference.serving.fits"]["value"] == "yes"
    assert rows["inference.serving.accelerators_per_replica"]["value"] == "16"
    assert rows["inference.serving.accelerators_per_replica"]["unit"] == "accelerators"
    assert rows["inference.serving.tensor_parallel"]["value"] == "8"
    assert rows["inference.serving.pipeline_parallel"]["value"] == "2"
    assert rows["inference.serving.weights_gb"]["unit"] == "GB"
    assert float(rows["inference.serving.weights_gb"]["value"]) == serving.weights_gb == 810
    assert rows["inference.serving.kv_cache_bytes_per_token"]["unit"] == "bytes"
    assert rows["inference.serving.ttft_seconds"]["unit"] == "seconds"
    assert float(rows["inference.serving.tpot_seconds"]["value"]) == pytest.approx(
        serving.tpot_seconds
    )
    assert rows["inference.serving.output_tokens_per_second"]["unit"] == "tokens/s"
    assert int(rows["inference.serving.batch_size"]["value"]) == serving.batch_size
    assert int(rows["inference.serving.replicas_at_peak"]["value"]) == serving.replicas_at_peak
    assert len(rows) == 15


def test_the_xlsx_and_pdf_carry_the_copy_of_the_model_and_its_speed(owner, served):
    figures = xlsx_figures(download(owner, "scenario", served, "xlsx", "page"), "Pilot")
    assert figures["inference.serving.accelerators_per_replica"].value == 16
    assert figures["inference.serving.tensor_parallel"].value == 8
    text = pdf_text(download(owner, "scenario", served, "pdf", "page"))
    assert "Accelerators per copy of the model" in text
    assert "Time per output token" in text and "Copies of the model at peak" in text


def test_the_json_export_holds_the_serving_block(owner, served):
    import json

    document = json.loads(download(owner, "project", served.project, "json", "page"))
    (scenario,) = document["project"]["scenarios"]
    serving = scenario["results"]["inference"]["serving"]
    assert (serving["accelerators_per_replica"], serving["tensor_parallel"]) == (16, 8)
    assert serving["fits"] is True and serving["weights_gb"] == 810
