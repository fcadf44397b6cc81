"""The API price catalogue page."""

import datetime

from django.core.paginator import Paginator
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET

from apps.apiprices.forms import PriceFilterForm
from apps.apiprices.selectors import models_priced_on, prices_of
from apps.catalogue.models import catalogue_version
from apps.core.fragments import cached_fragment, fragment_key

PAGE_SIZE = 50
TEMPLATE = "apiprices/api_price_list.html"


@require_GET
def api_price_list(request: HttpRequest) -> TemplateResponse:
    # The filters, their errors and the page are drawn from the query string and today's date
    # alone (an empty or invalid day is today) while the catalogue version is the same.
    key = fragment_key(
        "api-price-page",
        catalogue_version(),
        sorted(request.GET.lists()),
        datetime.date.today().isoformat(),
    )
    has_errors, prices_html = cached_fragment(key, lambda: _prices_part(request))
    return TemplateResponse(
        request, TEMPLATE, {"has_errors": has_errors, "prices_html": prices_html}
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
