"""The calibration page (issue 20): the table of published results beside the planner, in
English and French, linked from the catalogue pages and the glossary; and the scenario form's
hint that small models train at a much lower MFU than the default."""

import re
from dataclasses import replace

import pytest
from django.test import Client

from apps.catalogue import calibration
from apps.catalogue.calibration import calibrate, calibration_cases
from tests.factories import make_manager, make_project, make_scenario
from tests.html_tree import parse
from tests.integration.test_scenario_form_terms import _field_blocks

pytestmark = pytest.mark.django_db
URL = "/catalogue/calibration/"


def page(path: str, language: str = "en-gb") -> str:
    response = Client().get(path, headers={"accept-language": language})
    assert response.status_code == 200, path
    return response.content.decode()


def test_the_page_is_a_table_with_a_caption_and_a_row_per_published_result():
    tree = parse(page(URL))
    (table,) = tree.find_all(lambda e: e.tag == "table")
    (caption,) = table.child_elements("caption")
    assert caption.text() == "Published results beside the planner at its defaults"
    (thead,) = table.child_elements("thead")
    headers = [e.text() for e in thead.find_all(lambda e: e.tag == "th")]
    assert headers == [
        "Published result",
        "Conditions",
        "Published figure",
        "Planner at its defaults",
        "Ratio (planner ÷ published)",
        "Holds?",
        "Source",
    ]
    assert all(e.attrs["scope"] == "col" for e in thead.find_all(lambda e: e.tag == "th"))
    (tbody,) = table.child_elements("tbody")
    rows = tbody.child_elements("tr")
    assert [row.attrs["id"] for row in rows] == [case.slug for case in calibration_cases()]
    for row in rows:
        (header,) = row.child_elements("th")
        assert header.attrs["scope"] == "row"


def test_each_row_shows_the_published_figure_the_planners_and_whether_it_holds():
    html = page(URL)
    row = re.search(r'<tr id="mlperf-4.1-llama-2-70b-8x-h100-offline">(.*?)</tr>', html, re.S)[1]
    text = " ".join(re.sub(r"<[^>]+>", " ", row).split())
    # 24,524.9 tokens/s on 8 H100s: 3,066 per accelerator, with its unit.
    assert "3,066 tokens per second per accelerator" in text
    assert "24,525 tokens per second for the whole system" in text
    assert "Precision FP8" in text and "Offline" in text
    assert "Input: 300 tokens (assumed; not published)" in text
    assert "Output: 290 tokens (published)" in text
    computed = next(
        r for r in calibrate() if r.case.slug == "mlperf-4.1-llama-2-70b-8x-h100-offline"
    )
    assert f"{computed.ratio:.2f} × the published figure" in text
    assert ("Holds" if computed.holds else "Does not hold") in text
    assert (
        'href="https://github.com/mlcommons/inference_results_v4.1/blob/main/closed/NVIDIA/' in row
    )
    assert "Published 28 Aug 2024" in text


def test_a_refused_request_says_why_instead_of_a_figure(monkeypatch):
    """An editor who removes a case's accelerator from the catalogue sees the case refused."""
    case = calibration_cases()[0]
    gone = replace(
        case,
        request={"inference": {**case.request["inference"], "accelerator": "withdrawn-gpu"}},
    )
    monkeypatch.setattr(calibration, "calibration_cases", lambda: (gone,))
    html = page(URL)
    row = re.search(rf'<tr id="{re.escape(case.slug)}">(.*?)</tr>', html, re.S)[1]
    assert "Not computed: the planner refuses the request." in row
    assert "No accelerator &#x27;withdrawn-gpu&#x27; in the catalogue." in row
    assert "Does not hold" in row
    assert "0 of 1 results hold today." in html


def test_the_summary_counts_the_results_that_hold():
    rows = calibrate()
    holding = sum(row.holds for row in rows)
    assert f"{holding} of {len(rows)} results hold" in page(URL)


def test_the_page_is_in_french_for_a_french_reader():
    html = page(URL, "fr")
    assert "Étalonnage\u00a0: le planificateur face à des résultats publiés" in html
    assert "Résultats publiés à côté du planificateur avec ses valeurs par défaut" in html
    assert "par accélérateur" in html
    assert "Tient" in html or "Ne tient pas" in html
    assert "tokens per second" not in html


def test_the_catalogue_pages_and_the_glossary_link_to_the_page():
    for path in ("/catalogue/", "/catalogue/models/", "/glossary/calibration/"):
        assert f'href="{URL}"' in page(path), path
    term = page("/glossary/calibration/", "fr")
    assert "<h1>Étalonnage</h1>" in term
    assert 'href="/glossary/calibration/"' in page(URL)


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_the_scenario_form_says_small_models_train_at_a_lower_mfu(client, language):
    owner = make_manager("amina")
    scenario = make_scenario(make_project(owner, "Hint"), "Pilot")
    client.force_login(owner)
    html = client.get(f"/scenarios/{scenario.pk}/", headers={"accept-language": language})
    hint = _field_blocks(html.content.decode())["training_mfu"]
    if language == "en-gb":
        assert "much less for small ones" in hint
        assert "about 14% at 8B, 25% at 70B and 35% at 405B" in hint
        assert "Llama 3.1 model card" in hint
        assert "The default 25% is the geometric mean" in hint
    else:
        assert "bien moins pour les petits" in hint
        assert "14\u202f%" in hint and "fiche du modèle Llama 3.1" in hint
        assert "La valeur par défaut, 25\u202f%, est la moyenne géométrique" in hint


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en-gb", "MFU 0.25 is the default: the geometric mean"),
        ("fr", "Le MFU de 0,25 est la valeur par défaut\u00a0: la moyenne géométrique"),
    ],
)
def test_the_scenario_page_says_where_the_default_mfu_comes_from(client, language, said):
    owner = make_manager("amina")
    scenario = make_scenario(make_project(owner, "Hint"), "Pilot")
    client.force_login(owner)
    html = client.get(f"/scenarios/{scenario.pk}/", headers={"accept-language": language})
    assert said in html.content.decode()
