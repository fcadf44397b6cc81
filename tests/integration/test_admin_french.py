"""The admin in French: the catalogue editors' labels, help texts, fieldsets, filters and actions
are the project's own French words, beside Django's (tests/integration/test_pseudo_admin.py
checks that every one goes through gettext)."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from apps.accounts.services import api_token_create
from tests.factories import make_manager
from tests.html_tree import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> Client:
    client = Client(headers={"accept-language": "fr"})
    client.force_login(get_user_model().objects.create_superuser("admin", password="x" * 20))
    return client


def _text(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    assert response["Content-Language"] == "fr"
    # the words as read: any run of spaces as one (French spaces before ; : ? ! included)
    return " ".join(parse(response.content.decode()).text().split())


def test_the_index_names_the_apps_and_models_in_french(client):
    text = _text(client, "/admin/")
    for words in (
        "Catalogue du matériel",
        "Offres de prix",
        "Profils énergétiques",
        "Seuils de calcul",
        "Balayages de scénarios",
        "Actualité des scénarios",
        "Comptes et jetons d’API",
        "Projets et scénarios",
    ):
        assert words in text


def test_an_accelerators_form_is_labelled_in_french(client):
    text = _text(client, "/admin/catalogue/accelerator/add/")
    for words in (
        "Ajout de accélérateur",  # Django's "Add %(name)s", with our model's name
        "Mémoire et puissance",
        "Mémoire (Go)",
        "Bande passante mémoire (To/s)",
        "Crête dense FP8 (TFLOP/s)",
        "Dense (sans parcimonie structurée) ; vide si le format n’est pas pris en charge.",
        "Accélérateurs par nœud",
        # the embodied-emissions fieldset, so that catalogue editors can keep the figure sourced
        "Émissions intrinsèques",
        "Émissions intrinsèques (kg CO2e)",
        "par exemple nvidia-h100-sxm",
        "Niveau de preuve",
        "Secondaire (tiers citant une source primaire)",
        "Le document d’où viennent les chiffres.",
        # the price offers inline
        "Prix par heure-accélérateur",
        "Location à l’heure-accélérateur",
    ):
        assert words in text, words
    assert "Memory (GB)" not in text


def test_a_list_has_french_columns_filters_and_actions(client):
    text = _text(client, "/admin/catalogue/computethreshold/")
    for words in ("Seuil de calcul d’entraînement (FLOP)", "Juridiction", "Par état", "En vigueur"):
        assert words in text, words
    api_token_create(user=make_manager("amina"), name="Integration")
    text = _text(client, "/admin/accounts/apitoken/")
    for words in ("Préfixe", "Dernière utilisation", "Révoquer les jetons d’API sélectionnés"):
        assert words in text, words
