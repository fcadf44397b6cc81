"""The signed-in user's stored language comes before the cookie and Accept-Language."""

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation

from apps.accounts.language import session_language


class PreferredLanguageMiddleware:
    """Activates the language the session holds from the user's preferences (put there at sign-in
    and by the switcher), so that no request queries the preferences. Goes after
    LocaleMiddleware, which chose from the cookie and Accept-Language, and SessionMiddleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        language = session_language(request)
        if language and language != request.LANGUAGE_CODE:
            translation.activate(language)
            request.LANGUAGE_CODE = language
        return self.get_response(request)
