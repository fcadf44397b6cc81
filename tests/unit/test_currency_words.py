"""Money in the currency's own decimals and the reader's language (Babel), and prices of the
engine's inputs converted at one rate (apps.estimates.currency)."""

from datetime import date
from decimal import Decimal

import pytest
from django.utils import translation

from apps.estimates.currency import ExchangeRate, converted, converted_ranges, identity
from apps.estimates.inputs import EnergyProfile, EstimateInput, InferenceInput, Pricing
from apps.estimates.uncertainty_draws import Range
from apps.words.currencies import active_currencies, currency_choices, currency_places
from apps.words.formatting import amount_text, money

NNBSP, NBSP = "\u202f", "\u00a0"


@pytest.mark.parametrize(
    ("amount", "currency", "text"),
    [
        ("1234.56", "EUR", f"1{NNBSP}234,56{NBSP}€"),
        ("1234.56", "CHF", f"1{NNBSP}234,56{NBSP}CHF"),
        ("1234.56", "USD", f"1{NNBSP}234,56{NBSP}$US"),
        ("1234.56", "XOF", f"1{NNBSP}235{NBSP}F{NNBSP}CFA"),
        ("1234.56", "JPY", f"1{NNBSP}235{NBSP}JPY"),
    ],
)
def test_a_budget_amount_is_written_in_french_with_the_currencys_own_decimals(
    amount, currency, text
):
    with translation.override("fr"):
        assert amount_text(Decimal(amount), currency) == text


@pytest.mark.parametrize(
    ("amount", "currency", "english", "french"),
    [
        ("234.56", "EUR", "€234.56", f"234,56{NBSP}€"),
        ("234.56", "CHF", "234.56 CHF", f"234,56{NBSP}CHF"),
        ("234.56", "XOF", f"235 F{NNBSP}CFA", f"235{NBSP}F{NNBSP}CFA"),
        ("234.56", "JPY", "¥235", f"235{NBSP}JPY"),
        ("234.56", "USD", "$234.56", f"234,56{NBSP}$US"),
    ],
)
def test_a_figure_has_no_decimals_in_a_currency_without_minor_unit(
    amount, currency, english, french
):
    with translation.override("en"):
        assert money(Decimal(amount), currency).text == english
    with translation.override("fr"):
        assert money(Decimal(amount), currency).text == french


def test_an_amount_below_one_franc_keeps_two_significant_figures_rather_than_showing_zero():
    with translation.override("en"):
        assert money(Decimal("0.0042"), "XOF").text == f"0.0042 F{NNBSP}CFA"


def test_zero_decimal_currencies_are_the_ones_iso_4217_gives_no_minor_unit():
    assert [currency_places(code) for code in ("JPY", "XOF", "XAF", "KRW", "EUR", "CHF")] == [
        0, 0, 0, 0, 2, 2
    ]  # fmt: skip


def test_every_active_currency_is_offered_by_its_name_in_the_readers_language():
    assert {"USD", "EUR", "CHF", "XOF", "XAF", "KMF", "GBP", "INR", "JPY"} <= set(
        active_currencies()
    )
    assert "FRF" not in active_currencies()  # replaced by the euro
    with translation.override("fr"):
        labels = dict(currency_choices())
    assert labels["EUR"] == "euro (EUR)"
    assert labels["XOF"] == "franc CFA (BCEAO) (XOF)"


RATE = ExchangeRate("USD", "EUR", Decimal("0.9"), date(2025, 6, 2), date(2025, 6, 2), "ecb")


def test_every_price_of_the_inputs_is_multiplied_by_the_rate_and_nothing_else():
    inputs = EstimateInput(
        inference=InferenceInput(
            method="accelerator_seconds",
            accelerator_seconds_per_request=2.0,
            requests_per_month=1000.0,
            revenue_per_request=0.5,
            pricing=Pricing(price_per_accelerator_hour=Decimal("2.00"), purchase_price=30000.0),
            price_per_million_output_tokens=10.0,
        ),
        energy=EnergyProfile(pue=1.2, electricity_price_per_kwh=0.1),
    )
    euros = converted(inputs, RATE)
    assert euros.inference.pricing.price_per_accelerator_hour == Decimal("1.800")
    assert euros.inference.pricing.purchase_price == pytest.approx(27000.0)
    assert euros.inference.revenue_per_request == pytest.approx(0.45)
    assert euros.inference.price_per_million_output_tokens == pytest.approx(9.0)
    assert euros.energy.electricity_price_per_kwh == pytest.approx(0.09)
    assert euros.energy.pue == 1.2
    assert euros.inference.requests_per_month == 1000.0
    assert euros.inference.accelerator_seconds_per_request == 2.0
    assert converted(inputs, identity("USD")) is inputs


def test_a_price_range_is_converted_with_its_price_and_other_ranges_are_not():
    ranges = {
        "inference.pricing.price_per_accelerator_hour": Range(2.0, 4.0),
        "inference.utilization": Range(0.2, 0.4),
    }
    euros = converted_ranges(ranges, RATE)
    assert euros["inference.pricing.price_per_accelerator_hour"] == Range(
        pytest.approx(1.8), pytest.approx(3.6)
    )
    assert euros["inference.utilization"] == Range(0.2, 0.4)
