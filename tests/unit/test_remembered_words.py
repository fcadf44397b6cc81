"""Figures, exact values, currency names and engine messages remembered for the live preview give
what working them out afresh gives, in each language, and never another value's words."""

from decimal import Decimal

import pytest
from babel import Locale
from django.utils import translation
from django.utils.html import format_html

from apps.estimates.messages import Message, Number
from apps.words import formatting, messages, numbers
from apps.words.formatting import Figure
from apps.words.templatetags import figures

VALUES = [
    ("hours", 8.33388888888889, ""),
    ("hours", 58958.48551234, "hours"),
    ("money", Decimal("124.81"), "USD"),
    ("money", Decimal("53400000.00"), "EUR"),
    ("money", Decimal("0.0017"), "USD"),
    ("flop", 3.15e23),
    ("percent", 0.667),
    ("embodied", None),
    ("embodied", 12.5),
]


@pytest.mark.parametrize("language_code", ["en-gb", "fr"])
@pytest.mark.parametrize("kind_value_args", VALUES)
def test_a_drawn_figure_is_the_figure_worked_out_afresh(language_code, kind_value_args):
    kind, value, *args = kind_value_args
    with translation.override(language_code):
        words = formatting.figure_words()
        for _ in range(2):  # worked out, then remembered
            afresh = figures._KINDS[kind].__wrapped__(value, *args)
            assert figures.figure(kind, value, *args) == figures._figure_html.__wrapped__(afresh)
            assert figures.figure_in(words, kind, value, *args) == figures.figure(
                kind, value, *args
            )
            assert figures.exact(kind, value, *args) == figures._exact_drawn(kind, value, *args)


def test_a_figures_html_is_escaped_as_format_html_escapes_it():
    figure = Figure(text='<b>"8" & −3</b>', exact="1<2", unit="", value=1.0, aria="a & b")
    assert figures._figure_html.__wrapped__(figure) == format_html(
        '<data value="{}"><span aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span></data>',
        figure.exact,
        figure.text,
        figure.aria,
    )
    plain = Figure(text="<8 & 9>", exact="8", unit="", value=8.0, aria="")
    assert figures._figure_html.__wrapped__(plain) == format_html(
        '<data value="{}">{}</data>', plain.exact, plain.text
    )


def test_a_remembered_figure_follows_the_locale_the_language_is_given(monkeypatch):
    """A test of a language CLDR does not know replaces numbers.language_locale: the figures
    remembered before are not handed out in the locale it gives."""
    with translation.override("en-gb"):
        assert formatting.number(1234.5).text == "1,235"
        assert figures.figure("hours", 1234.5, "") == '<data value="1234.5">1,235</data>'
        monkeypatch.setattr(numbers, "language_locale", lambda language: Locale.parse("fr"))
        assert formatting.number(1234.5).text == "1\u202f235"
        assert figures.figure("hours", 1234.5, "") == '<data value="1234.5">1\u202f235</data>'


def test_a_currency_is_named_for_the_count_as_written():
    """English names one of a currency for 1 but not for 1.00, which Decimal holds equal."""
    with translation.override("en-gb"):
        for _ in range(2):  # worked out, then remembered
            assert numbers.currency_name("USD", 1) == "US dollar"
            assert numbers.currency_name("USD", Decimal("1.00")) == "US dollars"
            assert numbers.currency_name("USD", Decimal("1")) == "US dollar"


@pytest.mark.parametrize("language_code", ["en-gb", "fr"])
def test_a_remembered_message_is_worded_by_each_parameters_type(language_code):
    """True equals 1 (and hashes alike), but is worded as a word, not as a number."""
    flag = Message("Shared: %(value)s", {"value": True})
    number = Message("Shared: %(value)s", {"value": 1})
    nested = Message("Note: %(note)s", {"note": flag})
    with translation.override(language_code):
        expected = [messages._message_text(m) for m in (flag, number, nested)]
        for _ in range(2):  # worked out, then remembered
            assert [messages.message_text(m) for m in (flag, number, nested)] == expected
    assert expected == ["Shared: True", "Shared: 1", "Note: Shared: True"]


def test_a_remembered_message_follows_the_active_language():
    message = Message("%(share)s", {"share": Number(Decimal("1234.5"), "exact")})
    for _ in range(2):
        with translation.override("fr"):
            assert messages.message_text(message) == "1\u202f234,5"
        with translation.override("en-gb"):
            assert messages.message_text(message) == "1,234.5"
