"""Sweeps store the whole footprint for every point (embodied emissions and water beside energy
and emissions) and show it on the page, in the API and the CSV, in both languages; a sweep whose
chunks were stored before those figures were added says they were not computed, and nothing
breaks. Chunks run here by calling the service the Celery task calls."""

import csv
import io
import math
import re
from html import unescape

import numpy as np
import pytest
from django.test import Client
from ecologits.tracers.utils import llm_impacts
from ecologits.utils.range_value import RangeValue
from rest_framework.test import APIClient

from apps.catalogue.resolve import estimate_input_from_request
from apps.catalogue.snapshot import Catalogue
from apps.estimates import estimate
from apps.sweeps import runs, services
from apps.sweeps.charts import chunk_samples
from apps.sweeps.models import Sweep, SweepChunk
from apps.sweeps.selectors import sweep_definition
from apps.sweeps.storage import chunk_summary, columns_decode, columns_encode
from tests.factories import make_project, make_scenario

pytestmark = pytest.mark.django_db

DEMAND = {
    "field": "inference.requests_per_month",
    "kind": "log",
    "start": 1e3,
    "stop": 1e7,
    "steps": 5,
}
# The H100 SXM has a life-cycle figure in the catalogue (985.5 kg CO2e over 3 years); the L4
# has none ("not published").
DEFINITION = {
    "inputs": [DEMAND],
    "accelerators": ["nvidia-h100-sxm", "nvidia-l4"],
    "accelerator_sections": ["inference"],
}
FOOTPRINT = (
    "training_embodied_kg_co2e",
    "training_water_litres",
    "inference_emissions_kg_co2e",
    "inference_embodied_kg_co2e",
    "inference_water_litres",
)  # fmt: skip
# The default energy profile (world average grid, industry PUE): PUE 1.56, 0.481 kg CO2e per
# kWh, on-site WUE 1.8 L per kWh of IT energy, grid water 3.908 L per kWh.
PUE, KG_PER_KWH, WUE, GRID_WATER = 1.56, 0.481, 1.8, 3.908
EMBODIED_PER_HOUR_H100 = 985.5 / (3 * 8766)  # rented: the service life behind the figure


@pytest.fixture
def sweep(scenario, owner) -> Sweep:
    """The factories' scenario (seed 000: 200 H100 hours of training, 2 accelerator-seconds a
    request), its inference swept over five demands on two accelerators, every chunk stored."""
    sweep = services.sweep_create(
        scenario=scenario, created_by=owner, definition=DEFINITION, chunk_size=4
    )
    for index in range(sweep.total_chunks):
        runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=index)
    sweep.refresh_from_db()
    assert sweep.status == "completed" and sweep.total_chunks == 3
    return sweep


def api(owner) -> APIClient:
    client = APIClient()
    client.force_authenticate(owner)
    return client


def points(client, sweep) -> list[dict]:
    return client.get(f"/api/v1/sweeps/{sweep.pk}/results/?page_size=100").json()["results"]


def test_every_point_carries_embodied_emissions_and_water_computed_by_hand(sweep, owner):
    rows = points(api(owner), sweep)
    assert len(rows) == 10
    for row in rows:
        figures = row["figures"]
        # Training: 200 H100 hours at 700 W, PUE 1.56 = 218.4 kWh; 105.05 kg CO2e;
        # 200 × 985.5 / (3 × 8,766) = 7.4949 kg embodied; 218.4 / 1.56 × 1.8 + 218.4 × 3.908
        # = 252 + 853.5072 = 1,105.5072 L.
        assert figures["training_energy_kwh"] == pytest.approx(218.4)
        assert figures["training_emissions_kg_co2e"] == pytest.approx(218.4 * KG_PER_KWH)
        assert figures["training_embodied_kg_co2e"] == pytest.approx(7.49487, rel=1e-5)
        assert figures["training_water_litres"] == pytest.approx(1105.5072)
        kwh = figures["inference_energy_kwh"]
        assert figures["inference_emissions_kg_co2e"] == pytest.approx(kwh * KG_PER_KWH)
        assert figures["inference_water_litres"] == pytest.approx(
            kwh / PUE * WUE + kwh * GRID_WATER
        )
        if row["inputs"]["accelerator"] == "nvidia-h100-sxm":
            assert figures["inference_embodied_kg_co2e"] == pytest.approx(
                figures["inference_accelerator_hours"] * EMBODIED_PER_HOUR_H100
            )
        else:
            assert figures["inference_embodied_kg_co2e"] is None  # not published for the L4


def test_a_sweep_point_has_the_footprint_the_scenario_estimate_gives(sweep, owner, scenario):
    row = points(api(owner), sweep)[3]  # the H100 at the fourth demand
    request = {
        **scenario.inputs,
        "inference": {
            **scenario.inputs["inference"],
            "accelerator": row["inputs"]["accelerator"],
            "requests_per_month": row["inputs"]["inference.requests_per_month"],
        },
    }
    result = estimate(estimate_input_from_request(request, Catalogue.load())[0])
    figures = row["figures"]
    assert figures["training_embodied_kg_co2e"] == pytest.approx(result.training.embodied_kg_co2e)
    assert figures["training_water_litres"] == pytest.approx(result.training.water_litres)
    total = result.inference.total
    assert figures["inference_emissions_kg_co2e"] == pytest.approx(total.emissions_kg_co2e)
    assert figures["inference_embodied_kg_co2e"] == pytest.approx(total.embodied_kg_co2e)
    assert figures["inference_water_litres"] == pytest.approx(total.water_litres)


def test_the_summary_and_the_csv_name_the_footprint_with_its_units(sweep, owner):
    client = api(owner)
    summary = client.get(f"/api/v1/sweeps/{sweep.pk}/summary/").json()["figures"]
    water = summary["inference_water_litres"]
    assert (water["label"], water["unit"], water["count"], water["computed"]) == (
        "Inference water over the horizon",
        "L",
        10,
        True,
    )
    embodied = summary["inference_embodied_kg_co2e"]
    assert (embodied["unit"], embodied["count"], embodied["missing"]) == ("kg CO2e", 5, 5)
    assert summary["training_energy_kwh"]["computed"] is True  # the names kept as they were

    for language, header in (
        ("en", "Inference embodied emissions over the horizon [kg CO2e]"),
        ("fr", "Émissions intrinsèques de l’inférence sur l’horizon [kg CO2e]"),
    ):
        response = client.get(
            f"/api/v1/sweeps/{sweep.pk}/results.csv",
            HTTP_ACCEPT="text/csv",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        rows = list(
            csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig")))
        )
        column = rows[0].index(header)
        cells = [row[column] for row in rows[1:]]
        assert all(cells[:5]) and not any(cells[5:])  # the H100's five, the L4's not published


def chunks_written_before_the_footprint(sweep: Sweep) -> None:
    """Store the sweep's chunks again as the code before embodied emissions and water wrote
    them: the same blob format, summary and samples without those columns."""
    definition = sweep_definition(sweep)
    for chunk in SweepChunk.objects.filter(sweep=sweep):
        every = columns_decode(chunk.results)
        columns = {
            name: np.array(values) for name, values in every.items() if name not in FOOTPRINT
        }
        start = chunk.index * sweep.chunk_size
        chunk.results = columns_encode(columns)
        chunk.summary = chunk_summary(columns, start)
        samples = chunk_samples(definition, every, start)
        samples["figures"] = {k: v for k, v in samples["figures"].items() if k not in FOOTPRINT}
        chunk.samples = samples
        chunk.save()


def test_a_sweep_stored_before_the_footprint_says_it_was_not_computed(sweep, owner):
    chunks_written_before_the_footprint(sweep)
    assert "inference_water_litres" not in columns_decode(SweepChunk.objects.first().results)
    client = api(owner)
    rows = points(client, sweep)
    assert all(row["figures"]["inference_water_litres"] is None for row in rows)
    assert rows[0]["figures"]["inference_energy_kwh"] > 0  # the others read as they were
    summary = client.get(f"/api/v1/sweeps/{sweep.pk}/summary/").json()
    water = summary["figures"]["inference_water_litres"]
    assert (water["computed"], water["count"], water["missing"], water["mean"]) == (
        False,
        0,
        10,
        None,
    )
    assert summary["figures"]["total_cost"]["computed"] is True
    assert summary["rankings"]["cheapest"][0]["figures"]["training_water_litres"] is None
    response = client.get(f"/api/v1/sweeps/{sweep.pk}/results.csv", HTTP_ACCEPT="text/csv")
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    column = rows[0].index("Training water [L]")
    assert len(rows) == 11 and not any(row[column] for row in rows[1:])


@pytest.mark.parametrize(
    ("language", "note", "cell"),
    [
        ("en", "Not computed for this sweep, which was computed before they were added", "not computed"),
        ("fr", "Non calculés pour ce balayage, calculé avant leur ajout", "non calculé"),
    ],
)  # fmt: skip
def test_the_sweep_page_of_an_older_sweep_says_not_computed(sweep, owner, language, note, cell):
    chunks_written_before_the_footprint(sweep)
    client = Client()
    client.force_login(owner)
    headers = {"accept-language": language}
    # The chart asked for a figure the chunks do not hold shows the first one instead.
    html = client.get(f"{sweep.get_absolute_url()}?metric=inference_water_litres", headers=headers)
    assert html.status_code == 200
    text = unescape(html.content.decode())
    assert note in text
    row = re.search(
        r'<tr><th scope="row">[^<]*(?:Training water|Eau de l’entraînement).*?</tr>', text
    )
    assert row is not None and row[0].count(f"<td>{cell}</td>") == 3
    assert 'value="inference_water_litres"' not in text


@pytest.mark.parametrize(
    ("language", "label"),
    [("en", "Inference water over the horizon"), ("fr", "Eau de l’inférence sur l’horizon")],
)
def test_the_sweep_page_shows_the_footprint_in_both_languages(sweep, owner, language, label):
    client = Client()
    client.force_login(owner)
    html = client.get(sweep.get_absolute_url(), headers={"accept-language": language})
    text = unescape(html.content.decode())
    assert re.search(rf'<th scope="row">{label} <a [^>]*href="/glossary/water/', text)
    assert f'<option value="inference_water_litres">{label}</option>' in text
    assert "Not computed for this sweep" not in text
    # A chart of the water: its unit in the canvas' data, its figures in the table.
    chart = client.get(
        f"{sweep.get_absolute_url()}?metric=inference_water_litres",
        headers={"accept-language": language},
    )
    assert f'data-unit="{label} (L)"' in unescape(chart.content.decode())


def test_a_sweep_of_an_external_api_stores_the_footprint_ecologits_computes(owner):
    """GPT-4o, 1,000 input and 400 + 100 reasoning tokens a request, swept over demand: each
    point's inference footprint is its requests × the middle of EcoLogits' own range for the
    500 generated tokens."""
    inference = {
        "method": "external_api",
        "api_model": "openai-gpt-4o",
        "input_tokens": 1000,
        "output_tokens": 400,
        "reasoning_tokens": 100,
        "requests_per_month": 10_000,
    }
    scenario = make_scenario(make_project(owner, "API"), "GPT-4o", inputs={"inference": inference})
    demand = {"field": "inference.requests_per_month", "kind": "list", "values": [10_000, 50_000]}
    sweep = services.sweep_create(
        scenario=scenario, created_by=owner, definition={"inputs": [demand]}
    )
    runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=0)
    impacts = llm_impacts(
        provider="openai", model_name="gpt-4o", output_token_count=500, request_latency=math.inf
    )

    def middle(value) -> float:
        low, high = (value.min, value.max) if isinstance(value, RangeValue) else (value, value)
        return (low + high) / 2

    for row, requests in zip(points(api(owner), sweep), (120_000, 600_000), strict=True):
        figures = row["figures"]  # twelve months of 10,000 and of 50,000 requests
        assert figures["inference_energy_kwh"] == pytest.approx(
            requests * middle(impacts.energy.value)
        )
        assert figures["inference_emissions_kg_co2e"] == pytest.approx(
            requests * middle(impacts.usage.gwp.value)
        )
        assert figures["inference_embodied_kg_co2e"] == pytest.approx(
            requests * middle(impacts.embodied.gwp.value)
        )
        assert figures["inference_water_litres"] == pytest.approx(
            requests * middle(impacts.usage.wcf.value)
        )
        assert figures["training_embodied_kg_co2e"] is None  # no training in this scenario
