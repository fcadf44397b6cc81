"""A server stopped while a sweep runs in its thread, for real: runserver on the embedded default
(a SQLite file, no broker) is killed (SIGKILL: no chance to tidy up) with a sweep part done, then
started again on the same file; the next looks at the sweep have it go on from its stored chunks
to completed, as a worker's lost chunks are delivered again on Celery."""

import time
from pathlib import Path

from tests.servers import Api, Server, demo_credentials, embedded_env, embedded_setup

# 2 accelerators × 200,000 demand levels: 400,000 points in 40 chunks of 10,000, seconds of work.
LARGE = {
    "inputs": [
        {
            "field": "inference.requests_per_month",
            "kind": "log",
            "start": 1e3,
            "stop": 1e7,
            "steps": 200_000,
        }
    ],
    "accelerators": ["nvidia-h100-sxm", "nvidia-l4"],
}


def sweep_of(api: Api, url: str) -> dict:
    answer = api("GET", url)
    assert answer.status == 200, answer.body
    return answer.json()


def test_a_sweep_left_running_by_a_killed_server_completes_after_its_restart(tmp_path: Path):
    env = embedded_env(tmp_path, SWEEP_BACKGROUND_POINTS="1000", SWEEP_ABANDONED_AFTER_SECONDS="1")
    embedded_setup(tmp_path, env)
    server = Server.runserver(env, tmp_path / "server.log")
    try:
        api = Api(server.base).sign_in(*demo_credentials(tmp_path))
        project_id = api("GET", "/api/v1/projects/").json()[0]["id"]
        scenario_id = api("GET", f"/api/v1/projects/{project_id}/scenarios/").json()[0]["id"]
        created = api("POST", f"/api/v1/scenarios/{scenario_id}/sweeps/", LARGE)
        assert created.status == 201, created.body
        url = f"/api/v1/sweeps/{created.json()['id']}/"
        deadline = time.monotonic() + 120
        while (before := sweep_of(api, url))["chunks_done"] < 2:
            assert before["status"] in {"queued", "running"}, before
            assert time.monotonic() < deadline, before
            time.sleep(0.05)
    finally:
        server.process.kill()
        server.process.wait()
    assert before["status"] == "running" and before["chunks_done"] < 40, before

    server = Server.runserver(env, tmp_path / "restarted.log")
    try:
        api = Api(server.base, api.token)
        deadline = time.monotonic() + 180
        seen = []
        while (after := sweep_of(api, url))["status"] in {"queued", "running"}:
            seen.append(after["chunks_done"])
            assert time.monotonic() < deadline, after
            time.sleep(0.2)
    finally:
        server.stop()
    assert after["status"] == "completed", after
    assert (after["points_done"], after["chunks_done"]) == (400_000, 40)
    # It went on from where the killed server left it, not from the start.
    assert min(seen, default=40) >= before["chunks_done"]
