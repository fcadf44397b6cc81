"""What the pages show of one estimate: the two-column comparison's context."""

from apps.projects.comparison import chart_data, chart_rows
from apps.projects.describe import bottom_strip, describe
from apps.projects.fan import fan_context
from apps.projects.range_inputs import range_lines, range_notes
from apps.words.currencies import rate_text


def comparison_context(
    result, *, notes: dict, view: str, currency: str = "USD", ranges=None, exchange=None
) -> dict:
    """Everything the two-column comparison partial needs, derived from one estimate result
    (and the percentiles of its ranges, when it has some), with the rate its prices were
    converted at (`exchange`) in words."""
    strip = bottom_strip(result, currency=currency, view=view)
    rows = chart_rows(result)
    return {
        # The currency the figures are in: the version's pinned one for a version kept, which
        # the project's may have changed from since.
        "money_currency": currency,
        "rate_sentence": None if exchange is None or exchange.is_identity else rate_text(exchange),
        "range_lines": range_lines(ranges, currency),
        "range_notes": range_notes(ranges),
        "fan": fan_context(ranges, currency),
        "result": result,
        "notes": notes,
        "view": view,
        "strip": strip,
        "description": describe(result, currency=currency, view=view, strip=strip),
        "chart": chart_data(result, currency, rows=rows),
        "chart_rows": rows,
    }
