"""Figures for people: scientific notation, words for large numbers, units, money and HTML."""

import math
from decimal import Decimal

import numpy as np
import pytest
from django.template import Context, Template
from hypothesis import given
from hypothesis import strategies as st

from apps.words import formatting
from apps.words.formatting import (
    count,
    emissions_kg,
    energy_kwh,
    flop,
    hours,
    money,
    money_decimal_places,
    months,
    per_second,
    percent,
    seconds,
)
from apps.words.templatetags import figures

EVERY_FORMATTER = {
    "flop": flop,
    "hours": hours,
    "money": money,
    "energy_kwh": energy_kwh,
    "emissions_kg": emissions_kg,
    "seconds": seconds,
    "months": months,
    "percent": percent,
    "count": lambda value, **kwargs: count(value, "requests", **kwargs),
    "per_second": per_second,
}


def test_flop_uses_scientific_notation_with_superscripts():
    figure = flop(3.15e23)
    assert figure.text == "3.15 × 10²³ FLOP"
    assert figure.exact == "3.15e+23"
    assert figure.unit == "FLOP"
    assert figure.value == 3.15e23


def test_flop_spoken_text_spells_out_the_power_of_ten():
    assert flop(3.15e23).aria == "3.15 times 10 to the power 23 FLOP"
    assert flop(1e25).aria == "1 times 10 to the power 25 FLOP"


def test_flop_rounding_carries_into_the_exponent():
    assert flop(9.996e23).text == "1 × 10²⁴ FLOP"


def test_flop_below_a_million_is_a_plain_number():
    assert flop(512).text == "512 FLOP"
    assert flop(120_000.0).text == "120,000 FLOP"
    assert flop(0).text == "0 FLOP"


def test_large_hours_use_words():
    assert hours(26_700_000).text == "26.7 million accelerator-hours"
    assert hours(1.2e9).text == "1.2 billion accelerator-hours"
    assert hours(3e12).text == "3 trillion accelerator-hours"


def test_beyond_trillions_hours_use_scientific_notation():
    assert hours(2e15).text == "2 × 10¹⁵ accelerator-hours"


def test_hours_below_a_thousand_show_three_significant_figures_without_trailing_zeros():
    # The seed rounds 30,000 s to "8.3 accelerator-hours"; we keep three significant figures
    # everywhere, so the same figure reads 8.33 and 166.67 reads 167.
    assert hours(30_000 / 3600).text == "8.33 accelerator-hours"
    assert hours(600_000 / 3600).text == "167 accelerator-hours"
    assert hours(200.0).text == "200 accelerator-hours"
    assert hours(0.5).text == "0.5 accelerator-hours"
    assert hours(57.576456, "hours").text == "57.6 hours"


def test_hours_below_a_thousandth_use_scientific_notation():
    assert hours(0.00012).text == "1.2 × 10⁻⁴ accelerator-hours"
    assert hours(0.00012).aria == "1.2 times 10 to the power minus 4 accelerator-hours"


def test_hours_between_a_thousand_and_a_million_are_whole_with_thousands_separators():
    assert hours(58_958.29122).text == "58,958 accelerator-hours"


def test_rounding_up_moves_to_the_next_scale():
    assert hours(999.96).text == "1,000 accelerator-hours"
    assert hours(999_999.6).text == "1 million accelerator-hours"
    assert hours(999_960_000).text == "1 billion accelerator-hours"


def test_exactly_one_takes_the_singular_unit():
    assert hours(1).text == "1 accelerator-hour"
    assert hours(1.0, "hours").text == "1 hour"
    assert count(1, "accelerators").text == "1 accelerator"
    assert months(1).text == "1 month"
    assert seconds(1).aria == "1 second"


def test_exact_keeps_the_unrounded_value_in_the_unit_given():
    assert hours(26_700_000.0).exact == "26700000.0"
    assert hours(30_000 / 3600).exact == "8.333333333333334"
    assert energy_kwh(49_524.96).exact == "49524.96"
    assert energy_kwh(49_524.96).unit == "kWh"
    assert seconds(0.35).exact == "0.35"
    assert seconds(0.35).unit == "s"


def test_money_in_millions():
    figure = money(Decimal("53400000"))
    assert figure.text == "$53.4 million"
    assert figure.exact == "53400000.00"
    assert figure.unit == "USD"
    assert figure.value == Decimal("53400000")
    assert figure.aria == "53.4 million US dollars"


def test_money_shows_cents_only_when_the_amount_has_them():
    assert money(Decimal("24.92")).text == "$24.92"
    assert money(Decimal("598.00")).text == "$598"
    assert money(Decimal("0.50")).text == "$0.50"
    assert money(2.99).text == "$2.99"


def test_money_from_a_thousand_to_a_million_is_in_whole_units():
    figure = money(Decimal("147395.73"))
    assert figure.text == "$147,396"
    assert figure.exact == "147395.73"


def test_money_below_a_cent_has_two_significant_figures_never_zero():
    figure = money(Decimal("0.0017"))
    assert figure.text == "$0.0017"
    assert figure.aria == "0.0017 US dollars"
    assert figure.exact == "0.0017"
    assert money(Decimal("0.00166")).text == "$0.0017"
    assert money(0.0072).text == "$0.0072"
    assert money(Decimal("0.000012345"), "EUR").text == "€0.000012"
    assert money(Decimal("0.0000012"), "CHF").text == "0.0000012 CHF"
    assert money(Decimal("-0.0017")).text == "−$0.0017"


def test_money_just_below_a_cent_that_rounds_to_one_shows_the_cent():
    assert money(Decimal("0.00996")).text == "$0.01"
    assert money(Decimal("0.00994")).text == "$0.0099"


def test_money_below_a_millionth_says_less_than_that_and_zero_is_zero():
    assert money(1e-9).text == "less than $0.000001"
    assert money(5e-324).aria == "less than 0.000001 US dollars"
    assert money(Decimal("0.00")).text == "$0"
    assert money(0).text == "$0"


@pytest.mark.parametrize(
    ("amount", "places"),
    [
        ("0", 2),
        ("0.5", 2),
        ("12.34", 2),
        ("0.01", 2),
        ("0.0099", 4),
        ("0.00166", 4),
        ("0.00996", 2),
        ("0.0000012", 7),
        ("-0.0017", 4),
    ],
)
def test_money_decimal_places_give_cents_or_two_significant_figures_below_a_cent(amount, places):
    assert money_decimal_places(Decimal(amount)) == places


def test_money_uses_symbols_for_dollars_euros_and_pounds_and_codes_otherwise():
    assert money(Decimal("598"), "EUR").text == "€598"
    assert money(Decimal("598"), "GBP").text == "£598"
    assert money(Decimal("598"), "GBP").aria == "598 British pounds"  # CLDR's name
    assert money(Decimal("1200"), "chf").text == "1,200 CHF"
    assert money(Decimal("53400000"), "CHF").text == "53.4 million CHF"
    assert money(Decimal("1"), "EUR").aria == "1 euro"


def test_negative_values_get_a_minus_sign_and_are_spoken_as_minus():
    assert hours(-3.5).text == "−3.5 accelerator-hours"
    assert hours(-3.5).aria == "minus 3.5 accelerator-hours"
    assert money(Decimal("-1200")).text == "−$1,200"
    assert money(Decimal("-1200")).aria == "minus 1,200 US dollars"
    assert money(Decimal("-1200")).exact == "-1200.00"


@pytest.mark.parametrize("name", EVERY_FORMATTER)
@pytest.mark.parametrize(
    "missing", [None, math.nan, math.inf, -math.inf, Decimal("NaN"), Decimal("Infinity"), "abc"]
)
def test_missing_or_non_finite_values_are_not_available(name, missing):
    figure = EVERY_FORMATTER[name](missing)
    assert figure.text == "not available"
    assert figure.aria == "not available"
    assert figure.exact == ""
    assert figure.value is None
    assert not figure.available


def test_a_missing_value_can_carry_its_explanation():
    figure = flop(None, missing="not computed: no accelerator chosen")
    assert figure.text == "not computed: no accelerator chosen"


def test_energy_switches_between_wh_kwh_mwh_and_gwh():
    assert energy_kwh(2 * 700 * 1.2 / 3600 / 1000).text == "0.467 Wh"
    assert energy_kwh(140).text == "140 kWh"
    assert energy_kwh(49_524.96).text == "49.5 MWh"
    assert energy_kwh(49_524.96).aria == "49.5 megawatt-hours"
    assert energy_kwh(3e7).text == "30 GWh"
    assert energy_kwh(0).text == "0 kWh"


def test_emissions_switch_to_tonnes_from_a_thousand_kilograms():
    assert emissions_kg(56).text == "56 kg CO2e"
    assert emissions_kg(19_809.98585).text == "19.8 t CO2e"
    assert emissions_kg(1000).aria == "1 tonne of CO2 equivalent"


def test_durations_switch_between_milliseconds_seconds_minutes_and_hours():
    assert seconds(0.35).text == "350 ms"
    assert seconds(2).text == "2 s"
    assert seconds(2).aria == "2 seconds"
    assert seconds(90).text == "1.5 min"
    assert seconds(59.99).text == "1 min"
    assert seconds(7200).text == "2 h"
    assert seconds(0).text == "0 s"


def test_months_keep_their_fraction():
    assert months(24.0).text == "24 months"
    assert months(1.2).text == "1.2 months"


def test_percent_is_whole_and_marks_the_ends_of_the_range():
    assert percent(2 / 3).text == "67%"
    assert percent(2 / 3).aria == "67 percent"
    assert percent(2 / 3).unit == "share"
    assert percent(0.004).text == "less than 1%"
    assert percent(0.9995).text == "more than 99%"
    assert percent(1.0).text == "100%"
    assert percent(0.0).text == "0%"


def test_counts_use_separators_below_a_million_and_words_above():
    assert count(15_000, "requests").text == "15,000 requests"
    assert count(1.2e6, "requests").text == "1.2 million requests"


def test_per_second_names_the_rate():
    figure = per_second(15_000 / (730.5 * 3600))
    assert figure.text == "0.0057 requests per second"
    assert figure.unit == "requests/s"


def test_numpy_floats_are_formatted_like_floats():
    assert hours(np.float64(200.0)).text == "200 accelerator-hours"
    assert hours(np.float64(200.0)).exact == "200.0"


def test_figure_prints_as_its_text():
    assert str(hours(200)) == "200 accelerator-hours"


@given(value=st.one_of(st.floats(), st.integers(min_value=-(10**30), max_value=10**30)))
def test_no_formatter_ever_shows_nan_inf_none_or_e_notation(value):
    for name, formatter in EVERY_FORMATTER.items():
        figure = formatter(value)
        for text in (figure.text, figure.aria):
            lowered = text.lower()
            assert "nan" not in lowered, (name, value, text)
            assert "inf" not in lowered, (name, value, text)
            assert "none" not in lowered, (name, value, text)
            assert "e+" not in lowered and "e-" not in lowered, (name, value, text)


def test_template_filters_return_the_figure_text():
    assert figures.flop(3.15e23) == "3.15 × 10²³ FLOP"
    assert figures.hours(200.0) == "200 accelerator-hours"
    assert figures.hours(57.6, "hours") == "57.6 hours"
    assert figures.money(Decimal("53400000")) == "$53.4 million"
    assert figures.money(Decimal("598"), "EUR") == "€598"
    assert figures.kwh(140) == "140 kWh"
    assert figures.co2e(56) == "56 kg CO2e"
    assert figures.seconds(2) == "2 s"
    assert figures.months(24) == "24 months"
    assert figures.percent(2 / 3) == "67%"
    assert figures.hours("") == "not available"


def test_figure_html_wraps_the_text_in_a_data_element_with_the_exact_value():
    assert figures.figure_html(hours(200.0)) == '<data value="200.0">200 accelerator-hours</data>'


def test_figure_html_gives_screen_readers_spoken_text_for_superscripts():
    html = figures.figure_html(flop(3.15e23))
    assert html == (
        '<data value="3.15e+23"><span aria-hidden="true">3.15 × 10²³ FLOP</span>'
        '<span class="visually-hidden">3.15 times 10 to the power 23 FLOP</span></data>'
    )


def test_figure_html_of_a_missing_figure_is_plain_escaped_text():
    assert figures.figure_html(flop(None, missing="<unknown>")) == "&lt;unknown&gt;"
    assert figures.figure_html("not a figure") == formatting.NOT_AVAILABLE


def test_figure_html_escapes_what_it_is_given():
    assert figures.figure_html(money(Decimal("5"), "<b>")) == (
        '<data value="5.00">5 &lt;B&gt;</data>'
    )


def test_figure_tag_formats_and_renders_by_kind():
    assert figures.figure("money", Decimal("598"), "EUR") == '<data value="598.00">€598</data>'
    assert figures.figure("hours", 57.6, "hours") == '<data value="57.6">57.6 hours</data>'


def test_templates_load_the_figures_library():
    rendered = Template(
        "{% load figures %}{{ hours|hours }} | {{ cost|money:'EUR' }} | {% figure 'flop' flop %}"
    ).render(Context({"hours": 200.0, "cost": Decimal("53400000"), "flop": 3.15e23}))
    assert rendered == (
        "200 accelerator-hours | €53.4 million | "
        '<data value="3.15e+23"><span aria-hidden="true">3.15 × 10²³ FLOP</span>'
        '<span class="visually-hidden">3.15 times 10 to the power 23 FLOP</span></data>'
    )
