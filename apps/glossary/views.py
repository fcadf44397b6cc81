"""Glossary pages: the list of terms, and one page per term."""

from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET

from apps.glossary.terms import TERMS, term_or_404, terms_by_name


@require_GET
def glossary(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(request, "glossary/glossary.html", {"terms": terms_by_name()})


@require_GET
def glossary_term(request: HttpRequest, term: str) -> TemplateResponse:
    entry = term_or_404(term)
    related = [TERMS[slug] for slug in entry.related]
    return TemplateResponse(request, "glossary/term.html", {"term": entry, "related": related})
