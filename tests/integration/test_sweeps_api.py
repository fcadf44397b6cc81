"""/api/v1/ sweeps: define, read progress, results, summary and CSV, cancel; the pages'
permissions; a chunk stored once however often it is written. Chunks run here by calling the
service the Celery task calls (test_sweeps_worker.py runs them on a real worker)."""

import csv
import io
import math

import kombu.exceptions
import pytest
from django.core.management import call_command
from django.db import OperationalError
from rest_framework.test import APIClient

from apps.catalogue.resolve import estimate_input_from_request
from apps.catalogue.snapshot import Catalogue
from apps.estimates import evaluate
from apps.sweeps import runs, services, tasks
from apps.sweeps.models import Sweep, SweepChunk
from tests.factories import make_manager

pytestmark = pytest.mark.django_db

DEMAND = {
    "field": "inference.requests_per_month",
    "kind": "log",
    "start": 1e3,
    "stop": 1e7,
    "steps": 9,
}
PEAK = {"field": "inference.peak_to_average", "kind": "list", "values": [1, 2, 4]}
CHIPS = ["nvidia-h100-sxm", "nvidia-l4"]


@pytest.fixture
def client(owner) -> APIClient:
    client = APIClient()
    client.force_authenticate(owner)
    return client


def run_chunks(sweep: Sweep) -> None:
    sweep.refresh_from_db()
    for index in range(sweep.total_chunks):
        runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=index)
    sweep.refresh_from_db()


def create(client, scenario, django_capture_on_commit_callbacks, **body):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(f"/api/v1/scenarios/{scenario.pk}/sweeps/", body, format="json")
    return response, callbacks


def test_a_sweep_is_stored_and_its_chunks_queued_after_the_commit(
    client, scenario, queued, django_capture_on_commit_callbacks
):
    response, callbacks = create(
        client,
        scenario,
        django_capture_on_commit_callbacks,
        inputs=[DEMAND, PEAK],
        accelerators=CHIPS,
        accelerator_sections=["inference"],
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    sweep = Sweep.objects.get()
    assert body["id"] == sweep.pk
    assert body["status"] == "queued"
    assert (
        body["name"]
        == "Inference: Requests in the first month × Inference: Peak-to-average ratio × 2 accelerators"
    )
    assert (body["total_points"], body["points_done"]) == (2 * 9 * 3, 0)
    assert (body["total_chunks"], body["chunks_done"]) == (1, 0)
    assert body["definition"]["accelerator_sections"] == ["inference"]
    assert body["links"]["results"] == f"/api/v1/sweeps/{sweep.pk}/results/"
    assert sweep.base_inputs == scenario.inputs
    assert len(callbacks) == 1
    assert queued == [(sweep.pk, 1, 0, "en-gb")]  # the language of the words a run stores


def test_over_a_million_points_gets_a_400_and_nothing_is_stored_or_queued(
    client, scenario, queued, django_capture_on_commit_callbacks
):
    demand = {**DEMAND, "steps": 600_000}
    response, callbacks = create(
        client, scenario, django_capture_on_commit_callbacks, inputs=[demand], accelerators=CHIPS
    )
    assert response.status_code == 400
    assert response.json() == {
        "non_field_errors": [
            "This sweep has 2 × 600,000 = 1,200,000 points; a sweep can have at most "
            "1,000,000. Use fewer steps or values, or fewer accelerators."
        ]
    }
    assert not Sweep.objects.exists()
    assert not callbacks and not queued


def test_bad_definitions_get_messages_at_their_fields(
    client, scenario, django_capture_on_commit_callbacks
):
    log_from_zero = {**DEMAND, "start": 0}
    response, _ = create(
        client, scenario, django_capture_on_commit_callbacks, inputs=[PEAK, log_from_zero]
    )
    assert response.status_code == 400
    assert response.json() == {
        "inputs": {"1": {"start": ["A logarithmic range needs a start and stop above 0."]}}
    }
    response, _ = create(
        client, scenario, django_capture_on_commit_callbacks, inputs=[{**DEMAND, "colour": "red"}]
    )
    assert response.json() == {"inputs": {"0": {"colour": ["Unknown field."]}}}
    response, _ = create(
        client, scenario, django_capture_on_commit_callbacks, accelerators=["nvidia-v100-sxm2"]
    )
    assert response.status_code == 400
    assert (
        "cannot compute in bf16: the catalogue has no published dense bf16 peak"
        in response.json()["accelerators"][0]
    )
    assert not Sweep.objects.exists()


def test_strangers_get_404_and_anonymous_callers_are_refused(
    client, scenario, owner, queued, django_capture_on_commit_callbacks
):
    response, _ = create(client, scenario, django_capture_on_commit_callbacks, inputs=[PEAK])
    sweep_id = response.json()["id"]
    stranger = APIClient()
    stranger.force_authenticate(make_manager("stranger"))
    urls = [
        f"/api/v1/sweeps/{sweep_id}/{tail}" for tail in ("", "results/", "summary/", "results.csv")
    ]
    for url in urls:
        assert stranger.get(url).status_code == 404, url
        assert APIClient().get(url).status_code in (401, 403), url
    assert stranger.post(f"/api/v1/sweeps/{sweep_id}/cancel/").status_code == 404
    assert (
        stranger.post(
            f"/api/v1/scenarios/{scenario.pk}/sweeps/", {"inputs": [PEAK]}, format="json"
        ).status_code
        == 404
    )
    collaborator = make_manager("colleague")
    scenario.project.collaborators.add(collaborator)
    colleague = APIClient()
    colleague.force_authenticate(collaborator)
    assert colleague.get(urls[0]).status_code == 200


@pytest.mark.parametrize("negotiation", [{"format": "csv"}, {"HTTP_ACCEPT": "text/csv"}])
def test_the_csv_download_answers_its_errors_in_json_even_when_csv_is_asked_for(
    client, scenario, queued, django_capture_on_commit_callbacks, negotiation
):
    response, _ = create(client, scenario, django_capture_on_commit_callbacks, inputs=[PEAK])
    query = {"format": negotiation["format"]} if "format" in negotiation else {}
    accept = {key: value for key, value in negotiation.items() if key != "format"}
    url = f"/api/v1/sweeps/{response.json()['id']}/results.csv"
    not_done = client.get(url, query, **accept)
    assert not_done.status_code == 409
    assert not_done["Content-Type"] == "application/json"
    assert not_done.json() == {"detail": "The sweep has no results yet: it is queued."}
    missing = client.get("/api/v1/sweeps/999999/results.csv", query, **accept)
    assert missing.status_code == 404
    assert missing["Content-Type"] == "application/json"
    assert missing.json() == {"detail": "No Sweep matches the given query."}


def test_results_summary_and_csv_after_every_chunk_is_stored(
    client, scenario, queued, django_capture_on_commit_callbacks
):
    response, _ = create(
        client,
        scenario,
        django_capture_on_commit_callbacks,
        inputs=[DEMAND, PEAK],
        accelerators=CHIPS,
        accelerator_sections=["inference"],
    )
    sweep = Sweep.objects.get(pk=response.json()["id"])
    url = f"/api/v1/sweeps/{sweep.pk}/"
    assert client.get(f"{url}results/").status_code == 409
    assert client.get(f"{url}summary/").json() == {
        "detail": "The sweep has no results yet: it is queued."
    }
    run_chunks(sweep)
    progress = client.get(url).json()
    assert progress["status"] == "completed"
    assert (progress["points_done"], progress["chunks_done"], progress["percent_done"]) == (
        54,
        1,
        100,
    )

    page = client.get(f"{url}results/?page=2&page_size=20").json()
    assert (page["count"], page["page"], page["pages"]) == (54, 2, 3)
    assert page["next"].endswith(f"{url}results/?page=3&page_size=20")
    point = page["results"][0]
    assert point["index"] == 20
    # Point 20 = accelerator 0, demand position 6, peak position 2 (mixed radix 9 × 3).
    assert point["inputs"] == {
        "accelerator": "nvidia-h100-sxm",
        "inference.requests_per_month": pytest.approx(1e6),
        "inference.peak_to_average": 4.0,
    }
    request = {
        **scenario.inputs,
        "inference": {
            **scenario.inputs["inference"],
            "requests_per_month": point["inputs"]["inference.requests_per_month"],
            "peak_to_average": 4.0,
        },
    }
    figures = evaluate(estimate_input_from_request(request, Catalogue.load())[0])
    assert point["figures"]["inference_cost"] == figures.inference_cost
    assert point["figures"]["total_cost"] == figures.training_cost + figures.inference_cost
    assert client.get(f"{url}results/?page=4&page_size=20").status_code == 400
    assert client.get(f"{url}results/?page=").status_code == 400  # empty is not "the first"

    summary = client.get(f"{url}summary/").json()
    cost = summary["figures"]["total_cost"]
    assert (cost["count"], cost["missing"], cost["unit"]) == (54, 0, "USD")
    assert cost["min_at"]["inputs"]["inference.requests_per_month"] == 1e3
    cheapest = summary["rankings"]["cheapest"]
    assert len(cheapest) == 5 and cheapest[0]["figures"]["total_cost"] == cost["min"]

    download = client.get(f"{url}results.csv", HTTP_ACCEPT="text/csv")
    assert download.status_code == 200
    assert download["Content-Disposition"] == f'attachment; filename="sweep-{sweep.pk}.csv"'
    content = b"".join(download.streaming_content)
    assert content.startswith("\ufeff".encode())  # so that Excel reads it as UTF-8
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    assert rows[0][:5] == [
        "Point",
        "Accelerator",
        "Inference: Requests in the first month",
        "Inference: Peak-to-average ratio",
        "Total cost (training + inference) [USD]",
    ]
    assert len(rows) == 55
    assert rows[21][:4] == [
        "20",
        "nvidia-h100-sxm",
        repr(point["inputs"]["inference.requests_per_month"]),
        "4.0",
    ]
    assert float(rows[21][4]) == point["figures"]["total_cost"]


def test_a_chunk_written_twice_is_stored_and_counted_once(scenario, owner):
    sweep = services.sweep_create(
        scenario=scenario, created_by=owner, definition={"inputs": [DEMAND, PEAK]}, chunk_size=10
    )
    assert sweep.total_chunks == 3
    assert runs.sweep_chunk_store(sweep_id=sweep.pk, run=1, chunk_index=1)
    assert not runs.sweep_chunk_store(sweep_id=sweep.pk, run=1, chunk_index=1)
    sweep.refresh_from_db()
    assert (sweep.chunks_done, sweep.points_done, sweep.status) == (1, 10, "running")
    # Another worker's row for the same chunk, stored between this one's check and its insert.
    first = SweepChunk.objects.get()
    monkey_exists = SweepChunk.objects.filter(pk=first.pk)
    first.pk, first.index = None, 2
    first.save()
    assert not runs.sweep_chunk_store(sweep_id=sweep.pk, run=1, chunk_index=2)
    sweep.refresh_from_db()
    assert (sweep.chunks_done, sweep.points_done) == (1, 10)
    assert monkey_exists.count() == 1


def test_cancelling_stops_the_sweep_and_its_remaining_chunks(client, scenario, owner):
    sweep = services.sweep_create(
        scenario=scenario, created_by=owner, definition={"inputs": [DEMAND, PEAK]}, chunk_size=10
    )
    runs.sweep_chunk_store(sweep_id=sweep.pk, run=1, chunk_index=0)
    response = client.post(f"/api/v1/sweeps/{sweep.pk}/cancel/")
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    assert not runs.sweep_chunk_store(sweep_id=sweep.pk, run=1, chunk_index=1)
    assert SweepChunk.objects.count() == 1
    again = client.post(f"/api/v1/sweeps/{sweep.pk}/cancel/")
    assert again.status_code == 409
    assert again.json() == {"detail": "The sweep has ended (cancelled)."}


def test_a_chunk_that_keeps_failing_fails_the_sweep_with_its_reason(scenario, owner):
    sweep = services.sweep_create(
        scenario=scenario, created_by=owner, definition={"inputs": [PEAK]}
    )
    Sweep.objects.filter(pk=sweep.pk).update(definition={"inputs": [{**PEAK, "field": "nonsense"}]})
    with pytest.raises(runs.SweepCannotRun) as raised:
        runs.sweep_chunk_store(sweep_id=sweep.pk, run=1, chunk_index=0)
    tasks.sweep_run_chunk.on_failure(raised.value, "task-id", (sweep.pk, 1, 0), {}, None)
    sweep.refresh_from_db()
    assert sweep.status == "failed"
    assert sweep.error == "The sweep cannot run: Choose one of the inputs a sweep can vary."
    assert sweep.finished_at is not None


def test_a_passing_database_fault_is_retried_with_backoff(scenario, owner, monkeypatch):
    assert tasks.sweep_run_chunk.acks_late and tasks.sweep_run_chunk.reject_on_worker_lost
    assert OperationalError in tasks.sweep_run_chunk.autoretry_for
    assert tasks.sweep_run_chunk.retry_backoff and tasks.sweep_run_chunk.max_retries == 5
    sweep = services.sweep_create(
        scenario=scenario, created_by=owner, definition={"inputs": [PEAK]}
    )
    store, faults = runs.sweep_chunk_store, []

    def flaky(**kwargs):
        if not faults:
            faults.append(kwargs)
            raise OperationalError("server closed the connection unexpectedly")
        return store(**kwargs)

    monkeypatch.setattr(runs, "sweep_chunk_store", flaky)
    # apply() runs the task here, with Celery's retry machinery, without a broker or a worker.
    result = tasks.sweep_run_chunk.apply(args=(sweep.pk, 1, 0), throw=False)
    assert result.successful() and faults
    sweep.refresh_from_db()
    assert sweep.status == "completed" and sweep.points_done == 3


def test_a_broker_that_does_not_answer_fails_the_sweep_with_the_reason(
    scenario, owner, monkeypatch, django_capture_on_commit_callbacks
):
    def unreachable(*args):
        raise kombu.exceptions.OperationalError("Error 111 connecting to 127.0.0.1:6379.")

    monkeypatch.setattr(tasks.sweep_run_chunk, "delay", unreachable)
    with (
        pytest.raises(services.QueueUnavailable),
        django_capture_on_commit_callbacks(execute=True),
    ):
        services.sweep_create(scenario=scenario, created_by=owner, definition={"inputs": [PEAK]})
    sweep = Sweep.objects.get()
    assert sweep.status == "failed"
    assert sweep.error == (
        "The sweep could not be queued (the task broker did not answer: "
        "Error 111 connecting to 127.0.0.1:6379.)."
    )


def test_at_most_five_active_sweeps_a_person(
    client, scenario, queued, django_capture_on_commit_callbacks, settings
):
    assert settings.SWEEP_MAX_ACTIVE_PER_USER == 5
    for _ in range(5):
        response, _ = create(client, scenario, django_capture_on_commit_callbacks, inputs=[PEAK])
        assert response.status_code == 201
    response, _ = create(client, scenario, django_capture_on_commit_callbacks, inputs=[PEAK])
    assert response.status_code == 429
    assert response.json()["detail"].startswith("You have 5 sweeps queued or running")


def test_the_openapi_schema_documents_the_sweep_api_without_warnings():
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    schema = out.getvalue()
    for path in (
        "/api/v1/scenarios/{scenario_id}/sweeps/:",
        "/api/v1/sweeps/{sweep_id}/:",
        "/api/v1/sweeps/{sweep_id}/results/:",
        "/api/v1/sweeps/{sweep_id}/summary/:",
        "/api/v1/sweeps/{sweep_id}/results.csv:",
        "/api/v1/sweeps/{sweep_id}/cancel/:",
    ):
        assert path in schema, path
    assert math.isfinite(len(schema))
