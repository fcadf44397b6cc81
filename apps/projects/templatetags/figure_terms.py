"""`{% load figure_terms %}`: the glossary term that explains a figure the pages show."""

from django import template

from apps.projects.field_terms import FIGURE_TERMS

register = template.Library()


@register.filter
def figure_term(key: str) -> str:
    """`{% term_link line.path|figure_term %}`: the glossary term of a figure, by its response
    path ("training.cost") or strip marker ("run_cost"). An unknown one is an error."""
    try:
        return FIGURE_TERMS[key]
    except KeyError:
        raise template.TemplateSyntaxError(f"No glossary term for the figure {key!r}.") from None
