"""Every hint of the scenario form that a glossary term explains carries its "What is this?" link."""

import re

import pytest

from apps.glossary.terms import TERMS
from apps.projects.field_terms import FIELD_TERMS
from apps.projects.scenario_fields import NUMBER_FIELDS
from tests.factories import make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db

# Number fields whose hint no glossary term explains (plain words, nothing to look up).
WITHOUT_TERM = {
    "training_runs",
    "inference_requests_per_month",
    "inference_monthly_growth",
    "inference_months",
}


def _field_blocks(html: str) -> dict[str, str]:
    """Each form field's block of the page, by the name of its input."""
    blocks = {}
    for part in html.split('<div class="form-field')[1:]:
        name = re.search(r'name="([a-z_]+)"', part)
        if name:
            blocks.setdefault(name.group(1), part)
    return blocks


def test_every_term_named_for_a_field_exists():
    assert set(FIELD_TERMS.values()) <= set(TERMS)


def test_every_number_field_has_a_term_or_is_listed_as_plain():
    names = {spec.field_name for spec in NUMBER_FIELDS}
    assert names - set(FIELD_TERMS) == WITHOUT_TERM


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_each_hint_with_a_glossary_term_links_to_it(client, language):
    owner = make_manager("amina")
    scenario = make_scenario(make_project(owner, "Terms"), "Pilot")
    client.force_login(owner)
    html = client.get(f"/scenarios/{scenario.pk}/", headers={"accept-language": language})
    blocks = _field_blocks(html.content.decode())
    missing = [
        name
        for name, slug in FIELD_TERMS.items()
        if f'href="/glossary/{slug}/"' not in blocks.get(name, "")
    ]
    assert missing == []
    link_text = "What is this?" if language == "en-gb" else "Qu’est-ce que c’est"
    assert link_text in blocks["training_mfu"]
