"""Whole pages from the cache, each response with the request's own CSRF token.

A page is cached under a key its view computes from everything it shows (see apps.core.fragments):
for a signed-in page, the user's part of the layout and the address too. Its CSRF token is drawn
as a random placeholder, which each response replaces with the request's token (masked afresh,
as a page rendered for it would have). A page with a message waiting is drawn as usual (the
message is shown once, then gone), and never cached.
"""

from collections.abc import Callable

from django.contrib import messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.template.response import TemplateResponse
from django.utils.crypto import get_random_string

from apps.core.fragments import FRAGMENT_SECONDS


def has_waiting_messages(request: HttpRequest) -> bool:
    """Whether a message waits to be shown; counting them marks none as shown."""
    return len(messages.get_messages(request)) > 0


def cached_page(
    request: HttpRequest, key: str, render: Callable[[dict], TemplateResponse]
) -> HttpResponse:
    """The GET page under key, else `render(extra_context)` cached under it. `render` draws the
    page with `extra_context` over its own (here the placeholder CSRF token)."""
    if request.method != "GET" or has_waiting_messages(request):
        return render({})
    entry = cache.get(key)
    if entry is None:
        # Random for each drawing: no text typed into the page can match it.
        placeholder = get_random_string(32)
        drawn = render({"csrf_token": placeholder})
        if drawn.status_code != 200:
            return render({})
        drawn.render()
        entry = (placeholder.encode(), drawn["Content-Type"], drawn.content)
        cache.set(key, entry, FRAGMENT_SECONDS)
    placeholder, content_type, content = entry
    return HttpResponse(
        content.replace(placeholder, get_token(request).encode()), content_type=content_type
    )
