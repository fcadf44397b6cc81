"""What htmx asks of a view."""

from django.http import HttpRequest


def is_htmx(request: HttpRequest) -> bool:
    """An htmx request for a fragment; restoring a page from history asks for the whole page."""
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )
