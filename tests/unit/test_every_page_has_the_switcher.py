"""The language switcher is on every page: every page template is drawn in the layout, which
holds the switcher and says the page's language and direction (<html lang dir>). The pages that
are not the app's own are the API's documentation (Swagger UI, DRF's browsable API), which are
in English and say so, and the HTML of emails, which has no switcher (it says the recipient's
language: apps.notifications.emails)."""

import re

from django.conf import settings

TEMPLATES = settings.BASE_DIR / "templates"
LAYOUT = "base.html"
# Not the app's pages: the API's documentation, in English (lang="en" or DRF's own layout).
API_PAGES = {"drf_spectacular/swagger_ui.html", "rest_framework/api.html"}
EMAILS = {"notifications/email/layout.html"}
EXTENDS = re.compile(r"\{%\s*extends\s+\"([^\"]+)\"\s*%\}")


def test_the_layout_holds_the_switcher_and_the_pages_language_and_direction():
    layout = (TEMPLATES / LAYOUT).read_text()
    assert '{% include "includes/language_switcher.html" %}' in layout
    assert '<html lang="{{ LANGUAGE_CODE }}" dir="{% if LANGUAGE_BIDI %}rtl{% else %}ltr' in layout


def test_every_page_template_is_drawn_in_the_layout():
    pages = {}
    for path in TEMPLATES.rglob("*.html"):
        name = str(path.relative_to(TEMPLATES))
        text = path.read_text()
        parent = EXTENDS.search(text)
        if parent or "<html" in text:
            pages[name] = parent.group(1) if parent else None
    assert len(pages) > 30

    def drawn_in_layout(name: str) -> bool:
        while name != LAYOUT:
            name = pages.get(name)
            if name is None:
                return False
        return True

    outside = {name for name in pages if name != LAYOUT and not drawn_in_layout(name)}
    assert outside == API_PAGES | EMAILS
