"""`{% load comparison_table %}`: the comparison's month-by-month table rows."""

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from apps.projects.comparison import ChartRow
from apps.words.templatetags.figures import figure

register = template.Library()

ROW = '<tr><th scope="row">{}</th><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>'


@register.simple_tag
def cumulative_rows(rows: list[ChartRow], currency: str) -> SafeString:
    """`{% cumulative_rows chart_rows money_currency %}`: one row a month, cumulative hours and
    cost of training and inference, drawn in one go (the live preview draws some hundred figures
    here at every keystroke; a template loop of figure tags takes several times longer)."""
    return format_html_join(
        "",
        ROW,
        (
            (
                row.month,
                figure("hours", row.training_accelerator_hours, ""),
                figure("hours", row.inference_accelerator_hours, ""),
                figure("money", row.training_cost, currency),
                figure("money", row.inference_cost, currency),
            )
            for row in rows
        ),
    )
