"""Translations remembered per catalogue (apps.words.language and the i18n library's translate
tag) give what Django gives, in each language, for every form of the tag."""

import pytest
from django.template import Context, Template, engines
from django.templatetags import i18n
from django.utils import translation

from apps.words import language
from apps.words.templates_backend import REMEMBERED_I18N, Templates
from apps.words.templatetags.remembered_i18n import RememberedTranslateNode

TAGS = [
    '{% translate "Training against inference" %}',
    '{% translate "How sure: 90 % ranges" %}',
    '{% translate "<strong>Training inputs</strong>: examples" %}',
    "{% translate 'Month' %}",
    '{% translate "Month" as month %}[{{ month }}]',
    '{% translate "Month" noop %}',
    '{% translate "May" context "month name" %}',
    '{% translate "Month"|upper %}',
    "{% translate word %}",
    '{% trans "Cost" %}',
]


def _nodes(nodelist):
    for node in nodelist:
        yield node
        for child in node.child_nodelists:
            yield from _nodes(getattr(node, child, None) or [])


@pytest.mark.parametrize("language_code", ["en-gb", "fr"])
@pytest.mark.parametrize("source", TAGS)
def test_the_translate_tag_draws_what_django_draws(language_code, source):
    template = Template("{% load i18n %}" + source)
    nodes = [node for node in _nodes(template.nodelist) if isinstance(node, i18n.TranslateNode)]
    assert nodes and all(isinstance(node, RememberedTranslateNode) for node in nodes)
    with translation.override(language_code):
        for _ in range(2):  # worked out, then remembered
            ours, django = Context({"word": "Month"}), Context({"word": "Month"})
            drawn = [node.render(ours) for node in nodes]
            expected = [i18n.TranslateNode.render(node, django) for node in nodes]
            assert drawn == expected
            assert [type(text) for text in drawn] == [type(text) for text in expected]
            assert ours.flatten() == django.flatten()


PLURAL = ("%(number)s month", "%(number)s months")


def test_a_remembered_translation_follows_the_active_language():
    for _ in range(2):  # worked out, then remembered
        with translation.override("fr"):
            assert language.gettext("Month") == translation.gettext("Month") == "Mois"
            for count in (1, 2, 1_000_000):
                assert language.ngettext(*PLURAL, count) == translation.ngettext(*PLURAL, count)
            assert language.ngettext(*PLURAL, 1) == "%(number)s mois"
        with translation.override("en-gb"):
            assert language.gettext("Month") == "Month"
            assert language.ngettext(*PLURAL, 1) == "%(number)s month"
            assert language.ngettext(*PLURAL, 2) == "%(number)s months"


def test_the_engine_passes_over_the_i18n_replacement_and_warns_of_any_other_shared_name():
    assert engines["django"].check() == []
    assert isinstance(engines["django"], Templates)
    clash = Templates(
        {
            "NAME": "clash",
            "DIRS": [],
            "APP_DIRS": True,
            "OPTIONS": {"libraries": {"i18n": REMEMBERED_I18N, "static": REMEMBERED_I18N}},
        }
    )
    warnings = clash.check()
    assert [warning.id for warning in warnings] == ["templates.W003"]
    assert warnings[0].msg.startswith("'static' is used for multiple template tag modules")
