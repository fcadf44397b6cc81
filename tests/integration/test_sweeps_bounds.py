"""Sweeps within bounds: on the embedded default (no broker) a large sweep is computed in a thread
of the server, not in the request that defines it, with the progress a worker's chunks give, and
goes on from its stored chunks when its server stopped before it was done; and each person's
limits (sweeps queued or running, points in 24 hours) answer 429 with Retry-After,
in the API and on the page, in the reader's language."""

import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from apps.sweeps import background, runs
from apps.sweeps.models import Sweep
from config.celery import app as celery_app

# 2 accelerators × 1,500 demand levels: 3,000 points in 3 chunks of 1,000.
LARGE = {
    "inputs": [
        {
            "field": "inference.requests_per_month",
            "kind": "log",
            "start": 1e3,
            "stop": 1e7,
            "steps": 1_500,
        }
    ],
    "accelerators": ["nvidia-h100-sxm", "nvidia-l4"],
}
PEAK = {"inputs": [{"field": "inference.peak_to_average", "kind": "list", "values": [1, 2]}]}


@pytest.fixture
def api(owner) -> APIClient:
    client = APIClient()
    client.force_authenticate(owner)
    return client


@pytest.fixture
def embedded(settings, monkeypatch):
    """The embedded default, also where CI gives the suite a broker: tasks run where queued."""
    celery_app.conf.task_always_eager  # noqa: B018 (read the configuration before the change)
    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)
    settings.CELERY_TASK_ALWAYS_EAGER = True


def post_sweep(api, scenario, body, **headers):
    return api.post(f"/api/v1/scenarios/{scenario.pk}/sweeps/", body, format="json", **headers)


@pytest.mark.django_db(transaction=True)
def test_a_large_sweep_runs_in_the_background_and_its_progress_reaches_completed(
    api, scenario, settings, embedded
):
    settings.SWEEP_BACKGROUND_POINTS = 2_000
    response = post_sweep(api, scenario, LARGE)
    assert response.status_code == 201, response.json()
    # The request answered before computing a point: the sweep is still to do.
    assert (response.json()["status"], response.json()["points_done"]) == ("queued", 0)
    url = f"/api/v1/sweeps/{response.json()['id']}/"
    seen = set()
    deadline = time.monotonic() + 60
    while (body := api.get(url).json())["status"] in {"queued", "running"}:
        seen.add((body["status"], body["chunks_done"]))
        assert time.monotonic() < deadline, body
        time.sleep(0.02)
    assert body["status"] == "completed", body
    assert (body["points_done"], body["chunks_done"]) == (3_000, 3)
    summary = api.get(f"{url}summary/")
    assert summary.status_code == 200 and summary.json()["total_points"] == 3_000
    assert seen  # the API showed it queued or running before it was done


def sweep_left_by_a_stopped_server(api, scenario, settings, monkeypatch) -> Sweep:
    """A large sweep whose server stopped after the first of its 3 chunks, as a restarted server
    finds it: running, its thread's last stamp older than SWEEP_ABANDONED_AFTER_SECONDS, and held
    by no thread of this process."""
    settings.SWEEP_BACKGROUND_POINTS = 2_000
    with monkeypatch.context() as stopped:
        stopped.setattr(background, "enqueue_chunks_in_background", lambda *args: None)
        response = post_sweep(api, scenario, LARGE)
    sweep = Sweep.objects.get(pk=response.json()["id"])
    assert runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=0)
    last_sign = timezone.now() - timedelta(seconds=settings.SWEEP_ABANDONED_AFTER_SECONDS + 1)
    Sweep.objects.filter(pk=sweep.pk).update(heartbeat_at=last_sign)
    sweep.refresh_from_db()
    assert (sweep.status, sweep.chunks_done) == ("running", 1)
    return sweep


def ended(sweep: Sweep) -> Sweep:
    deadline = time.monotonic() + 60
    while (sweep := Sweep.objects.get(pk=sweep.pk)).is_active:
        assert time.monotonic() < deadline, (sweep.status, sweep.chunks_done)
        time.sleep(0.02)
    return sweep


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("where", ["its API", "its page", "its scenario's sweeps"])
def test_a_sweep_left_running_by_a_stopped_server_goes_on_when_next_looked_at(
    api, owner, scenario, settings, embedded, monkeypatch, where
):
    sweep = sweep_left_by_a_stopped_server(api, scenario, settings, monkeypatch)
    client = Client()
    client.force_login(owner)
    response = {
        "its API": lambda: api.get(f"/api/v1/sweeps/{sweep.pk}/"),
        "its page": lambda: client.get(sweep.get_absolute_url()),
        "its scenario's sweeps": lambda: api.get(f"/api/v1/scenarios/{scenario.pk}/sweeps/"),
    }[where]()
    assert response.status_code == 200
    sweep = ended(sweep)
    assert (sweep.status, sweep.points_done, sweep.chunks_done) == ("completed", 3_000, 3)
    # The chunk stored before the server stopped was kept, not computed again.
    assert sweep.chunks.filter(run=sweep.run).count() == 3
    summary = api.get(f"/api/v1/sweeps/{sweep.pk}/summary/")
    assert summary.status_code == 200 and summary.json()["total_points"] == 3_000


@pytest.mark.django_db(transaction=True)
def test_a_sweep_whose_server_is_alive_is_not_queued_twice(
    api, scenario, settings, embedded, monkeypatch
):
    sweep = sweep_left_by_a_stopped_server(api, scenario, settings, monkeypatch)
    queued_again = []
    monkeypatch.setattr(
        background, "enqueue_chunks_in_background", lambda *args: queued_again.append(args)
    )
    Sweep.objects.filter(pk=sweep.pk).update(heartbeat_at=timezone.now())
    assert api.get(f"/api/v1/sweeps/{sweep.pk}/").json()["status"] == "running"
    assert queued_again == []
    # Past the time without a sign it is queued again, its stamp renewed by the process that
    # took it: looked at again, it is not queued a second time.
    settings.SWEEP_ABANDONED_AFTER_SECONDS = 0
    api.get(f"/api/v1/sweeps/{sweep.pk}/")
    settings.SWEEP_ABANDONED_AFTER_SECONDS = 60
    api.get(f"/api/v1/sweeps/{sweep.pk}/")
    api.get(f"/api/v1/scenarios/{scenario.pk}/sweeps/")
    assert queued_again == [(sweep.pk, sweep.run, 3)]


@pytest.mark.django_db(transaction=True)
def test_a_sweep_at_or_under_the_background_size_is_computed_in_its_request(
    api, scenario, settings, embedded
):
    settings.SWEEP_BACKGROUND_POINTS = 3_000
    response = post_sweep(api, scenario, LARGE)
    assert response.status_code == 201
    assert Sweep.objects.get().status == "completed"


@pytest.mark.django_db
def test_more_running_sweeps_than_allowed_get_a_429_with_retry_after_in_french(
    api, scenario, settings, queued, django_capture_on_commit_callbacks
):
    settings.SWEEP_MAX_ACTIVE_PER_USER = 2
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(2):
            assert post_sweep(api, scenario, PEAK).status_code == 201
    response = post_sweep(api, scenario, PEAK, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 429
    assert response["Retry-After"] == "30"
    assert response.json() == {
        "detail": "Vous avez 2 balayages en attente ou en cours, le maximum pour une personne\u00a0: "
        "attendez que l’un d’eux se termine, ou annulez-en un, puis réessayez dans 30 secondes."
    }
    assert Sweep.objects.count() == 2


@pytest.mark.django_db
def test_points_past_the_daily_allowance_get_a_429_until_the_oldest_sweep_is_a_day_old(
    api, scenario, settings, queued, django_capture_on_commit_callbacks
):
    settings.SWEEP_MAX_POINTS_PER_DAY = 5_000
    with django_capture_on_commit_callbacks(execute=True):
        assert post_sweep(api, scenario, LARGE).status_code == 201
    Sweep.objects.update(
        status="completed", created_at=timezone.now() - timedelta(hours=20, minutes=30)
    )
    response = post_sweep(api, scenario, LARGE)
    assert response.status_code == 429
    # The first sweep leaves the 24 hours in 3 h 30 min.
    assert 3.5 * 3600 - 60 <= int(response["Retry-After"]) <= 3.5 * 3600
    assert response.json()["detail"] == (
        "Sweeps of 5,000 points in 24 hours are as many as one person may start: this one "
        "would pass that. Try again in 4 hours, or vary fewer values."
    )
    # A smaller sweep still fits in what is left of the day.
    with django_capture_on_commit_callbacks(execute=True):
        assert post_sweep(api, scenario, PEAK).status_code == 201
    # More points than a whole day's allowance is no matter of waiting: a 400.
    settings.SWEEP_MAX_POINTS_PER_DAY = 2_000
    Sweep.objects.all().delete()
    response = post_sweep(api, scenario, LARGE)
    assert response.status_code == 400
    assert "at most 2,000 points" in response.json()["non_field_errors"][0]


@pytest.mark.django_db
def test_the_sweep_form_answers_a_reached_limit_with_429_and_the_message(
    owner, scenario, settings, queued, django_capture_on_commit_callbacks
):
    settings.SWEEP_MAX_ACTIVE_PER_USER = 1
    client = Client()
    client.force_login(owner)
    data = {
        "inputs-TOTAL_FORMS": "1",
        "inputs-INITIAL_FORMS": "0",
        "inputs-MIN_NUM_FORMS": "0",
        "inputs-MAX_NUM_FORMS": "3",
        "name": "",
        "inputs-0-field": "inference.peak_to_average",
        "inputs-0-kind": "list",
        "inputs-0-values": "1; 2",
    }
    url = f"/scenarios/{scenario.pk}/sweeps/new/"
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, data).status_code == 302
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 429
    assert response["Retry-After"] == "30"
    page = response.content.decode()
    assert "Vous avez 1 balayage en attente ou en cours" in page
    assert 'value="1; 2"' in page  # what was typed is kept
    assert Sweep.objects.count() == 1
