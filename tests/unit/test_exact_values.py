"""The formulas panel's exact values: every digit kept, written as the page's language writes
numbers (the machine value stays in Figure.exact and <data value>)."""

from django.template import Context, Template
from django.utils import translation

from apps.words.numbers import exact_text

NNBSP = "\u202f"


def test_exact_values_keep_every_digit_in_each_language():
    machine = ["14814810.0", "0.5785123966942148", "8.4e+20", "1E+3", "1.5e-05", "-5.5"]
    with translation.override("en"):
        assert [exact_text(v) for v in machine] == [
            "14,814,810", "0.5785123966942148", "8.4 × 10²⁰", "1,000", "0.000015", "-5.5",
        ]  # fmt: skip
    with translation.override("fr"):
        assert [exact_text(v) for v in machine] == [
            f"14{NNBSP}814{NNBSP}810", "0,5785123966942148", "8,4 × 10²⁰", f"1{NNBSP}000",
            "0,000015", "-5,5",
        ]  # fmt: skip


def test_the_exact_tag_writes_french_with_its_unit():
    template = Template(
        '{% load figures %}{% exact "hours" hours %} · {% exact "money" cost "USD" %}'
    )
    with translation.override("fr"):
        text = template.render(Context({"hours": 2380.7086776859505, "cost": 1785.53}))
    assert text == f"2{NNBSP}380,7086776859505 heures-accélérateur · 1{NNBSP}785,53 USD"
