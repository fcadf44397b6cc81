"""Every export of a scenario that serves a language model carries its serving block, with units."""

import csv
import io
import json

import pytest

from apps.api.estimate import kept_estimate_representation
from apps.estimates import ServingResult
from apps.projects.versions import version_estimate
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_exports import csv_rows, download, xlsx_figures
from tests.integration.test_langexports_french_files import export
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


def _serving_answer(scenario) -> dict:
    """The serving block as the API answers it for the scenario's latest version."""
    version = scenario.versions.order_by("-number").first()
    return kept_estimate_representation(version_estimate(version))["inference"]["serving"]


def test_the_csv_has_every_serving_figure_with_its_unit(owner, served):
    rows = {
        r["field"]: r
        for r in csv_rows(download(owner, "scenario", served, "csv", "page"))
        if r["field"].startswith("inference.serving.") and ".replica_" not in r["field"]
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
    document = json.loads(download(owner, "project", served.project, "json", "page"))
    (scenario,) = document["project"]["scenarios"]
    serving = scenario["results"]["inference"]["serving"]
    assert (serving["accelerators_per_replica"], serving["tensor_parallel"]) == (16, 8)
    assert serving["fits"] is True and serving["weights_gb"] == 810


CHOICE_KEYS = (
    "accelerators_per_replica",
    "fits",
    "batch_size",
    "output_tokens_per_second",
    "replicas_at_peak",
    "meets_targets",
)


def _words(value) -> str:
    return ("yes" if value else "no") if isinstance(value, bool) else value


def test_the_csv_has_each_copy_size_considered_and_why_one_was_used(owner, served):
    rows = {r["field"]: r for r in csv_rows(download(owner, "scenario", served, "csv", "page"))}
    serving = _serving_answer(served)
    choice = serving["replica_choice"]
    assert len(choice) >= 2  # 405B in bf16 fits 16 H100s and more
    because = rows["inference.serving.replica_chosen_because"]
    assert because["value"] == serving["replica_chosen_because"]
    assert because["figure"] == "Why this copy size"
    for index, option in enumerate(choice):
        for key in CHOICE_KEYS:
            row = rows[f"inference.serving.replica_choice.{index}.{key}"]
            assert row["section"] == "Inference, copy sizes considered"
            expected = option[key]
            if isinstance(expected, float):
                assert float(row["value"]) == pytest.approx(expected)
            else:
                assert row["value"] == ("" if expected is None else str(_words(expected)))
    used = [i for i, o in enumerate(choice) if o["accelerators_per_replica"] == 16]
    (index,) = used
    figure = rows[f"inference.serving.replica_choice.{index}.fits"]["figure"]
    assert figure == "16 accelerators per copy (used): Fits"
    assert rows["inference.serving.replica_choice.0.output_tokens_per_second"]["unit"] == (
        "tokens/s"
    )


def test_the_xlsx_pdf_and_json_carry_the_copy_sizes_considered(owner, served):
    serving = _serving_answer(served)
    choice = serving["replica_choice"]
    figures = xlsx_figures(download(owner, "scenario", served, "xlsx", "page"), "Pilot")
    for index, option in enumerate(choice):
        assert (
            figures[f"inference.serving.replica_choice.{index}.accelerators_per_replica"].value
            == (option["accelerators_per_replica"])
        )
        assert (
            figures[f"inference.serving.replica_choice.{index}.replicas_at_peak"].value
            == (option["replicas_at_peak"])
        )
    assert (
        figures["inference.serving.replica_chosen_because"].value
        == (serving["replica_chosen_because"])
    )
    text = " ".join(pdf_text(download(owner, "scenario", served, "pdf", "page")).split())
    assert "Inference, copy sizes considered" in text
    assert "16 accelerators per copy (used): Meets the latency targets" in text
    document = json.loads(download(owner, "project", served.project, "json", "page"))
    (scenario,) = document["project"]["scenarios"]
    exported = scenario["results"]["inference"]["serving"]
    assert exported["replica_choice"] == choice
    assert exported["replica_chosen_because"] == serving["replica_chosen_because"]


def test_a_french_csv_words_the_copy_sizes_in_french(owner, served):
    # The columns keep their order in every language: …, figure, value, unit, month, field.
    rows = {
        r[-1]: {"figure": r[2], "value": r[3]}
        for r in csv.reader(io.StringIO(export(owner, served, "csv", "fr").decode("utf-8-sig")))
    }
    choice = _serving_answer(served)["replica_choice"]
    (index,) = [i for i, o in enumerate(choice) if o["accelerators_per_replica"] == 16]
    row = rows[f"inference.serving.replica_choice.{index}.meets_targets"]
    assert row["value"] in ("oui", "non")
    assert row["figure"].startswith("16 accélérateurs par copie (retenue)")
    because = rows["inference.serving.replica_chosen_because"]["value"]
    assert because and because != _serving_answer(served)["replica_chosen_because"]
