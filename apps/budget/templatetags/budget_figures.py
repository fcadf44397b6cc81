"""Budget amounts for people: exact to the cent with the currency, as <data> for machines."""

from decimal import Decimal

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from apps.budget.fiscal_labels import fiscal_year_text
from apps.words.formatting import amount_text
from apps.words.numbers import percent_value_text

register = template.Library()


@register.filter
def amount(value: Decimal | None, currency: str = "USD") -> SafeString:
    """135000 → "$135,000.00" in <data value="135000.00">; a budget shows every cent."""
    if value is None:
        return format_html("{}", "—")
    return format_html('<data value="{}">{}</data>', f"{value:.2f}", amount_text(value, currency))


@register.filter
def rate(value: Decimal | float | None) -> str:
    """A rate kept as a fraction, as the percentage people typed: 0.035 → "3.5%"."""
    if value is None:
        return "—"
    return percent_value_text(Decimal(str(value)))


@register.filter
def fiscal_year(label: str) -> str:
    """`{{ year.label|fiscal_year }}`: "FY2026" as the page's language names it ("Exercice
    2026" in French); the label stays the key in URLs and data."""
    return fiscal_year_text(label)
