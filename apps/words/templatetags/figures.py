"""Template filters that show figures with their units: `{% load figures %}`, `{{ x|hours }}`."""

import functools
from collections.abc import Callable
from decimal import Decimal

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from apps.words import formatting, units
from apps.words.formatting import Figure
from apps.words.numbers import decimal_text, exact_text

register = template.Library()


def _unit_filter(
    write: Callable[[formatting.Number], Figure],
) -> Callable[[formatting.Number], str]:
    def text(value: formatting.Number) -> str:
        return write(value).text

    return text


flop = register.filter("flop", _unit_filter(formatting.flop))
kwh = register.filter("kwh", _unit_filter(formatting.energy_kwh))
co2e = register.filter("co2e", _unit_filter(formatting.emissions_kg))
water = register.filter("water", _unit_filter(formatting.water_litres))
seconds = register.filter("seconds", _unit_filter(formatting.seconds))
months = register.filter("months", _unit_filter(formatting.months))
percent = register.filter("percent", _unit_filter(formatting.percent))


@register.filter
def hours(value: formatting.Number, unit: str = "accelerator-hours") -> str:
    """`{{ x|hours }}` for accelerator-hours, `{{ x|hours:"hours" }}` for wall-clock hours."""
    return formatting.hours(value, unit).text


@register.filter
def money(value: formatting.Number, currency: str = "USD") -> str:
    """`{{ cost|money:project.currency }}`."""
    return formatting.money(value, currency or "USD").text


@register.filter
def number(value: float | int | Decimal | None, places: int | str | None = None) -> str:
    """A number without a unit, as the page's language writes it (Babel): `{{ x|number }}` with
    all its digits, `{{ x|number:2 }}` with exactly two decimals, `{{ x|number:"-2" }}` with at
    most two (none for a whole number). None is a dash."""
    if value is None:
        return "—"
    amount = Decimal(str(value))
    places = None if places is None else int(places)
    if places is not None and places >= 0:
        return decimal_text(amount, places)
    if places is not None:
        amount = round(amount, -places)
    return decimal_text(
        amount.quantize(1) if amount == amount.to_integral() else amount.normalize()
    )


@register.filter
def figure_html(figure: Figure) -> SafeString:
    """A Figure as `<data value="exact">text</data>`, with spoken text where the text needs it.

    Superscripts and "×" are read badly by screen readers, so such a figure is shown to the
    eye (aria-hidden) and read from a visually hidden span with `Figure.aria`. A figure that is
    not available has no exact value, so it is plain text.
    """
    if not isinstance(figure, Figure):
        return format_html("{}", formatting.NOT_AVAILABLE)
    try:
        return _figure_html(figure)
    except TypeError:  # a value that cannot be hashed: drawn each time
        return _figure_html.__wrapped__(figure)


@functools.lru_cache(maxsize=8192)
def _figure_html(figure: Figure) -> SafeString:
    """figure_html of a Figure, remembered (Figures are frozen; the formatting functions hand the
    same ones out again, apps.words.formatting.remembered)."""
    text = conditional_escape(figure.text)
    if not figure.available:
        return mark_safe(text)
    exact = conditional_escape(figure.exact)
    if not figure.needs_spoken_text:
        return mark_safe(f'<data value="{exact}">{text}</data>')
    return mark_safe(
        f'<data value="{exact}"><span aria-hidden="true">{text}</span>'
        f'<span class="visually-hidden">{conditional_escape(figure.aria)}</span></data>'
    )


_KINDS: dict[str, Callable[..., Figure]] = {
    "flop": formatting.flop,
    "hours": formatting.hours,
    "money": formatting.money,
    "kwh": formatting.energy_kwh,
    "co2e": formatting.emissions_kg,
    "embodied": formatting.embodied_kg,
    "water": formatting.water_litres,
    "seconds": formatting.seconds,
    "months": formatting.months,
    "percent": formatting.percent,
    "count": formatting.count,
    "per_second": formatting.per_second,
}


# Figures as HTML (and exact values as text) by tag, kind, value (its type and digits, as
# apps.words.formatting remembers them), arguments and words: a page draws the same figures again
# at every request, and the live preview at every keystroke, each through a formatting function
# and figure_html.
_DRAWN: dict[tuple, str] = {}
_DRAWN_KEPT = 8192
_DRAWN_TYPES = (float, int, Decimal, type(None))


def _drawn(
    draw: Callable[..., str],
    kind: str,
    value: float | Decimal | None,
    args: tuple,
    words: tuple | None = None,
) -> str:
    """draw(kind, value, *args, words=…) remembered in _DRAWN, the words looked up once (or
    given: formatting.figure_words(), by a caller that draws many figures)."""
    if type(value) not in _DRAWN_TYPES:
        return draw(kind, value, *args)
    if words is None:
        words = formatting.figure_words()
    key = (draw, kind, type(value), str(value), args, words)
    try:
        text = _DRAWN.get(key)
    except TypeError:  # an argument that cannot be hashed: drawn each time
        return draw(kind, value, *args, words=words)
    if text is None:
        if len(_DRAWN) >= _DRAWN_KEPT:
            _DRAWN.clear()
        text = _DRAWN[key] = draw(kind, value, *args, words=words)
    return text


@register.simple_tag
def figure(kind: str, value: float | Decimal | None, *args: str) -> SafeString:
    """`{% figure "flop" result.training.flop %}`, `{% figure "money" cost "EUR" %}` as HTML.

    `args` go to the formatting function after the value: a unit or a currency.
    """
    return _drawn(_figure_drawn, kind, value, args)


def figure_in(words: tuple, kind: str, value: float | Decimal | None, *args: str) -> SafeString:
    """The figure tag's HTML for a caller that draws many figures in the same words, looked up
    once (formatting.figure_words()): a table of them."""
    return _drawn(_figure_drawn, kind, value, args, words)


def _figure_drawn(
    kind: str, value: float | Decimal | None, *args: str, words: tuple | None = None
) -> SafeString:
    return figure_html(_formatted(kind, value, *args, words=words))


@register.simple_tag
def exact(kind: str, value: float | Decimal | None, *args: str) -> str:
    """`{% exact "hours" hours %}` → "58,958.4855 accelerator-hours": the unrounded figure with
    all its digits, written as the page's language writes numbers ("58 958,4855 heures-…")."""
    return _drawn(_exact_drawn, kind, value, args)


def _exact_drawn(
    kind: str, value: float | Decimal | None, *args: str, words: tuple | None = None
) -> str:
    figure = _formatted(kind, value, *args, words=words)
    if not figure.available:
        return figure.text
    digits = exact_text(figure.exact)
    if units.known(figure.unit):
        count = 1 if figure.exact == "1" else 2
        return units.with_unit(figure.unit, digits, count)
    return f"{digits} {figure.unit}"


def _formatted(
    kind: str, value: float | Decimal | None, *args: str, words: tuple | None = None
) -> Figure:
    """The kind's figure of `value`, in `words` (formatting.figure_words()) when the caller has
    them already."""
    if kind not in _KINDS:
        raise template.TemplateSyntaxError(
            f"figure: unknown kind {kind!r}; use one of {', '.join(_KINDS)}."
        )
    if words is None:
        return _KINDS[kind](value, *args)
    return _KINDS[kind].in_words(words, value, *args)
