"""`{% load glossary %}`: links from a hint or a figure to the term that explains it."""

import functools

from django import template
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse

from apps.glossary.terms import TERMS
from apps.words.language import active_words

register = template.Library()


@register.simple_tag
def term_link(slug: str) -> str:
    """`{% term_link "kv-cache" %}`: a "What is this?" link to /glossary/kv-cache/ whose
    accessible name also says which term it explains. An unknown slug is an error, so a link to a
    term that is gone fails the page's tests instead of leading to a 404."""
    return _render("glossary/term_link.html", slug)


@register.simple_tag
def term_help(slug: str) -> str:
    """`{% term_help "kv-cache" %}`: the same link as term_link, drawn as a compact "?" beside a
    form field's label; its accessible name is still "What is this? (term)"."""
    return _render("glossary/term_help.html", slug)


def _render(template_name: str, slug: str) -> str:
    if slug not in TERMS:
        raise template.TemplateSyntaxError(f"No glossary term {slug!r}.")
    return _drawn(template_name, slug, active_words(), get_script_prefix())


@functools.lru_cache(maxsize=2048)
def _drawn(template_name: str, slug: str, words: tuple, prefix: str) -> str:
    """A term's link drawn once per language and address prefix: a page draws dozens, and the
    live preview draws them again for every keystroke."""
    term = TERMS[slug]
    return render_to_string(
        template_name, {"term": term, "url": reverse("glossary-term", args=[slug])}
    )
