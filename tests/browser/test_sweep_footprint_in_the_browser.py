"""The sweep page in headless Chromium for issue 27: its summary gives embodied emissions and
water beside energy and emissions, the chart shows the water; a sweep stored before those
figures says they were not computed; axe-core's WCAG 2.2 AA rules at desktop and phone widths,
in English and French. Chunks are computed in-process, as the Celery task would."""

import numpy as np
import pytest
from playwright.sync_api import Page, expect

from apps.sweeps import runs, services, tasks
from apps.sweeps.models import SweepChunk
from apps.sweeps.storage import chunk_summary, columns_decode, columns_encode
from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    languages_each_at_a_width,
    login,
    manager_with_scenario,
)
from tests.factories import SEED_000_TRAINING, seed_000_inference

USERNAME, PASSWORD = "ines", "a-long-test-password"
DEFINITION = {
    "inputs": [
        {"field": "inference.requests_per_month", "kind": "log", "start": 1e3, "stop": 1e7, "steps": 5}
    ],
    "accelerators": ["nvidia-h100-sxm", "nvidia-l4"],
    "accelerator_sections": ["inference"],
}  # fmt: skip
WORDS = {
    "en": {
        "summary": "Each figure over all 10 points",
        "rows": ("Training embodied emissions", "Inference water over the horizon"),
        "figure": "Figure shown",
        "show": "Show",
        "chart": "Inference water over the horizon against",
        "note": "Not computed for this sweep, which was computed before they were added",
    },
    "fr": {
        "summary": "Chaque indicateur sur l’ensemble des 10 points",
        "rows": ("Émissions intrinsèques de l’entraînement", "Eau de l’inférence sur l’horizon"),
        "figure": "Indicateur affiché",
        "show": "Afficher",
        "chart": "Eau de l’inférence sur l’horizon en fonction de",
        "note": "Non calculés pour ce balayage, calculé avant leur ajout",
    },
}


@pytest.fixture
def sweeps(monkeypatch):
    """Two completed sweeps of the same scenario: one as computed now, one whose chunks were
    stored before embodied emissions and water were added."""
    monkeypatch.setattr(tasks.sweep_run_chunk, "delay", lambda *args: None)
    scenario = manager_with_scenario(
        USERNAME,
        PASSWORD,
        title="Support bot",
        name="Pilot",
        inputs={"training": SEED_000_TRAINING, "inference": seed_000_inference(15_000)},
    )
    made = []
    for name in ("Now", "Before"):
        sweep = services.sweep_create(
            scenario=scenario, created_by=scenario.project.owner, definition=DEFINITION, name=name
        )
        for index in range(sweep.total_chunks):
            runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=index)
        made.append(sweep)
    for chunk in SweepChunk.objects.filter(sweep=made[1]):
        columns = {
            name: np.array(values)
            for name, values in columns_decode(chunk.results).items()
            if "embodied" not in name and "water" not in name
        }
        chunk.results = columns_encode(columns)
        chunk.summary = chunk_summary(columns, 0)
        chunk.samples = {}
        chunk.save()
    return made


@languages_each_at_a_width("en", "fr")
def test_the_sweep_page_gives_the_footprint_and_says_what_an_older_sweep_lacks(
    new_page, viewport: dict, live_server, sweeps, language: str
) -> None:
    words = WORDS[language]
    now, before = sweeps
    page: Page = new_page(extra_http_headers={"Accept-Language": language})
    login(page, live_server, USERNAME, PASSWORD, next_path=now.get_absolute_url())
    summary = page.get_by_role("table", name=words["summary"])
    for label in words["rows"]:
        row = summary.get_by_role("row").filter(has_text=label)
        expect(row).to_have_count(1)
        expect(row.locator("td").first).to_contain_text(
            "L" if "Eau" in label or "water" in label else "CO2e"
        )
    expect(page.get_by_role("note")).to_have_count(0)
    page.get_by_label(words["figure"]).select_option(value="inference_water_litres")
    page.get_by_role("button", name=words["show"]).click()
    expect(page.get_by_role("figure")).to_contain_text(words["chart"])
    assert_no_axe_violations_at_each_width(page, f"a sweep with its footprint in {language}")

    page.goto(f"{live_server.url}{before.get_absolute_url()}")
    expect(page.get_by_role("note")).to_contain_text(words["note"])
    row = page.get_by_role("table", name=words["summary"]).get_by_role("row")
    expect(row.filter(has_text=words["rows"][1]).locator("td")).to_have_count(3)
    assert_no_axe_violations_at_each_width(
        page, f"a sweep stored before the footprint in {language}"
    )
