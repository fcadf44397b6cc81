"""Numbers reach a reader through one formatter, Babel (apps/words/numbers.py and
formatting.py): no digit grouping written by hand (`f"{x:,}"`), none of Django's own number
formatting (`number_format`, `floatformat`, `intcomma`, whose French groups digits with U+00A0
where Babel writes U+202F), no currency symbols of our own. Each would write English numbers on
a French page, or two different spaces on one."""

import ast
import re
from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings
from django.utils import translation

from apps.words.templatetags import dates

BASE = settings.BASE_DIR
# The engine's own English sentences (the API's words, JSON unlocalised) may group digits: a page
# never shows them as they are, but rewords them through gettext with its numbers passed to
# Babel (apps/words/messages.py, apps/options/presentation.py).
ENGINE_ENGLISH = ("apps/estimates/",)
# Catalogue data, stored as the vendored source words it, not interface text.
DATA = ("apps/apiprices/vendoring.py",)
DJANGO_NUMBERS = re.compile(r"\b(number_format|floatformat|intcomma|intword|localize)\b")
# A str.format field whose spec groups digits: "{:,}", "{0:,.2f}", "{total:_}".
FORMAT_FIELD_GROUPING = re.compile(r"\{\w*:[^{}\s]*[,_][^{}\s]*\}")
# `|date` patterns that write machine values: <time datetime="…">, ISO dates.
MACHINE_DATES = {"c", "Y-m-d"}
CURRENCY_SYMBOLS = {"$", "€", "£", "¥", "US$", "CHF", "Fr."}


def _code() -> list[Path]:
    return [
        path
        for path in sorted((BASE / "apps").rglob("*.py"))
        if not str(path.relative_to(BASE)).startswith(ENGINE_ENGLISH + DATA)
        and "migrations" not in path.parts
        and "management" not in path.parts
    ]


def _grouped_by_hand(tree: ast.AST) -> list[ast.AST]:
    """f-strings and str.format fields that group digits themselves ("{x:,}", "{:,.2f}")."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            spec = "".join(
                part.value for part in node.format_spec.values if isinstance(part, ast.Constant)
            )
            if "," in spec or "_" in spec:
                found.append(node)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and FORMAT_FIELD_GROUPING.search(node.value)
        ):
            found.append(node)
    return found


def _django_numbers(tree: ast.AST) -> list[ast.AST]:
    return [
        node
        for node in ast.walk(tree)
        if (isinstance(node, ast.Name) and DJANGO_NUMBERS.fullmatch(node.id))
        or (isinstance(node, ast.alias) and DJANGO_NUMBERS.fullmatch(node.name))
        or (isinstance(node, ast.Attribute) and node.attr in ("number_format", "localize")
            and not _is_openpyxl_cell(node))
    ]  # fmt: skip


def _is_openpyxl_cell(node: ast.Attribute) -> bool:
    # openpyxl's `cell.number_format` is the spreadsheet's own display format, not ours.
    return node.attr == "number_format" and isinstance(node.value, ast.Name)


def _currency_symbols(tree: ast.AST) -> list[ast.AST]:
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in CURRENCY_SYMBOLS
    ]


def test_no_code_formats_a_number_for_people_by_hand_or_by_django():
    found = [
        f"{path.relative_to(BASE)}:{node.lineno}: {ast.unparse(node)[:60]}"
        for path in _code()
        for check in (_grouped_by_hand, _django_numbers, _currency_symbols)
        for node in check(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == []


def test_no_template_formats_a_number_by_django():
    found = [
        f"{path.relative_to(BASE)}: {match.group(0)}"
        for path in sorted((BASE / "templates").rglob("*.html"))
        for match in re.finditer(
            r"\|(floatformat|intcomma|intword|localize)\b|\{% localize", path.read_text()
        )
    ]
    assert found == []


def test_no_template_writes_a_date_for_people_with_a_pattern_of_its_own():
    """Dates and times go through `{% load dates %}` (Babel); `|date` only for machine values."""
    found = [
        f"{path.relative_to(BASE)}: {match.group(0)}"
        for path in sorted((BASE / "templates").rglob("*.html"))
        for match in re.finditer(r"\|date(:\s*['\"]([^'\"]*)['\"])?", path.read_text())
        if match.group(2) not in MACHINE_DATES
    ]
    assert found == []


def test_dates_and_times_are_written_as_each_language_does():
    moment = datetime(2026, 12, 1, 14, 30, tzinfo=UTC)
    names = ("day", "short_day", "moment", "long_moment", "month", "short_month")
    filters = {name: dates.register.filters[name] for name in names}
    written = {}
    for language in ("en-gb", "fr"):
        with translation.override(language):
            written[language] = {name: write(moment) for name, write in filters.items()}
            assert filters["day"](None) == filters["moment"]("") == ""
    assert written["en-gb"] == {
        "day": "1 December 2026",
        "short_day": "1 Dec 2026",
        "moment": "1 Dec 2026, 14:30",
        "long_moment": "1 December 2026, 14:30",
        "month": "December 2026",
        "short_month": "Dec 2026",
    }
    assert written["fr"] == {
        "day": "1 décembre 2026",
        "short_day": "1 déc. 2026",
        "moment": "1 déc. 2026, 14:30",
        "long_moment": "1 décembre 2026, 14:30",
        "month": "décembre 2026",
        "short_month": "déc. 2026",
    }


def test_the_checks_find_what_they_look_for():
    source = """
from django.utils.formats import number_format
text = f"{total:,} points and {share:.0%}"
other = "{:,.2f}".format(amount)
SYMBOLS = {"EUR": "€"}
cell.number_format = "#,##0.00"
"""
    tree = ast.parse(source)
    assert [ast.unparse(n) for n in _grouped_by_hand(tree)] == ["{total:,}", "'{:,.2f}'"]
    assert len(_django_numbers(tree)) == 1
    assert [n.value for n in _currency_symbols(tree)] == ["€"]
