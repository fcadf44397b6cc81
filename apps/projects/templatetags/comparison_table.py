"""`{% load comparison_table %}`: the comparison's month-by-month table rows."""

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from apps.projects.comparison import ChartRow
from apps.words.formatting import figure_words
from apps.words.templatetags.figures import figure_in

register = template.Library()


@register.simple_tag
def cumulative_rows(rows: list[ChartRow], currency: str) -> SafeString:
    """`{% cumulative_rows chart_rows money_currency %}`: one row a month, cumulative hours and
    cost of training and inference, drawn in one go (the live preview draws some hundred figures
    here at every keystroke; a template loop of figure tags takes several times longer, and
    format_html's escaping of the figures, already HTML, a tenth of the table's time; so does
    looking the words up again for each figure)."""
    words = figure_words()
    return mark_safe(
        "".join(
            f'<tr><th scope="row">{conditional_escape(row.month)}</th>'
            f"<td>{figure_in(words, 'hours', row.training_accelerator_hours, '')}</td>"
            f"<td>{figure_in(words, 'hours', row.inference_accelerator_hours, '')}</td>"
            f"<td>{figure_in(words, 'money', row.training_cost, currency)}</td>"
            f"<td>{figure_in(words, 'money', row.inference_cost, currency)}</td></tr>"
            for row in rows
        )
    )
