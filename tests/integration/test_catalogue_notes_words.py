"""The catalogue's and the API price catalogue's notes and errors are Messages: nothing is
translated or formatted while a request is resolved, and each reader gets them in their own
language at the page (the API's JSON keeps the English, as it does the engine's notes)."""

import html
import json

import pytest
from django.utils import translation

from apps.api.estimate import estimate_kept
from apps.apiprices.models import ApiModel
from apps.catalogue.resolve import estimate_input_from_request
from apps.estimates import EstimateInputError, record
from apps.estimates.kept import KeptEstimate
from apps.estimates.messages import Message
from apps.words.messages import message_text
from tests.factories import SEED_000_TRAINING, make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db
# The L4 has one rental offer in the shipped catalogue: the note's count is singular.
L4_TRAINING = {"method": "accelerator_hours", "accelerator_hours": 100, "accelerator": "nvidia-l4"}
MODEL_INFERENCE = {
    "method": "parameters",
    "model": "llama-3.1-405b",
    "accelerator": "nvidia-h100-sxm",
    "requests_per_month": 1000,
}


def resolved_notes(request: dict, language: str) -> list[Message]:
    with translation.override(language):
        _inputs, resolution = estimate_input_from_request(request)
    return [note for notes in resolution.notes.values() for note in notes]


def test_the_notes_are_the_same_messages_whatever_language_is_active():
    request = {"training": L4_TRAINING, "inference": MODEL_INFERENCE}
    english, french = resolved_notes(request, "en"), resolved_notes(request, "fr")
    assert english and all(isinstance(note, Message) for note in english)
    assert [(n.msgid, n.plural, n.count) for n in french] == [
        (n.msgid, n.plural, n.count) for n in english
    ]
    assert [str(note) for note in french] == [str(note) for note in english]
    assert any("the median of 1 rental offer for NVIDIA L4" in note for note in english)


def test_a_note_is_worded_in_the_readers_language_with_its_plural_and_its_numbers():
    (price,) = [
        note for note in resolved_notes({"training": L4_TRAINING}, "en") if note.plural is not None
    ]
    with translation.override("fr"):
        french = message_text(price)
    assert "la médiane de 1 offre de location pour NVIDIA L4" in french


def test_a_model_note_writes_its_date_and_numbers_as_french_does():
    (model_note,) = [
        note
        for note in resolved_notes({"inference": MODEL_INFERENCE}, "en")
        if note.msgid.startswith("Model %(name)s")
    ]
    with translation.override("fr"):
        french = message_text(model_note)
    assert "126 couches, 405 Md de paramètres" in french and "au 23 juillet 2024" in french
    assert "as of 23 July 2024" in model_note


def test_a_catalogue_error_is_a_message_worded_at_the_edge():
    with translation.override("fr"), pytest.raises(EstimateInputError) as raised:
        estimate_input_from_request({"training": {**SEED_000_TRAINING, "accelerator": "h100"}})
    (message,) = raised.value.errors["training.accelerator"]
    assert message.startswith("No accelerator 'h100' in the catalogue. Did you mean")
    with translation.override("fr"):
        assert message_text(message).startswith(
            "Aucun accélérateur 'h100' dans le catalogue. Vouliez-vous dire"
        )


def test_an_api_price_note_is_a_message_and_the_api_keeps_its_english(client):
    slug = ApiModel.objects.order_by("slug").values_list("slug", flat=True).first()
    inference = {
        "method": "external_api",
        "api_model": slug,
        "input_tokens": 600,
        "output_tokens": 500,
        "requests_per_month": 1000,
    }
    # The price note, then the footprint's (EcoLogits' data on the model, or its absence).
    note, footprint = resolved_notes({"inference": inference}, "fr")
    assert "EcoLogits" in footprint
    assert note.startswith(f"{note.params['model']}: prices in force on ")
    with translation.override("fr"):
        assert message_text(note).startswith(f"{note.params['model']}\u00a0: prix en vigueur le")
    response = client.post(
        "/api/v1/estimate/",
        {"inference": inference},
        content_type="application/json",
        headers={"accept-language": "fr"},
    )
    assert response.status_code == 200, response.content
    assert response.json()["inference"]["assumptions"][0] == str(note)


def test_the_scenario_page_shows_the_catalogues_notes_in_french(client):
    owner = make_manager("maria")
    client.force_login(owner)
    scenario = make_scenario(
        make_project(owner, "Translation assistant"), "Pilot", inputs={"training": L4_TRAINING}
    )
    response = client.get(f"/scenarios/{scenario.pk}/", headers={"accept-language": "fr"})
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert "la médiane de 1 offre de location pour NVIDIA L4" in page
    assert "rental offer" not in page


def test_a_note_kept_in_a_record_is_worded_as_the_message_itself():
    """A saved version keeps the catalogue's notes as Messages, in its estimate's assumptions
    (the record codec, through JSON): loaded back on a French page, they read as the fresh
    Messages do."""
    api_slug = ApiModel.objects.order_by("slug").values_list("slug", flat=True).first()
    served = {**MODEL_INFERENCE, "method": "tokens", "input_tokens": 600, "output_tokens": 500}
    requests = (
        {"training": L4_TRAINING, "inference": served},
        {
            "inference": {
                "method": "external_api",
                "api_model": api_slug,
                "api_price_tier": "standard",
                "input_tokens": 600,
                "output_tokens": 500,
                "requests_per_month": 1000,
            }
        },
    )
    checked = 0
    for request in requests:
        notes = resolved_notes(request, "en")
        kept = estimate_kept(request)
        loaded = record.load(json.loads(json.dumps(record.dump(kept))), KeptEstimate)
        assumptions = [
            note
            for section in (loaded.result.training, loaded.result.inference)
            if section is not None
            for note in section.assumptions
            if note in notes
        ]
        assert assumptions == notes
        with translation.override("fr"):
            for note, fresh in zip(assumptions, notes, strict=True):
                assert isinstance(note, Message)
                assert message_text(note) == message_text(fresh) != str(fresh), note
                checked += 1
    assert checked >= 4
