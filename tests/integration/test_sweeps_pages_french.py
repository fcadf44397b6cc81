"""The sweep pages in French: the inputs offered and described, the status, the definition, the
chart's axis titles and the messages, in French words; the chart's data stays machine values."""

import json
import re
from html import unescape

import pytest
from django.test import Client

from apps.sweeps import runs, services, tasks
from tests.factories import DEMAND_SWEEP, make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db
FRENCH = {"accept-language": "fr"}


@pytest.fixture
def client_and_scenario(monkeypatch):
    monkeypatch.setattr(tasks.sweep_run_chunk, "delay", lambda *args: None)
    manager = make_manager()
    client = Client()
    client.force_login(manager)
    return client, make_scenario(make_project(manager))


def test_the_sweep_form_offers_and_explains_the_inputs_in_french(client_and_scenario):
    client, scenario = client_and_scenario
    html = client.get(f"/scenarios/{scenario.pk}/sweeps/new/", headers=FRENCH).content.decode()
    group = re.search(r'<optgroup label="Inférence">(.*?)</optgroup>', html, re.S)
    assert group is not None
    assert (
        '<option value="inference.requests_per_month">Demandes le premier mois</option>'
        in (group[1])
    )
    assert re.search(
        r'<optgroup label="Énergie">.*?Prix de l’électricité \(USD par kWh\)', html, re.S
    )
    assert "<dt>Inférence\u00a0: Demandes le premier mois</dt>" in unescape(html)


def test_a_finished_sweep_reads_in_french(client_and_scenario):
    client, scenario = client_and_scenario
    sweep = services.sweep_create(
        scenario=scenario,
        created_by=scenario.project.owner,
        definition={
            "inputs": [DEMAND_SWEEP],
            "accelerators": ["nvidia-h100-sxm", "nvidia-a100-sxm-80gb"],
            "accelerator_sections": ["inference"],
        },
    )
    runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=0)
    url = f"/sweeps/{sweep.pk}/?metric=inference_accelerator_hours"
    html = unescape(client.get(url, headers=FRENCH).content.decode())
    assert "<strong>Terminé</strong>" in html  # the status
    assert (
        '<dt>Accélérateurs (Inférence) <a class="term-link" href="/glossary/accelerator/">' in html
    )
    assert 'data-unit="Heures-accélérateur d’inférence sur l’horizon (heures-accélérateur)"' in html
    chart = json.loads(re.search(r'id="sweep-chart-data"[^>]*>(.*?)</script>', html, re.S)[1])
    assert chart["x_label"] == "Inférence\u00a0: Demandes le premier mois"
    assert chart["x_path"] == "inference.requests_per_month"  # a machine value, as it was
    cancelled = client.post(f"/sweeps/{sweep.pk}/cancel/", headers=FRENCH, follow=True)
    assert "Le balayage était déjà fini (Terminé)." in unescape(cancelled.content.decode())
