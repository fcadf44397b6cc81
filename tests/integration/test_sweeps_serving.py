"""Sweeps of the serving inputs: the replica size, the targets, and the serving figures per point."""

import math

import numpy as np
import pytest

from apps.catalogue.snapshot import Catalogue
from apps.sweeps.compute import base_inputs, evaluate_range
from apps.sweeps.definition import DefinitionError, definition_parse
from apps.sweeps.inputs import SWEEPABLE

pytestmark = pytest.mark.django_db

REQUEST = {
    "inference": {
        "method": "tokens",
        "model": "llama-3.1-405b",
        "input_tokens": 1000,
        "output_tokens": 500,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": 1_000_000,
    }
}


def run(*inputs: dict) -> dict[str, np.ndarray]:
    definition = definition_parse({"inputs": list(inputs)}, REQUEST)
    bases = base_inputs(definition, REQUEST, Catalogue.from_database())
    return evaluate_range(definition, bases, 0, definition.total_points)


def test_the_serving_inputs_can_be_swept():
    for name in (
        "accelerators_per_replica",
        "ttft_target_seconds",
        "tpot_target_seconds",
        "memory_efficiency",
        "memory_utilization",
        "kv_cache_bytes_per_element",
        "bytes_per_parameter",
        "layers",
        "kv_heads",
        "head_dim",
        "total_parameters",
    ):
        assert f"inference.{name}" in SWEEPABLE


def test_a_replica_size_sweep_leaves_the_copies_that_do_not_fit_empty():
    figures = run(
        {"field": "inference.accelerators_per_replica", "kind": "list", "values": [8, 16, 24]}
    )
    replicas = figures["serving_accelerators_per_replica"]
    assert math.isnan(replicas[0])  # 811.8 GB of weights do not fit 8 × 72 GB
    # Nor anything resting on that copy: no accelerators, cost or energy at that point.
    for name in ("peak_accelerators", "inference_cost", "cost_per_request", "inference_energy_kwh"):
        assert math.isnan(figures[name][0]) and not math.isnan(figures[name][1]), name
    assert replicas[1:].tolist() == [16, 24]
    assert figures["peak_accelerators"][1] == 16 * figures["serving_replicas_at_peak"][1]


def test_a_time_per_token_target_sweep_trades_batch_for_speed():
    figures = run({"field": "inference.tpot_target_seconds", "kind": "list", "values": [0.06, 0.3]})
    batch, tpot = figures["serving_batch_size"], figures["serving_tpot_seconds"]
    assert batch[0] < batch[1]
    assert tpot[0] <= 0.06 < tpot[1]
    # Each copy serves fewer requests at the tighter target, so each costs more.
    assert figures["cost_per_request"][0] > figures["cost_per_request"][1]


def test_a_replica_size_that_splits_no_heads_is_refused_for_the_whole_sweep():
    with pytest.raises(Exception) as raised:
        run({"field": "inference.accelerators_per_replica", "kind": "list", "values": [3, 8]})
    assert "query heads" in str(raised.value)
    assert not isinstance(raised.value, DefinitionError)


def test_a_sweep_over_models_gives_each_model_its_own_dimensions():
    definition = definition_parse(
        {
            "models": ["llama-3.1-8b", "llama-3.3-70b", "llama-3.1-405b"],
            "inputs": [{"field": "inference.output_tokens", "kind": "list", "values": [100, 500]}],
        },
        {"inference": {**REQUEST["inference"], "layers": 999}},  # the scenario's own, replaced
    )
    assert definition.shape == (3, 2)
    assert definition.point(5) == {"model": "llama-3.1-405b", "inference.output_tokens": 500.0}
    bases = base_inputs(definition, REQUEST, Catalogue.from_database())
    figures = evaluate_range(definition, bases, 0, 6)
    replicas = figures["serving_accelerators_per_replica"].tolist()
    assert replicas[0] == replicas[1] == 1  # 8B on one H100
    assert replicas[4] == replicas[5] == 16  # 405B in bf16 on two nodes
    assert definition.as_dict()["models"] == ["llama-3.1-8b", "llama-3.3-70b", "llama-3.1-405b"]


def test_models_are_refused_when_the_scenario_does_not_serve_by_tokens():
    request = {"inference": {"method": "accelerator_seconds", "accelerator_seconds_per_request": 1}}
    with pytest.raises(DefinitionError) as raised:
        definition_parse({"models": ["llama-3.1-8b"]}, request)
    assert "by tokens" in raised.value.errors["models"][0]


def test_a_definition_without_models_is_stored_as_before():
    definition = definition_parse(
        {"inputs": [{"field": "inference.output_tokens", "kind": "list", "values": [100]}]},
        REQUEST,
    )
    assert "models" not in definition.as_dict()


def test_the_sweep_api_runs_models_and_reports_each_point_with_its_model(
    django_capture_on_commit_callbacks, monkeypatch
):
    from rest_framework.test import APIClient

    from apps.sweeps import runs, tasks
    from apps.sweeps.models import Sweep
    from tests.factories import make_manager, make_project, make_scenario

    monkeypatch.setattr(tasks.sweep_run_chunk, "delay", lambda *args: None)
    manager = make_manager()
    scenario = make_scenario(make_project(manager), inputs=REQUEST)
    client = APIClient()
    client.force_authenticate(manager)
    body = {
        "models": ["llama-3.1-8b", "llama-3.1-405b"],
        "inputs": [{"field": "inference.tpot_target_seconds", "kind": "list", "values": [0.1]}],
    }
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/v1/scenarios/{scenario.pk}/sweeps/", body, format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["definition"]["models"] == body["models"]
    assert created["name"].endswith("× 2 models")
    sweep = Sweep.objects.get(pk=created["id"])
    runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=0)
    results = client.get(f"/api/v1/sweeps/{sweep.pk}/results/").json()["results"]
    assert [row["inputs"]["model"] for row in results] == body["models"]
    per_copy = [row["figures"]["serving_accelerators_per_replica"] for row in results]
    assert per_copy == [1, 16]
    response = client.get(f"/api/v1/sweeps/{sweep.pk}/results.csv")
    csv_text = b"".join(response.streaming_content).decode()
    assert "llama-3.1-405b" in csv_text.splitlines()[2]


def test_the_sweep_page_offers_models_and_shows_them_per_point(client, monkeypatch):
    from apps.sweeps import runs, tasks
    from apps.sweeps.models import Sweep
    from tests.factories import make_manager, make_project, make_scenario
    from tests.integration.test_sweeps_pages import form_data

    monkeypatch.setattr(tasks.sweep_run_chunk, "delay", lambda *args: None)
    manager = make_manager()
    client.force_login(manager)
    scenario = make_scenario(make_project(manager), inputs=REQUEST)
    page = client.get(f"/scenarios/{scenario.pk}/sweeps/new/").content.decode()
    assert "Language models to compare" in page and 'value="deepseek-v3"' in page
    data = form_data(
        inputs__0__field="inference.output_tokens", inputs__0__kind="list", inputs__0__values="500"
    )
    data["models"] = ["llama-3.1-8b", "llama-3.3-70b"]
    response = client.post(f"/scenarios/{scenario.pk}/sweeps/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    sweep = Sweep.objects.get()
    runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=0)
    html = client.get(f"/sweeps/{sweep.pk}/").content.decode()
    assert '<th scope="col">Model</th>' in html
    assert "<td>Meta Llama 3.3 70B Instruct</td>" in html  # by name, as the form lists it


def test_a_change_to_a_catalogue_model_marks_the_sweeps_using_it_stale(
    django_capture_on_commit_callbacks, monkeypatch
):
    from apps.catalogue.models import LanguageModel
    from apps.sweeps import runs, services, tasks
    from tests.factories import make_manager, make_project, make_scenario

    for task in (tasks.sweep_run_chunk, tasks.sweep_requeue_run, tasks.scenario_recheck):
        monkeypatch.setattr(task, "delay", lambda *args: None)
    manager = make_manager()
    project = make_project(manager)
    inputs = {"field": "inference.output_tokens", "kind": "list", "values": [100]}
    own_model = services.sweep_create(
        scenario=make_scenario(project, inputs=REQUEST),
        created_by=manager,
        definition={"inputs": [inputs]},
    )
    listed = services.sweep_create(
        scenario=make_scenario(project, "Listed", inputs=REQUEST),
        created_by=manager,
        definition={"inputs": [inputs], "models": ["llama-3.1-8b"]},
    )
    for sweep in (own_model, listed):
        runs.sweep_chunk_store(sweep_id=sweep.pk, run=1, chunk_index=0)
    with django_capture_on_commit_callbacks(execute=True):
        model = LanguageModel.objects.get(slug="llama-3.1-8b")
        model.notes += " Checked again."
        model.save()
    own_model.refresh_from_db()
    listed.refresh_from_db()
    assert own_model.stale_since is None  # it serves llama-3.1-405b
    assert listed.stale_since is not None and listed.run == 2
