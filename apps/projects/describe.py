"""The comparison in words: "describe this without the diagram", paragraph by paragraph.

Worded through gettext in the active language; every number through `formatting` (Babel), so
it is written, and its unit inflected, as that language does. The paragraphs on each column
are in apps.projects.describe_columns, the summary and what follows it in
apps.projects.describe_summary, the bottom strip in apps.projects.cost_strip.
"""

from django.utils.translation import gettext as _

from apps.estimates.results import EstimateResult
from apps.projects.cost_strip import check_view, horizon_text
from apps.projects.describe_columns import inference_column, training_column
from apps.projects.describe_summary import (
    break_even,
    dominance,
    one_request_against_training,
    summary,
)


def describe(result: EstimateResult, *, currency: str = "USD", view: str = "many") -> list[str]:
    """The "describe this without the diagram" text of the worked example of the UN Learn AI
    glossary, as paragraphs of plain language in the active language.

    Every number comes from `result` through `formatting`, so it carries its unit; figures the
    engine could not compute are left out rather than shown as "not available". `view` "single"
    describes one request; "many" the months of the horizon, the break-even point and the shares.
    """
    check_view(view)
    training, inference, comparison = result.training, result.inference, result.comparison
    paragraphs = [_what_it_compares(result, view)]
    if training is not None:
        paragraphs.append(training_column(training, currency))
    if inference is not None:
        paragraphs.append(inference_column(inference, currency, view))
    paragraphs.append(summary(result, currency, view))
    if training is not None and inference is not None and view == "single":
        paragraphs.append(one_request_against_training(training, inference))
    if comparison is not None and inference is not None and view == "many":
        paragraphs.append(break_even(comparison, inference))
        paragraphs.append(dominance(comparison, inference))
    return [paragraph for paragraph in paragraphs if paragraph]


def _what_it_compares(result: EstimateResult, view: str) -> str:
    if result.inference is None:
        return _(
            "This diagram shows the compute used to train the model. The scenario has no "
            "inference, so there is no continuing cost of using the model to compare."
        )
    strip = (
        _("a single request")
        if view == "single"
        else _("many requests over %(horizon)s") % {"horizon": horizon_text(result.inference)}
    )
    if result.training is None:
        return _(
            "This diagram shows the compute used each time the model is used (inference). The "
            "scenario has no training, so there is no one-off cost of building the model to "
            "compare. The figures at the bottom are for %(strip)s."
        ) % {"strip": strip}
    return _(
        "This diagram compares two uses of compute: training, the one-off work of building the "
        "model, on the left, and inference, the repeated work of using it, on the right. Read "
        "each column from top to bottom, then compare the build cost, run cost and user speed "
        "at the bottom, shown for %(strip)s."
    ) % {"strip": strip}
