"""The glossary: every term in English and French, its page and its links, the term file."""

import csv
import re

import pytest
from babel.messages.pofile import read_po
from django.conf import settings
from django.template import Context, Template, TemplateSyntaxError
from django.test import Client
from django.utils import translation

from apps.glossary.terms import TERMS

pytestmark = pytest.mark.django_db

# The terms the issue names, at least.
REQUIRED = {
    "compute",
    "training-compute",
    "inference-compute",
    "flop",
    "accelerator",
    "accelerator-hour",
    "mfu",
    "goodput",
    "six-n-d",
    "tokens",
    "batching",
    "kv-cache",
    "first-token-time",
    "time-per-output-token",
    "break-even",
    "capex-and-opex",
    "total-cost-of-ownership",
    "net-present-value",
    "compute-thresholds",
    "parameters",
    "precision",
    "utilisation",
    "peak-to-average",
    "pue",
    "emissions",
    "wall-clock",
    "pay-per-use-vs-always-on",
    "fiscal-year",
    "contingency",
    # and the rest the pages use: each figure's term (test_glossary_figure_links)
    "energy",
    "horizon",
    "planning-period",
    "annual-run-rate",
    "one-off-cost",
    "price-date",
    "uncertainty-range",
    "crossover",
    "model-copy",
    # and each hint's term on the budget settings, cost line and decision view forms
    "indirect-costs",
    "budget-category",
    "external-api",
}
SEED_MISCONCEPTIONS = {
    "compute": "More compute always means a better AI system.",
    "inference-compute": "Once a model is trained, compute is no longer an issue.",
    "accelerator-hour": "GPU-hours are the whole cost.",
}
# Term names French writes as English does (the term file says so too).
SAME_IN_FRENCH = {"Horizon"}
TERM_FILE = settings.BASE_DIR / "docs" / "glossary-terms.csv"


def page(path: str, language: str) -> str:
    response = Client().get(path, headers={"accept-language": language})
    assert response.status_code == 200, path
    return response.content.decode()


def test_the_glossary_has_every_term_the_pages_need_with_a_plain_definition():
    assert TERMS.keys() >= REQUIRED
    with translation.override("en-gb"):
        for slug, belief in SEED_MISCONCEPTIONS.items():
            assert belief in [str(m.belief) for m in TERMS[slug].misconceptions]
    for term in TERMS.values():
        assert all(slug in TERMS for slug in term.related), term.slug
        texts = [term.name, term.definition, term.example, term.limits]
        texts += [text for m in term.misconceptions for text in (m.belief, m.correction)]
        for text in filter(None, texts):
            with translation.override("en-gb"):
                english = str(text)
            with translation.override("fr"):
                french = str(text)
            assert french != english or english in SAME_IN_FRENCH, english


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_every_term_has_its_page_in_both_languages_with_each_part(language):
    with translation.override(language):
        for term in TERMS.values():
            html = page(f"/glossary/{term.slug}/", language)
            assert f"<h1>{term.name}</h1>".replace("'", "&#x27;") in html
            for part in (term.definition, term.example, term.limits):
                if part:
                    assert str(part).replace("'", "&#x27;") in html
            for misconception in term.misconceptions:
                assert str(misconception.correction).replace("'", "&#x27;") in html


def test_the_french_pages_are_in_french_not_english():
    english, french = page("/glossary/kv-cache/", "en"), page("/glossary/kv-cache/", "fr")
    assert "<h1>KV cache</h1>" in english and "<h1>Cache KV</h1>" in french
    assert "Idées reçues" in french and "Common misconceptions" not in french
    assert "La mémoire qu’un modèle garde pour chaque demande" in french
    assert '<html lang="fr"' in french


def test_the_list_links_every_term_in_the_order_of_its_language():
    french = page("/glossary/", "fr")
    links = re.findall(r'<dt><a href="/glossary/([a-z0-9-]+)/">', french)
    assert sorted(links) == sorted(TERMS)
    position = {slug: index for index, slug in enumerate(links)}
    # "Émissions" files under E, after "Coût par demande", before "Exercice budgétaire".
    assert position["cost-per-request"] < position["emissions"] < position["fiscal-year"]


def test_an_unknown_term_is_a_404():
    assert Client().get("/glossary/no-such-term/").status_code == 404


def test_term_link_names_its_term_for_screen_readers_in_the_active_language():
    template = Template('{% load glossary %}{% term_link "kv-cache" %}')
    with translation.override("en-gb"):
        english = template.render(Context())
    with translation.override("fr"):
        french = template.render(Context())
    assert english.strip() == (
        '<a class="term-link" href="/glossary/kv-cache/">What is this?'
        '<span class="visually-hidden"> (KV cache)</span></a>'
    )
    assert "Qu’est-ce que c’est\u202f?" in french and "(Cache KV)" in french


def test_a_link_to_a_term_that_does_not_exist_fails_loudly():
    with pytest.raises(TemplateSyntaxError, match="no-such-term"):
        Template('{% load glossary %}{% term_link "no-such-term" %}').render(Context())


def test_the_layout_home_and_catalogue_link_to_the_glossary():
    home = page("/", "en")
    assert '<a href="/glossary/">Glossary</a>' in home
    assert 'href="/glossary/training-compute/"' in home
    assert 'href="/glossary/inference-compute/"' in home
    catalogue = page("/catalogue/", "en")
    for slug in ("pue", "flop", "compute-thresholds", "accelerator-hour"):
        assert f'href="/glossary/{slug}/"' in catalogue
    assert '<a href="/glossary/">Glossaire</a>' in page("/", "fr")


def test_the_term_file_gives_each_term_its_french_name_source_and_status():
    with TERM_FILE.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    assert rows and set(rows[0]) == {"english", "french", "source", "status"}
    by_english = {row["english"]: row for row in rows}
    for term in TERMS.values():
        with translation.override("en-gb"):
            english = str(term.name)
        with translation.override("fr"):
            french = str(term.name)
        assert by_english[english]["french"] == french, english
    for row in rows:
        assert row["status"] in {"official", "candidate"} and row["source"], row
    assert by_english["Large language model"]["french"] == "Grand modèle de langage"
    assert by_english["Large language model"]["status"] == "official"


def test_the_term_file_is_the_vocabulary_the_french_interface_uses():
    """Each French term of the file is in the French catalogue, and a message that is exactly a
    term of the file is translated as the file says (not, say, "plage" here, "fourchette" there).
    """
    with TERM_FILE.open(encoding="utf-8", newline="") as file:
        rows = list(csv.DictReader(file))
    with (settings.BASE_DIR / "locale" / "fr" / "LC_MESSAGES" / "django.po").open("rb") as file:
        catalogue = [message for message in read_po(file, locale="fr") if message.id]
    french = " ".join(
        " ".join([m.string] if isinstance(m.string, str) else m.string) for m in catalogue
    ).casefold()
    files = {row["english"].casefold(): row["french"] for row in rows}
    for row in rows:
        assert row["french"].casefold() in french, row
    for message in catalogue:
        if isinstance(message.id, str) and message.id.casefold() in files:
            assert message.string.casefold() == files[message.id.casefold()].casefold(), message.id


def test_no_page_speaks_of_seed_000(tmp_path):
    from apps.projects.demo import DEMO_PROJECT_TITLE, demo_seed
    from apps.projects.models import Project
    from tests.factories import make_manager, make_project, make_scenario

    manager = make_manager()
    scenario = make_scenario(make_project(manager), is_baseline=True)
    demo_seed(credentials_file=tmp_path / "demo-credentials.txt")
    demo = Project.objects.get(title=DEMO_PROJECT_TITLE)
    client = Client()
    client.force_login(manager)
    pages = {
        "/projects/new/": client.get("/projects/new/"),
        "scenario": client.get(f"/scenarios/{scenario.pk}/"),
    }
    client.force_login(demo.owner)
    pages["demo project"] = client.get(demo.get_absolute_url())
    for name, response in pages.items():
        html = response.content.decode()
        assert response.status_code == 200, name
        assert "seed 0" not in html.lower(), name
    assert (
        "the worked example of the UN Learn AI glossary" in pages["/projects/new/"].content.decode()
    )
    assert (
        "The worked example of the UN Learn AI glossary" in pages["demo project"].content.decode()
    )
