"""The API price catalogue page."""

from django.core.paginator import Paginator
from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET

from apps.apiprices.forms import PriceFilterForm
from apps.apiprices.selectors import models_priced_on, prices_of

PAGE_SIZE = 50


@require_GET
def api_price_list(request: HttpRequest) -> TemplateResponse:
    form = PriceFilterForm(request.GET)
    form.is_valid()  # invalid filters are shown with their errors; the others still apply
    filters = form.filters()
    page = Paginator(models_priced_on(**filters), PAGE_SIZE).get_page(request.GET.get("page"))
    page.object_list = prices_of(page.object_list, filters["day"])
    query = request.GET.copy()
    query.pop("page", None)
    return TemplateResponse(
        request,
        "apiprices/api_price_list.html",
        {"form": form, "page": page, "day": filters["day"], "query": query.urlencode()},
    )
