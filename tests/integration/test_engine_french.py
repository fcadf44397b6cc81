"""The estimate engine's words in French: its notes beside the figures, the budget's line names,
bases and notes, and its validation errors in the API and beside the scenario form's fields.
The JSON the API answers keeps them in English, as the contract has them.

Every message the engine can emit is collected from its modules (the `_("…")` calls that
makemessages extracts) and checked for a French translation with the same placeholders."""

import ast
import csv
import io
import json
import re
from functools import cache

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.test import Client
from django.utils import translation
from openpyxl import load_workbook
from rest_framework.test import APIClient

from apps.api.estimate import estimate_kept
from apps.budget.kept import drawn_up_from_record, version_budget
from apps.budget.selectors import scenario_budget
from apps.estimates.budget import COMPUTED_KINDS
from apps.estimates.messages import Message
from apps.projects.services import scenario_update
from apps.projects.versions import version_estimate
from apps.words.messages import message_text
from tests.factories import (
    SEED_000_TRAINING,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)
from tests.integration.test_api_serving import LLAMA_405B
from tests.integration.test_langexports_french_files import export
from tests.integration.test_project_pages import scenario_post
from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db
PO = settings.BASE_DIR / "locale" / "fr" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\([a-z_]+\)s|%%")
# Names and abbreviations French writes as English does.
SAME_IN_FRENCH = {"MFU", "PUE", "Horizon"}
URL = "/api/v1/estimate/"
OWNED = {
    "training": {**SEED_000_TRAINING, "pricing_mode": "own"},
    "inference": seed_000_inference(150_000, pricing_mode="own", monthly_growth=0.05),
    "electricity_price_per_kwh": 0.1,
}


def _msgids(paths) -> tuple[str | tuple[str, str], ...]:
    """The literal msgids of every `_(…)` and `ngettext(…)` call in `paths`, as makemessages
    extracts them: a str, or (singular, plural)."""
    found = []
    for path in sorted(paths):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            literals = [a.value for a in node.args[:2] if isinstance(a, ast.Constant)]
            if node.func.id == "_" and literals and isinstance(literals[0], str):
                found.append(literals[0])
            elif node.func.id == "ngettext" and len(literals) == 2:
                found.append(tuple(literals))
    return tuple(dict.fromkeys(found))


def engine_msgids() -> tuple[str, ...]:
    """Every msgid the engine can emit (apps/estimates)."""
    engine = settings.BASE_DIR / "apps" / "estimates"
    return tuple(m for m in _msgids(engine.rglob("*.py")) if isinstance(m, str))


def catalogue_note_msgids() -> tuple[str | tuple[str, str], ...]:
    """The catalogue's notes, Messages built while resolving (apps/catalogue/resolve*.py)."""
    return _msgids((settings.BASE_DIR / "apps" / "catalogue").glob("resolve*.py"))


@cache
def french() -> dict:
    with PO.open("rb") as file:
        return {
            message.id if isinstance(message.id, str) else message.id[0]: message
            for message in read_po(file)
            if message.id
        }


def _short(msgid: str) -> str:
    return msgid[:50]


def test_the_collector_finds_every_family_of_engine_message():
    msgids = engine_msgids()
    assert len(msgids) > 200
    for expected in (
        "Accelerator-hours given directly.",  # assumptions.py
        "KV cache: %(bytes)s bytes per token (given).",  # serving_report.py
        "Prices per million tokens: input %(input)s, cached input %(cached)s, output %(output)s.",
        "Staff to run the option",  # options.py
        "Power and cooling of serving hardware",  # budget/compute.py
        "%(line)s: %(months)s month(s) outside the planning period left out (%(amount)s).",
        "Give the line a name.",  # budget/lines.py
        "%(label)s must be a whole number from %(low)s to %(high)s.",  # limits.py
        "%(label)s is needed for this method.",  # validation.py
        "Active experts must be fewer than the experts in total.",  # serving_checks.py
        "The low end is above the high end.",  # uncertainty_draws.py
    ):
        assert expected in msgids


@pytest.mark.parametrize("msgid", engine_msgids(), ids=_short)
def test_every_engine_message_has_a_french_translation_with_the_same_placeholders(msgid):
    entry = french().get(msgid)
    assert entry is not None, "not extracted: run `make messages`"
    assert entry.string and not entry.fuzzy
    assert entry.string != msgid or msgid in SAME_IN_FRENCH
    assert sorted(PLACEHOLDER.findall(entry.string)) == sorted(PLACEHOLDER.findall(msgid))


@pytest.mark.parametrize("note", catalogue_note_msgids(), ids=lambda note: _short(str(note)))
def test_the_catalogues_notes_are_translated(note):
    entry = french()[note if isinstance(note, str) else note[0]]
    strings = (entry.string,) if isinstance(note, str) else entry.string
    assert all(strings), note


def api_errors(client: APIClient, body: dict, language: str) -> str:
    response = client.post(URL, body, format="json", headers={"accept-language": language})
    assert response.status_code == 400, response.content[:300]
    return json.dumps(response.json(), ensure_ascii=False)


@pytest.fixture
def api_client():
    client = APIClient()
    client.force_authenticate(make_manager("amina"))
    return client


@pytest.mark.parametrize(
    ("body", "english", "french_text"),
    [
        pytest.param(
            {"training": {**SEED_000_TRAINING, "method": "parameters_tokens", "mfu": 2}},
            "MFU must be more than 0 (at least 0.001) and at most 1 (typical 0.14–0.5).",
            "MFU\u00a0: saisissez plus de 0 (au moins 0,001) et au plus 1 (valeur courante "
            "0,14–0,5).",
            id="limits",
        ),
        pytest.param(
            {"training": {**SEED_000_TRAINING, "method": "parameters_tokens", "parameters": 7e9}},
            "Tokens is needed for this method.",
            "Jetons\u00a0: valeur requise pour cette méthode.",
            id="inputs",
        ),
        pytest.param(
            {"inference": {**LLAMA_405B, "total_parameters": 1e9}},
            "Total parameters must be at least the active parameters",
            "Le nombre total de paramètres doit être au moins égal au nombre de paramètres actifs",
            id="serving_checks",
        ),
        pytest.param(
            {"inference": {**LLAMA_405B, "accelerators_per_replica": 8}},
            "The model does not fit on 8 accelerator(s)",
            "Le modèle ne tient pas sur 8 accélérateur(s)",
            id="serving_report",
        ),
        pytest.param(
            {
                "training": SEED_000_TRAINING,
                "ranges": {"training.accelerator_hours": {"low": 400, "high": 100}},
            },
            "The low end is above the high end.",
            "La borne basse est au-dessus de la borne haute.",
            id="uncertainty",
        ),
    ],
)
def test_the_apis_engine_errors_follow_accept_language(api_client, body, english, french_text):
    assert english in api_errors(api_client, body, "en-gb")
    french_answer = api_errors(api_client, body, "fr")
    assert french_text in french_answer
    assert english not in french_answer


def test_the_apis_notes_stay_english_in_every_language(api_client):
    answers = [
        api_client.post(URL, OWNED, format="json", headers={"accept-language": language}).json()
        for language in ("en-gb", "fr")
    ]
    english, french_answer = (answer["inference"]["assumptions"] for answer in answers)
    assert "Cost: pay-per-use, busy accelerator-hours × price." in english
    assert english[-4:] == french_answer[-4:]  # the engine's own notes come last


@pytest.fixture
def owner():
    return make_manager("owner")


@pytest.fixture
def scenario(owner):
    project = make_project(owner, "Assistant de traduction")
    return make_scenario(project, "Pilote", inputs=OWNED, is_baseline=True)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def french_page(client: Client, path: str) -> str:
    response = client.get(path, headers={"accept-language": "fr"})
    assert response.status_code == 200, path
    return response.content.decode()


ENGLISH_NOTES = (
    "Accelerator-hours given directly.",
    "Demand: 150,000 requests in month 1",
    "Owned: purchase price written off",
    "Accelerators bought for training",
    "Power and cooling of serving hardware",
    "written off over",
    "Owned accelerators are budgeted as bought",
)


def test_the_scenario_page_shows_the_engines_notes_and_budget_in_french(owner, scenario):
    html = french_page(signed_in(owner), f"/scenarios/{scenario.pk}/")
    for english in ENGLISH_NOTES:
        assert english not in html
    assert "Heures-accélérateur indiquées directement." in html
    assert "Demande\u00a0: 150\u202f000 demandes le premier mois, en hausse de +5,00\u00a0%" in html
    assert "Accélérateurs achetés pour l’entraînement" in html
    assert "Électricité et refroidissement du matériel de service" in html
    assert "Les accélérateurs en propriété sont budgétés à l’achat (CAPEX)" in html


def test_the_budget_page_shows_its_lines_bases_and_notes_in_french(owner, scenario):
    html = french_page(signed_in(owner), f"/scenarios/{scenario.pk}/budget/")
    for english in ENGLISH_NOTES[3:]:
        assert english not in html
    assert "Accélérateurs achetés pour le service" in html
    assert "amorti(s) sur" in html


def test_the_live_preview_shows_the_notes_in_french(owner, scenario):
    response = signed_in(owner).post(
        f"/scenarios/{scenario.pk}/preview/",
        scenario_post("Pilote"),
        headers={"accept-language": "fr", "hx-request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Heures-accélérateur indiquées directement." in html
    assert "Accelerator-hours given directly." not in html


def test_a_bad_value_is_refused_in_french_beside_its_field(owner, scenario):
    response = signed_in(owner).post(
        f"/scenarios/{scenario.pk}/",
        scenario_post("Pilote", inference_peak_to_average="0,5"),
        headers={"accept-language": "fr"},
    )
    html = response.content.decode()
    assert 'id="id_inference_peak_to_average_error"' in html
    assert "Le rapport pointe/moyenne doit être d’au moins 1 (demande régulière)" in html
    assert "Peak-to-average ratio must be" not in html


def test_a_stored_version_shows_its_notes_and_budget_lines_in_french(owner, scenario):
    scenario_update(
        scenario=scenario,
        name="Pilote",
        inputs={**OWNED, "inference": seed_000_inference(300_000, pricing_mode="own")},
        user=owner,
        expected_version=1,
    )
    html = french_page(signed_in(owner), f"/scenarios/{scenario.pk}/versions/compare/?old=1&new=2")
    assert "Accélérateurs achetés pour le service" in html
    assert "Accelerators bought for serving" not in html


def test_the_french_exports_carry_the_engines_words_in_french(owner, scenario):
    rows = list(
        csv.DictReader(io.StringIO(export(owner, scenario, "csv", "fr").decode("utf-8-sig")))
    )
    text = json.dumps(rows, ensure_ascii=False)
    assert "Accélérateurs achetés pour l’entraînement" in text
    assert "amorti(s) sur" in text
    assert "Accelerators bought for training" not in text

    book = load_workbook(io.BytesIO(export(owner, scenario, "xlsx", "fr")))
    cells = " ".join(
        str(cell.value) for sheet in book for row in sheet.iter_rows() for cell in row if cell.value
    )
    assert "Heures-accélérateur indiquées directement." in cells
    assert "Accélérateurs achetés pour le service" in cells
    assert "Accelerator-hours given directly." not in cells

    pdf = " ".join(pdf_text(export(owner, scenario, "pdf", "fr")).split())
    assert "Heures-accélérateur indiquées directement." in pdf
    assert "Accelerator-hours given directly." not in pdf


def test_the_json_export_keeps_the_engines_words_in_english(owner, scenario):
    data = json.loads(export(owner, scenario, "json", "fr"))
    text = json.dumps(data, ensure_ascii=False)
    assert "Accelerator-hours given directly." in text
    assert "Accelerators bought for training" in text
    assert "Heures-accélérateur" not in text


def test_a_saved_version_words_its_messages_as_the_live_page_does(owner, scenario):
    """What a page shows from the engine's Messages and what a saved version shows from its
    record are the same words, in every language: the record keeps the Messages."""
    kept = version_estimate(scenario.versions.get(number=scenario.version))
    budget = drawn_up_from_record(version_budget(scenario.versions.get(number=scenario.version)))
    live = estimate_kept(scenario.inputs)
    drawn_up = scenario_budget(scenario)

    def messages(result, lines) -> list:
        return [
            *result.training.assumptions,
            *result.inference.assumptions,
            *lines.notes,
            *(line.name for line in lines.lines if line.kind in COMPUTED_KINDS),
            *(line.basis for line in lines.lines if line.kind in COMPUTED_KINDS),
        ]

    saved, now = messages(kept.result, budget.budget), messages(live.result, drawn_up.budget)
    assert len(saved) > 15 and all(isinstance(message, Message) for message in saved)
    for language in ("fr", "en-gb"):
        with translation.override(language):
            assert [message_text(m) for m in saved] == [message_text(m) for m in now]
    with translation.override("fr"):
        assert "Heures-accélérateur indiquées directement." in map(message_text, saved)
    with translation.override("en-gb"):
        assert [message_text(m) for m in saved] == [str(m) for m in saved]
