"""In French: the HTMX fragment the scenario form refreshes as one types, and the words the charts
draw (their series, axes and legends, handed to the scripts as JSON), beside their data tables."""

import json
import re

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext

from tests.factories import load_ecb, make_manager, make_project, make_scenario
from tests.integration.test_project_pages import scenario_post
from tests.integration.test_scenario_page_ranges import RANGED_INPUTS

pytestmark = pytest.mark.django_db


@pytest.fixture
def french(client):
    owner = make_manager("maria")
    client.force_login(owner)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    return owner


def _json(html: str, element_id: str) -> dict:
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html)
    assert found, element_id
    return json.loads(found.group(1))


def _in_french(*english: str) -> list[str]:
    with translation.override("fr"):
        french = [gettext(text) for text in english]
    assert all(f != e for f, e in zip(french, english, strict=True)), french
    return french


def test_the_live_preview_fragment_is_french(client, french):
    load_ecb()
    scenario = make_scenario(make_project(french, currency="EUR"))
    response = client.post(
        f"/scenarios/{scenario.pk}/preview/?view=many",
        scenario_post(inference_requests_per_month="15\u202f000"),
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "<html" not in html  # a fragment, not a page
    heading, updated = _in_french("Training against inference", "Figures updated.")
    assert heading in html and updated in html
    assert "Training against inference" not in html
    assert "8,33 heures-accélérateur" in html
    labels = _json(html, "chart-data")["labels"]
    assert labels["cost"] == "Coût (EUR)"
    assert labels["month"] == "Mois"
    assert "cumulative" not in json.dumps(labels)


def test_the_charts_words_are_french_on_the_scenario_page(client, french):
    scenario = make_scenario(make_project(french), inputs=RANGED_INPUTS, is_baseline=True)
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    scenario_chart = _json(html, "chart-data")["labels"]
    training, inference = _in_french(
        "Training (one-off), cumulative", "Inference (recurring), cumulative"
    )
    assert (scenario_chart["training"], scenario_chart["inference"]) == (training, inference)
    budget = _json(html, "budget-chart-data")
    assert budget["capex_label"] == "Dépenses d’investissement (CAPEX)"
    assert budget["opex_label"] == "Dépenses de fonctionnement (OPEX)"
    fan = _json(html, "fan-data")["labels"]
    assert fan["p50"] == _in_french("Inference, central estimate (median)")[0]
    assert fan["cost"] == "Coût cumulé (USD)"
    # the tables that give the same figures
    caption = _in_french("Cumulative figures by month (month 0 is training)")[0]
    assert caption in html
