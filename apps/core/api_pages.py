"""The API's lists answered a page at a time (the audit log, a sweep's results): the `page` and
`page_size` query parameters, documented and read, and the page's count, number and links."""

import math
from decimal import Decimal

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.request import Request

from apps.words.numbers import decimal_text


def page_parameters(items: str, most: int) -> list[OpenApiParameter]:
    """The two query parameters, documented: `items` names what a page holds ("Events")."""
    return [
        OpenApiParameter("page", {"type": "integer", "minimum": 1}, description="1-based [1]."),
        OpenApiParameter(
            "page_size",
            {"type": "integer", "minimum": 1, "maximum": most},
            description=f"{items} per page, at most {most}.",
        ),
    ]


def _positive(request: Request, name: str, default: int, most: int) -> int:
    if name not in request.query_params:
        return default
    value = request.query_params[name]  # an empty value is refused, as any other non-number
    if not (value.isascii() and value.isdigit() and len(value) < 10 and 1 <= int(value) <= most):
        message = gettext("Give a whole number from 1 to %(most)s.")
        message %= {"most": decimal_text(Decimal(most))}
        raise serializers.ValidationError({name: [message]})
    return int(value)


def page_of(
    request: Request, count: int, default_size: int, most_size: int, *, fewest_pages: int = 1
) -> tuple[slice, dict]:
    """Which of `count` rows the request's page is, and the page's count, page, page_size,
    pages, next and previous as the API answers them; a parameter out of range is a 400."""
    page_size = _positive(request, "page_size", default_size, most_size)
    pages = max(fewest_pages, math.ceil(count / page_size))
    page = _positive(request, "page", 1, pages)

    def link(number: int) -> str | None:
        if not 1 <= number <= pages:
            return None
        return request.build_absolute_uri(f"?page={number}&page_size={page_size}")

    start = (page - 1) * page_size
    head = {
        "count": count,
        "page": page,
        "page_size": page_size,
        "pages": pages,
        "next": link(page + 1),
        "previous": link(page - 1),
    }
    return slice(start, start + page_size), head
