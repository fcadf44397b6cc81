"""Budget amounts for people: exact to the cent with the currency, as <data> for machines."""

from decimal import Decimal

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from apps.projects.formatting import MINUS, currency_symbol

register = template.Library()


@register.filter
def amount(value: Decimal | None, currency: str = "USD") -> SafeString:
    """135000 → "$135,000.00" in <data value="135000.00">; a budget shows every cent."""
    if value is None:
        return format_html("{}", "—")
    symbol = currency_symbol(currency)
    sign = MINUS if value < 0 else ""
    digits = f"{abs(value):,.2f}"
    text = f"{sign}{symbol}{digits}" if symbol else f"{sign}{digits} {currency}"
    return format_html('<data value="{}">{}</data>', f"{value:.2f}", text)


@register.filter
def rate(value: Decimal | float | None) -> str:
    """A rate kept as a fraction, as the percentage people typed: 0.035 → "3.5%"."""
    if value is None:
        return "—"
    percent = (Decimal(str(value)) * 100).normalize()
    return f"{percent:f}%"
