"""The API price catalogue page."""

import datetime

from django.core.paginator import Paginator
from django.http import HttpRequest, QueryDict
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET

from apps.apiprices.forms import PriceFilterForm
from apps.apiprices.selectors import models_priced_on, prices_of
from apps.catalogue.models import catalogue_version
from apps.catalogue.snapshot import SNAPSHOT_MAX_AGE_SECONDS
from apps.core.fragments import cached_fragment, fragment_key

PAGE_SIZE = 50
TEMPLATE = "apiprices/api_price_list.html"
# The query strings whose page is cached: a provider among the choices (or none) and a page
# number. Any other (a day, a model, a provider that is none of them, anything else) is drawn
# afresh, rather than adding a page to the cache for every value a client types.
CACHED_PARAMETERS = frozenset({"provider", "page"})
CACHED_PAGES = 100


@require_GET
def api_price_list(request: HttpRequest) -> TemplateResponse:
    key = _cache_key(request.GET)
    if key is None:
        has_errors, prices_html = _prices_part(request)
    else:
        has_errors, prices_html = cached_fragment(
            key,
            lambda: _prices_part(request),
            SNAPSHOT_MAX_AGE_SECONDS,
            keep=lambda part: not part[0],  # not with errors: a provider none of the choices
        )
    return TemplateResponse(
        request, TEMPLATE, {"has_errors": has_errors, "prices_html": prices_html}
    )


def _cache_key(query: QueryDict) -> str | None:
    """The key of the page but its layout for this query string, while the catalogue version is
    the same and on this day (the page shows it); None for a query string drawn afresh. Kept
    SNAPSHOT_MAX_AGE_SECONDS, as the list in the API is."""
    page = query.get("page", "1")
    if (
        not set(query) <= CACHED_PARAMETERS
        or any(len(values) > 1 for _name, values in query.lists())
        or not (page.isdigit() and page == str(int(page)) and int(page) <= CACHED_PAGES)
    ):
        return None
    return fragment_key(
        "api-price-page",
        catalogue_version(),
        sorted(query.lists()),
        datetime.date.today().isoformat(),
    )


def _prices_part(request: HttpRequest) -> tuple[bool, str]:
    """Whether a filter is invalid, and the page but its layout, rendered."""
    form = PriceFilterForm(request.GET)
    form.is_valid()  # invalid filters are shown with their errors; the others still apply
    filters = form.filters()
    page = Paginator(models_priced_on(**filters), PAGE_SIZE).get_page(request.GET.get("page"))
    page.object_list = prices_of(page.object_list, filters["day"])
    query = request.GET.copy()
    query.pop("page", None)
    context = {"form": form, "page": page, "day": filters["day"], "query": query.urlencode()}
    return bool(form.errors), render_to_string(f"{TEMPLATE}#prices", context, request)
