"""Every glossary term, by slug, and in the reading order of the active language."""

import unicodedata

from django.http import Http404
from django.utils.translation import gettext

from apps.glossary import terms_compute, terms_money, terms_planning, terms_serving
from apps.glossary.term import Term

TERMS: dict[str, Term] = {
    term.slug: term
    for module in (terms_compute, terms_serving, terms_money, terms_planning)
    for term in module.TERMS
}


def term_or_404(slug: str) -> Term:
    try:
        return TERMS[slug]
    except KeyError:
        raise Http404(gettext("No such term in the glossary.")) from None


def _reading_order(text: str) -> str:
    """Where "Émissions" files: under E, between "Coût" and "Exercice", not after "Z"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(character for character in decomposed if not unicodedata.combining(character))


def terms_by_name() -> list[Term]:
    """The terms sorted by their name in the active language."""
    return sorted(TERMS.values(), key=lambda term: _reading_order(str(term.name)))
