"""Every form hint that a glossary term explains links to it ("What is this?"), on the forms
beyond the scenario's (test_scenario_form_terms.py): the project's budget settings, a cost line,
the decision view's choices and the sweep form (its choices, each row of inputs it varies, and
the hint of each input it may vary). A hint that no term explains is listed here as plain words,
so a new hint fails until someone decides which."""

import re

import pytest

from apps.budget.forms import CostLineForm
from apps.glossary.terms import TERMS
from apps.options.forms import OptionsForm
from apps.projects.field_terms import (
    BUDGET_SETTINGS_TERMS,
    COST_LINE_TERMS,
    OPTIONS_TERMS,
    SWEEP_INPUT_TERMS,
    SWEEP_TERMS,
)
from apps.projects.forms import ProjectForm
from apps.projects.quick_start import QuickStartForm
from apps.sweeps.forms import SweepForm, VariedInputForm
from apps.sweeps.inputs import SWEEPABLE
from tests.factories import (
    SEED_000_TRAINING,
    make_manager,
    make_project,
    make_scenario,
)
from tests.integration.test_glossary_figure_links import SERVED
from tests.integration.test_scenario_form_terms import WITHOUT_TERM, _field_blocks

pytestmark = pytest.mark.django_db

# Hints in plain words, with nothing to look up.
PLAIN = {
    "ProjectForm": {"title", "unit", "description", "classification", "currency",
                    "collaborators"},
    "QuickStartForm": {"preset", "requests_per_month", "requests_in_a_year", "period_start",
                       "period_end"},
    "CostLineForm": {"name", "quantity", "unit", "unit_price", "start", "end",
                     "annual_escalation", "basis"},
    "OptionsForm": {"options"},
    "SweepForm": {"name"},
    "VariedInputForm": {"start", "stop"},
}  # fmt: skip
# A language model served by tokens: the sweep form then offers models to compare too.
SCENARIO_INPUTS = {"training": SEED_000_TRAINING, "inference": SERVED}
# Inputs a sweep may vary whose hint is plain words: the scenario form's (WITHOUT_TERM).
SWEEPABLE_WITHOUT_TERM = {"training.runs", "inference.requests_per_month",
                          "inference.monthly_growth", "inference.months"}  # fmt: skip


def _forms():
    owner = make_manager("amina")
    return [
        (ProjectForm(owner=owner), BUDGET_SETTINGS_TERMS),
        (QuickStartForm(), {}),
        (CostLineForm(), COST_LINE_TERMS),
        (OptionsForm(), OPTIONS_TERMS),
        (SweepForm(scenario_inputs=SCENARIO_INPUTS, accelerators=[]), SWEEP_TERMS),
        (VariedInputForm(scenario_inputs=SCENARIO_INPUTS), SWEEP_INPUT_TERMS),
    ]


def test_every_term_named_for_a_field_exists():
    for terms in (
        BUDGET_SETTINGS_TERMS,
        COST_LINE_TERMS,
        OPTIONS_TERMS,
        SWEEP_TERMS,
        SWEEP_INPUT_TERMS,
    ):
        assert set(terms.values()) <= set(TERMS)
    assert {spec.term for spec in SWEEPABLE.values() if spec.term} <= set(TERMS)


def test_every_input_a_sweep_varies_has_a_term_or_is_listed_as_plain_words():
    assert {path for path, spec in SWEEPABLE.items() if not spec.term} == SWEEPABLE_WITHOUT_TERM
    assert {path.replace(".", "_") for path in SWEEPABLE_WITHOUT_TERM} == WITHOUT_TERM


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


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_the_sweep_page_draws_each_hints_link(client, language):
    owner = make_manager("maria")
    scenario = make_scenario(make_project(owner, "Terms"), "Pilot", inputs=SCENARIO_INPUTS)
    client.force_login(owner)
    response = client.get(
        f"/scenarios/{scenario.pk}/sweeps/new/", headers={"accept-language": language}
    )
    assert response.status_code == 200
    html = response.content.decode()
    # the form's own fields, and each row's fields named "inputs-<row>-<field>"
    blocks = _field_blocks(html)
    rows = {
        match.group(1): part
        for part in html.split('<div class="form-field')[1:]
        if (match := re.search(r'name="inputs-\d+-([a-z_]+)"', part))
    }
    missing = [name for name, slug in SWEEP_TERMS.items() if slug_link(slug) not in blocks[name]]
    missing += [
        name for name, slug in SWEEP_INPUT_TERMS.items() if slug_link(slug) not in rows[name]
    ]
    assert missing == []
    # "What each input means": each hint beside its term's link
    hints = re.search(r'<dl class="input-hints">(.*?)</dl>', html, re.S).group(1).split("<div>")
    used = [spec for spec in SWEEPABLE.values() if not spec.unused_by(SCENARIO_INPUTS)]
    assert len(hints) - 1 == len(used) > 10
    for spec, hint in zip(used, hints[1:], strict=True):
        assert (slug_link(spec.term) in hint) == bool(spec.term), spec.path


def slug_link(slug: str | None) -> str:
    return f'href="/glossary/{slug}/"'
