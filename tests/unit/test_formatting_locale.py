"""Figures per language by Babel (CLDR): exact code points in English and French, and parsing."""

from datetime import date
from decimal import Decimal

import pytest
from django import forms
from django.utils import translation

from apps.budget.templatetags.budget_figures import amount, rate
from apps.options.chart import _power_label
from apps.projects.budget_settings import DecimalText, PercentField
from apps.projects.forms import NumberField
from apps.sweeps.forms import _parse_values
from apps.sweeps.templatetags.sweeps import thousands
from apps.words import formatting
from apps.words.dates import date_text
from apps.words.numbers import number_locale, parse_number

NNBSP = "\u202f"  # narrow no-break space: French digit grouping (CLDR)
NBSP = "\u00a0"  # no-break space: before a French currency or percent sign (CLDR)


@pytest.fixture
def french():
    with translation.override("fr"):
        yield


@pytest.fixture
def english():
    with translation.override("en-gb"):
        yield


def test_the_active_language_picks_the_babel_locale():
    with translation.override("en-gb"):
        assert str(number_locale()) == "en_GB"
    with translation.override("fr"):
        assert str(number_locale()) == "fr"


def test_french_groups_digits_with_a_narrow_no_break_space_and_writes_a_decimal_comma(french):
    assert formatting.hours(8.333).text == "8,33 heures-accélérateur"
    assert formatting.hours(58958.4855).text == f"58{NNBSP}958 heures-accélérateur"
    assert formatting.count(1_234_567, "requests").text == "1,23 million de demandes"
    assert formatting.flop(3.15e23).text == "3,15 × 10²³ FLOP"
    assert formatting.hours(0.00015).text == "1,5 × 10⁻⁴ heures-accélérateur"


def test_english_keeps_commas_between_groups_and_a_decimal_point(english):
    assert formatting.hours(58958.4855).text == "58,958 accelerator-hours"
    assert formatting.hours(8.333).text == "8.33 accelerator-hours"


@pytest.mark.parametrize(
    ("value", "english_text", "french_text"),
    [
        (12_300_000, "12.3 million", "12,3 millions d’heures"),
        (1_000_000, "1 million", "1 million d’heures"),
        (4.3e9, "4.3 billion", "4,3 milliards d’heures"),  # French milliard is 10⁹
        (3e12, "3 trillion", "3 billions d’heures"),  # … and billion is 10¹²
    ],
)
def test_large_magnitudes_take_the_languages_own_words(value, english_text, french_text):
    with translation.override("en-gb"):
        assert formatting.hours(value, "hours").text == f"{english_text} hours"
    with translation.override("fr"):
        assert formatting.hours(value, "hours").text == french_text


def test_money_in_french_follows_the_digits_with_the_cldr_symbol(french):
    assert formatting.money(Decimal("24.92")).text == f"24,92{NBSP}$US"
    assert formatting.money(Decimal("598"), "EUR").text == f"598{NBSP}€"
    assert formatting.money(Decimal("147396")).text == f"147{NNBSP}396{NBSP}$US"
    assert formatting.money(Decimal("53400000")).text == f"53,4 millions{NBSP}$US"
    assert formatting.money(Decimal("-12.5"), "EUR").text == f"−12,50{NBSP}€"
    assert formatting.money(Decimal("1200"), "CHF").text == f"1{NNBSP}200{NBSP}CHF"
    assert formatting.money(Decimal("24.92")).aria == "24,92 dollars des États-Unis"


def test_money_below_a_cent_keeps_two_significant_figures_in_both_languages():
    with translation.override("en-gb"):
        assert formatting.money(Decimal("0.0017")).text == "$0.0017"
    with translation.override("fr"):
        assert formatting.money(Decimal("0.0017")).text == f"0,0017{NBSP}$US"
        assert formatting.money(Decimal("0.0017")).exact == "0.0017"


def test_english_money_is_unchanged_from_the_hand_written_formats(english):
    assert formatting.money(Decimal("24.92")).text == "$24.92"
    assert formatting.money(Decimal("53400000")).text == "$53.4 million"
    assert formatting.money(Decimal("1200"), "CHF").text == "1,200 CHF"
    assert formatting.money(Decimal("-12.5"), "GBP").text == "−£12.50"


def test_percentages_use_the_languages_sign_and_spacing():
    with translation.override("en-gb"):
        assert formatting.percent(0.667).text == "67%"
        assert rate(Decimal("0.035")) == "3.5%"
    with translation.override("fr"):
        assert formatting.percent(0.667).text == f"67{NBSP}%"
        assert formatting.percent(0.004).text.endswith(f"1{NBSP}%")
        assert rate(Decimal("0.035")) == f"3,5{NBSP}%"


def test_budget_amounts_show_every_cent_per_language_with_a_machine_value():
    with translation.override("en-gb"):
        assert amount(Decimal("135000")) == '<data value="135000.00">$135,000.00</data>'
    with translation.override("fr"):
        assert amount(Decimal("135000")) == (
            f'<data value="135000.00">135{NNBSP}000,00{NBSP}$US</data>'
        )


def test_machine_values_stay_unlocalised_in_french(french):
    figure = formatting.hours(58958.4855)
    assert figure.exact == "58958.4855"
    assert formatting.money(Decimal("53400000")).exact == "53400000.00"


@pytest.mark.parametrize("space", [NNBSP, NBSP, " "], ids=["U+202F", "U+00A0", "space"])
def test_french_input_reads_each_kind_of_space_between_groups_and_a_decimal_comma(french, space):
    assert parse_number(f"1{space}234,5") == Decimal("1234.5")
    assert parse_number(f"12{space}345{space}678") == Decimal("12345678")


def test_french_input_also_reads_the_machine_values_forms_start_with(french):
    assert parse_number("1234.5") == Decimal("1234.5")
    assert parse_number("7e9") == Decimal("7e9")
    assert parse_number("−0,5") == Decimal("-0.5")


@pytest.mark.parametrize("typed", ["1,234.5", "1 23,5", "abc", "1,2,3", ""])
def test_french_input_refuses_what_is_not_a_french_number(french, typed):
    with pytest.raises(ValueError):
        parse_number(typed)


def test_english_input_reads_commas_between_groups_and_refuses_a_decimal_comma(english):
    assert parse_number("1,234.5") == Decimal("1234.5")
    assert parse_number("15 000") == Decimal("15000")
    assert parse_number("7e9") == Decimal("7e9")
    with pytest.raises(ValueError):
        parse_number("1,5")  # not fifteen: grouping is checked


def test_every_numeric_field_kind_reads_french_input(french):
    assert NumberField().clean(f"1{NNBSP}234,5") == 1234.5
    assert NumberField(scale=100).clean("40,5") == pytest.approx(0.405)
    assert DecimalText().clean(f"15{NBSP}000,50") == Decimal("15000.50")
    assert PercentField().clean("3,5") == Decimal("0.035")


def test_a_field_says_so_when_the_number_cannot_be_read(french):
    for field in (NumberField(), DecimalText(), PercentField()):
        with pytest.raises(forms.ValidationError) as error:
            field.clean("1,234.5")
        assert error.value.code == "invalid"


def test_chart_axis_labels_are_short_compact_numbers_in_each_language():
    with translation.override("en-gb"):
        assert [_power_label(e) for e in (-1, 2, 3, 6, 9)] == ["0.1", "100", "1k", "1m", "1bn"]
    with translation.override("fr"):
        labels = [_power_label(e) for e in (-1, 3, 6, 9)]
        assert labels == ["0,1", f"1{NBSP}k", f"1{NBSP}M", f"1{NBSP}Md"]


def test_a_sweep_list_of_french_values_is_separated_by_semicolons(french):
    assert _parse_values(f"1{NNBSP}234,5; 2 000;0,5") == [1234.5, 2000.0, 0.5]
    assert _parse_values("12 24 36") == [12.0, 24.0, 36.0]


def test_sweep_counts_group_digits_per_language():
    with translation.override("en-gb"):
        assert thousands(1_000_000) == "1,000,000"
    with translation.override("fr"):
        assert thousands(1_000_000) == f"1{NNBSP}000{NNBSP}000"


def test_dates_in_words_follow_the_language():
    with translation.override("en-gb"):
        assert date_text(date(2026, 12, 1)) == "1 December 2026"
    with translation.override("fr"):
        assert date_text(date(2026, 12, 1)) == "1 décembre 2026"


@pytest.mark.parametrize(
    ("figure", "english", "french"),
    [
        (lambda: formatting.count(1, "requests"), "1 request", "1 demande"),
        (lambda: formatting.count(0, "requests"), "0 requests", "0 demande"),
        (lambda: formatting.count(15_000, "requests"), "15,000 requests", f"15{NNBSP}000 demandes"),
        (lambda: formatting.months(1.5), "1.5 months", "1,5 mois"),
        (lambda: formatting.count(3, "accelerators"), "3 accelerators", "3 accélérateurs"),
        (lambda: formatting.hours(1, "hours"), "1 hour", "1 heure"),
        (lambda: formatting.per_second(2.5, "tokens"), "2.5 tokens per second", None),
    ],
)
def test_units_after_a_count_are_worded_and_inflected_in_the_language(figure, english, french):
    with translation.override("en-gb"):
        assert figure().text == english
    if french is not None:
        with translation.override("fr"):
            assert figure().text == french


def test_a_unit_figure_keeps_its_english_unit_for_machines(french):
    figure = formatting.count(12_300_000, "requests")
    assert (figure.text, figure.unit) == ("12,3 millions de demandes", "requests")
