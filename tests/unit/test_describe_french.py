"""The comparison in words in French: sentences, plurals and numbers written as French does."""

from django.utils import translation

from apps.projects.describe import bottom_strip, describe
from tests.unit.test_describe import translation_assistant

NNBSP = "\u202f"


def test_the_description_is_french_with_french_numbers_and_plurals():
    with translation.override("fr"):
        paragraphs = describe(translation_assistant(), view="many")
    text = " ".join(paragraphs)
    assert text.startswith("Ce schéma compare deux usages du calcul")
    assert f"15{NNBSP}000 demandes par mois" in text
    assert "200 heures-accélérateur" in text
    assert "Sur 12 mois" in text
    assert "requests" not in text and "accelerator-hours" not in text


def test_one_accelerator_at_peak_is_singular_in_french():
    with translation.override("fr"):
        strip = bottom_strip(translation_assistant(), view="many")
        text = " ".join(describe(translation_assistant(), view="many"))
    assert strip["user_speed"]["label"] == "Attente de l’utilisateur"
    assert strip["user_speed"]["detail"].startswith("1 accélérateur en pointe (")
    assert "il faut 1 accélérateur pour suivre" in text


def test_a_million_requests_take_de_in_french():
    with translation.override("fr"):
        text = " ".join(describe(translation_assistant(2_000_000), view="many"))
    assert "2 millions de demandes" in text
