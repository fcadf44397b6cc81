"""A fiscal year's label as people read it, in the active language.

The engine names a fiscal year by the project's rule (apps.estimates.budget.fiscal): "FY2026" (by
the calendar year in which it ends) or "2025/26" (by both years). That label is the year's key,
kept as it is in data, JSON, CSV cells and URLs (the review queue's `?sort=-fy:FY2026` is a
contract); only what the pages and the exports' headings show goes through here: "FY2026" in
English, "Exercice 2026" in French. A label by both years is digits alone, the same in both.
"""

import re

from django.utils.translation import gettext

_END_YEAR = re.compile(r"FY(?P<year>\d{4})")


def fiscal_year_text(label: str) -> str:
    """ "FY2026" → "FY2026" in English, "Exercice 2026" in French; "2025/26" as it is."""
    match = _END_YEAR.fullmatch(str(label))
    if match is None:
        return str(label)
    # Translators: a fiscal year named by the calendar year in which it ends ("FY2026").
    return gettext("FY%(year)s") % {"year": match["year"]}
