"""Every form hint that a glossary term explains links to it ("What is this?"), on the forms
beyond the scenario's (test_scenario_form_terms.py): the project's budget settings, a cost line
and the decision view's choices. A hint that no term explains is listed here as plain words, so
a new hint fails until someone decides which."""

import pytest

from apps.budget.forms import CostLineForm
from apps.glossary.terms import TERMS
from apps.options.forms import OptionsForm
from apps.projects.field_terms import BUDGET_SETTINGS_TERMS, COST_LINE_TERMS, OPTIONS_TERMS
from apps.projects.forms import NewProjectForm
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_scenario_form_terms import _field_blocks

pytestmark = pytest.mark.django_db

# Hints in plain words, with nothing to look up.
PLAIN = {
    "NewProjectForm": {"title", "unit", "description", "classification", "currency",
                       "collaborators", "preset"},
    "CostLineForm": {"name", "quantity", "unit", "unit_price", "start", "end",
                     "annual_escalation", "basis"},
    "OptionsForm": {"options"},
}  # fmt: skip


def _forms():
    owner = make_manager("amina")
    return [
        (NewProjectForm(owner=owner), BUDGET_SETTINGS_TERMS),
        (CostLineForm(), COST_LINE_TERMS),
        (OptionsForm(), OPTIONS_TERMS),
    ]


def test_every_term_named_for_a_field_exists():
    for terms in (BUDGET_SETTINGS_TERMS, COST_LINE_TERMS, OPTIONS_TERMS):
        assert set(terms.values()) <= set(TERMS)


def test_every_hint_has_a_term_or_is_listed_as_plain_words():
    for form, terms in _forms():
        hinted = {
            name
            for name, field in form.fields.items()
            if field.help_text and not field.widget.is_hidden
        }
        name = type(form).__name__
        assert hinted - set(terms) == PLAIN[name] & hinted, name
        assert set(terms) <= set(form.fields), name
        for field_name, slug in terms.items():
            assert form.fields[field_name].glossary_term == slug


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_the_pages_draw_each_hints_link(client, language):
    owner = make_manager("maria")
    project = make_project(owner, "Terms")
    scenario = make_scenario(project, "Pilot", is_baseline=True)
    client.force_login(owner)
    pages = {
        "project": (f"/projects/{project.pk}/edit/", BUDGET_SETTINGS_TERMS),
        "cost line": (f"/scenarios/{scenario.pk}/cost-lines/new/?kind=storage", COST_LINE_TERMS),
        "options": (f"/scenarios/{scenario.pk}/options/", OPTIONS_TERMS),
    }
    for page, (path, terms) in pages.items():
        response = client.get(path, headers={"accept-language": language})
        assert response.status_code == 200, page
        blocks = _field_blocks(response.content.decode())
        missing = [
            name for name, slug in terms.items() if f'href="/glossary/{slug}/"' not in blocks[name]
        ]
        assert missing == [], page
