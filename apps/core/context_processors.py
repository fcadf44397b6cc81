"""Template context shared by every page."""

from functools import cache

from django.conf import settings
from django.http import HttpRequest
from django.urls import get_script_prefix, reverse

NAVIGATION = (
    "home",
    "project-list",
    "review-queue",
    "portfolio",
    "audit-log",
    "accelerator-list",
    "glossary",
    "api:docs",
    "api-tokens",
    "preferences",
    "language-switch",
    "password_change",
    "logout",
    "login",
)


@cache
def _navigation(script_prefix: str) -> dict[str, str]:
    return {name.replace("-", "_").replace(":", "_"): reverse(name) for name in NAVIGATION}


def navigation(request: HttpRequest) -> dict:
    """`{{ nav.project_list }}`: the layout's links, reversed once per process (and prefix);
    `{{ interface_languages }}`: (code, name in that language) for the language switcher."""
    return {"nav": _navigation(get_script_prefix()), "interface_languages": settings.LANGUAGES}
