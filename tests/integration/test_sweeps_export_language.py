"""A sweep's CSV in the reader's language: its header in words with units, in English or French
as the download was asked for (and kept while it streams); its cells unlocalised, a percentage
in percent as the form shows it. The JSON results keep machine names. A sweep made or run in
French words what it stores (its name, a failure) in French."""

import csv
import io

import pytest
from django.utils import translation
from rest_framework.test import APIClient

from apps.sweeps import runs, services, tasks
from apps.sweeps.api import csv_response
from apps.sweeps.models import Sweep
from tests.factories import DEMAND_SWEEP, make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db

UTILISATION = {"field": "inference.target_utilization", "kind": "list", "values": [0.5, 0.7]}
DEFINITION = {"inputs": [DEMAND_SWEEP, UTILISATION], "accelerators": ["nvidia-h100-sxm"]}


@pytest.fixture
def manager():
    return make_manager()


@pytest.fixture
def sweep(manager, monkeypatch) -> Sweep:
    monkeypatch.setattr(tasks.sweep_run_chunk, "delay", lambda *args: None)
    made = services.sweep_create(
        scenario=make_scenario(make_project(manager)),
        created_by=manager,
        definition=DEFINITION,
        name="Demand and utilisation",
    )
    runs.sweep_chunk_store(sweep_id=made.pk, run=made.run, chunk_index=0)
    made.refresh_from_db()
    return made


def download(manager, sweep, language: str) -> list[list[str]]:
    client = APIClient()
    client.force_authenticate(manager)
    response = client.get(
        f"/api/v1/sweeps/{sweep.pk}/results.csv",
        headers={"accept": "text/csv", "accept-language": language},
    )
    assert response.status_code == 200
    content = b"".join(response.streaming_content)
    assert content.startswith("\ufeff".encode())  # Excel then reads the accents as UTF-8
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))


def test_the_header_is_in_english_words_with_units(manager, sweep):
    rows = download(manager, sweep, "en-gb")
    assert rows[0][:6] == [
        "Point",
        "Accelerator",
        "Inference: Requests in the first month",
        "Inference: Planned busy share of each accelerator (%)",
        "Total cost (training + inference) [USD]",
        "Training compute [FLOP]",
    ]
    assert "Training accelerator-hours [accelerator-hours]" in rows[0]
    assert "Accelerators needed at peak [accelerators]" in rows[0]
    assert "Output speed per copy of the model [tokens per second]" in rows[0]
    assert "Training share of accelerator-hours [share]" in rows[0]


def test_the_header_is_in_french_and_the_cells_are_not_localised(manager, sweep):
    english = download(manager, sweep, "en-gb")
    rows = download(manager, sweep, "fr")
    assert rows[0][:5] == [
        "Point",
        "Accélérateur",
        "Inférence\u00a0: Demandes le premier mois",
        "Inférence\u00a0: Taux d’occupation prévu de chaque accélérateur (%)",
        "Coût total (entraînement + inférence) [USD]",
    ]
    assert "Accélérateurs nécessaires en pointe [accélérateurs]" in rows[0]
    assert "Débit de sortie par copie du modèle [jetons par seconde]" in rows[0]
    # the same cells in both languages: a decimal point, no digit grouping
    assert rows[1:] == english[1:]
    assert len(rows) == 1 + sweep.total_points
    assert rows[1][:4] == ["0", "nvidia-h100-sxm", "1000.0", "50"]
    assert rows[2][:4] == ["1", "nvidia-h100-sxm", "1000.0", "70"]
    assert float(rows[1][4]) > 0 and "," not in rows[1][4]


def test_the_header_keeps_the_language_it_was_asked_in_while_it_streams(sweep):
    with translation.override("fr"):
        response = csv_response(sweep)
    with translation.override("en-gb"):
        first = next(iter(response.streaming_content)).decode()
    assert first.startswith("\ufeffPoint,Accélérateur,Inférence\u00a0: Demandes le premier mois")


def test_the_json_results_keep_machine_names_in_french(manager, sweep):
    client = APIClient()
    client.force_authenticate(manager)
    url = f"/api/v1/sweeps/{sweep.pk}/results/"
    french = client.get(url, headers={"accept-language": "fr"}).json()
    english = client.get(url, headers={"accept-language": "en-gb"}).json()
    assert french == english
    point = french["results"][0]
    assert set(point["inputs"]) == {
        "accelerator",
        "inference.requests_per_month",
        "inference.target_utilization",
    }
    assert point["inputs"]["inference.target_utilization"] == 0.5
    assert "total_cost" in point["figures"]


def test_a_sweep_made_in_french_is_named_and_queued_in_french(manager, monkeypatch):
    queued = []
    monkeypatch.setattr(tasks.sweep_run_chunk, "delay", lambda *args: queued.append(args))
    scenario = make_scenario(make_project(manager))
    with translation.override("fr"):
        made = services.sweep_create(scenario=scenario, created_by=manager, definition=DEFINITION)
        tasks.enqueue_chunks(made.pk, made.run, made.total_chunks)
    assert made.name == (
        "Inférence\u00a0: Demandes le premier mois × Inférence\u00a0: Taux d’occupation prévu "
        "de chaque accélérateur (%) × 1 accélérateur"
    )
    assert queued == [(made.pk, made.run, 0, "fr")]


def test_a_chunk_that_cannot_run_fails_the_sweep_in_the_language_it_was_queued_in(manager, sweep):
    Sweep.objects.filter(pk=sweep.pk).update(
        definition={"inputs": [{**UTILISATION, "field": "nonsense"}]}, run=2, status="running"
    )
    with pytest.raises(runs.SweepCannotRun) as raised, translation.override("fr"):
        runs.sweep_chunk_store(sweep_id=sweep.pk, run=2, chunk_index=0)
    tasks.sweep_run_chunk.on_failure(raised.value, "task-id", (sweep.pk, 2, 0, "fr"), {}, None)
    sweep.refresh_from_db()
    assert sweep.status == "failed"
    assert sweep.error == (
        "Le balayage ne peut pas être lancé\u00a0: Choisissez l’un des paramètres qu’un "
        "balayage peut faire varier."
    )


def test_the_sweep_api_answers_its_errors_in_the_readers_language(manager, monkeypatch):
    monkeypatch.setattr(tasks.sweep_run_chunk, "delay", lambda *args: None)
    waiting = services.sweep_create(
        scenario=make_scenario(make_project(manager)), created_by=manager, definition=DEFINITION
    )
    client = APIClient()
    client.force_authenticate(manager)
    french = {"accept-language": "fr"}
    url = f"/api/v1/sweeps/{waiting.pk}/"
    not_yet = client.get(f"{url}results.csv", headers={**french, "accept": "text/csv"})
    assert not_yet.status_code == 409
    assert not_yet.json() == {
        "detail": "Le balayage n’a pas encore de résultats\u00a0: il est en file d’attente."
    }
    client.post(f"{url}cancel/", headers=french)
    ended = client.post(f"{url}cancel/", headers=french)
    assert ended.json() == {"detail": "Le balayage est fini (annulé)."}
    runs.sweep_chunk_store(sweep_id=waiting.pk, run=waiting.run, chunk_index=0)
    Sweep.objects.filter(pk=waiting.pk).update(status="completed", results_run=waiting.run)
    too_big = client.get(f"{url}results/", {"page_size": "0"}, headers=french)
    assert too_big.status_code == 400
    assert too_big.json()["page_size"] == ["Indiquez un nombre entier de 1 à 1\u202f000."]
    english = client.get(f"{url}results/", {"page_size": "0"})
    assert english.json()["page_size"] == ["Give a whole number from 1 to 1,000."]
