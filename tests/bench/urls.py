"""The project's routes plus /bench/empty/, the baseline of the HTTP benchmark (`make bench`)."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as project_urlpatterns


def empty(request: HttpRequest) -> HttpResponse:
    """Nothing but Django itself: middleware, routing and an empty 200."""
    return HttpResponse(b"")


urlpatterns = [*project_urlpatterns, path("bench/empty/", empty)]
