"""What the decision page shows of a comparison in words: crossovers with translated labels, the
condition that flips the cheapest (the engine's own sentence is English, for the API), how often
each option is the cheapest and the chart. Its table's rows come from what is kept of the
comparison (apps.options.kept.option_rows), as where the decision view is kept."""

from decimal import Decimal
from itertools import pairwise

from django.utils.translation import gettext, gettext_lazy, ngettext

from apps.estimates.kept import KeptOptions
from apps.estimates.options import Condition, OptionsComparison
from apps.options.forms import OPTION_LABELS
from apps.words import formatting
from apps.words.messages import message_text
from apps.words.numbers import decimal_text

SUBJECTS = {
    "external_api": gettext_lazy("the external API"),
    "rent_pay_per_use": gettext_lazy("renting accelerators per use"),
    "rent_always_on": gettext_lazy("renting always-on accelerators"),
    "rent_committed": gettext_lazy("committing to rented accelerators"),
    "own": gettext_lazy("owning the accelerators"),
    "fine_tune": gettext_lazy("fine-tuning an open model"),
    "build": gettext_lazy("pre-training a model"),
}


def crossover_rows(comparison: OptionsComparison) -> list[tuple[str, str, float | None]]:
    """(fixed-cost option's label, per-use option's label, requests a month) of each crossover."""
    return [
        (str(OPTION_LABELS[fixed]), str(OPTION_LABELS[per_use]), crossover.requests_per_month)
        for crossover in comparison.crossovers
        for fixed, per_use in [crossover.options]
    ]


def unavailable_rows(kept: KeptOptions) -> list[tuple[str, list[str]]]:
    """(label, messages) of each default option that could not be estimated."""
    return [
        (
            str(OPTION_LABELS[key]),
            [message_text(m) for messages in errors.values() for m in messages],
        )
        for key, errors in kept.unavailable.items()
    ]


def volume(requests: float) -> str:
    """A number of requests with its unit, rounded as the engine's own (English) sentence rounds
    it: "811,667 requests", "4.5 million requests", "1.2 billion requests"; in French
    "811 667 demandes", "4,5 millions de demandes", "1,2 milliard de demandes"."""
    if requests >= 1e9:
        number = Decimal(f"{requests / 1e9:.1f}")
        text = ngettext("%(number)s billion requests", "%(number)s billion requests", int(number))
    elif requests >= 1e6:
        number = Decimal(f"{requests / 1e6:.1f}")
        text = ngettext("%(number)s million requests", "%(number)s million requests", int(number))
    else:
        return formatting.count(round(requests), "requests").text
    return text % {"number": decimal_text(number, 1)}


def condition_text(comparison: OptionsComparison) -> str:
    """The condition that flips the cheapest option, in the reader's language."""
    return condition_sentence(comparison.condition)


def condition_sentence(condition: Condition) -> str:
    """A condition (the comparison's, or one kept in a record) in the reader's language."""
    subject = {key: str(SUBJECTS[key]) for key in condition.options}
    first = subject[condition.options[0]]
    first = first[:1].upper() + first[1:]
    pieces = {"option": first}
    if condition.kind in ("above", "below"):
        pieces |= {"cheapest": subject[condition.options[1]], "volume": volume(condition.value)}
    if condition.kind == "above":
        return (
            gettext("%(option)s beats %(cheapest)s above %(volume)s a month at these prices.")
            % pieces
        )
    if condition.kind == "below":
        return (
            gettext(
                "%(option)s would be cheaper than %(cheapest)s below %(volume)s a month at "
                "these prices."
            )
            % pieces
        )
    if condition.kind == "utilisation":
        return gettext("Owning beats renting above %(share)s utilisation.") % {
            "share": formatting.percent(condition.value).text
        }
    if condition.kind == "gap":
        return gettext(
            "%(option)s is next, %(gap)s more in net present value: it would be cheapest if "
            "%(cheapest)s cost that much more."
        ) % {
            "option": first,
            "gap": decimal_text(Decimal(str(condition.value)), 2),
            "cheapest": subject[condition.options[1]],
        }
    return gettext("The only option compared.")


def cheapest_share_sentences(kept: KeptOptions) -> list[str]:
    """With ranges: how often each option is the cheapest, in words, most often first."""
    if kept.ranges is None:
        return []
    shares = sorted(kept.ranges.cheapest_share.items(), key=lambda item: -item[1])
    sentences = []
    for key, share in shares:
        subject = str(SUBJECTS[key])
        text = gettext("%(option)s is cheapest in %(share)s of cases.")
        sentences.append(
            text
            % {
                "option": subject[:1].upper() + subject[1:],
                "share": formatting.percent(share).text,
            }
        )
    return sentences


def chart_description(chart, currency: str) -> list[str]:
    """The chart in words, from its figures (in `currency`, the project's): the cheapest at the
    smallest and largest volume drawn, and between which volumes the cheapest changes."""
    if not chart.rows:
        return []

    def cheapest(costs) -> str:
        return chart.keys[min(range(len(costs)), key=lambda i: costs[i])]

    def label(key: str) -> str:
        return str(OPTION_LABELS[key])

    def money(amount: float) -> str:
        return formatting.money(amount, currency).text

    sentences = []
    (low, low_costs), (high, high_costs) = chart.rows[0], chart.rows[-1]
    for volume_, costs in ((low, low_costs), (high, high_costs)):
        key = cheapest(costs)
        sentences.append(
            gettext("At %(volume)s a month the cheapest is “%(option)s”, at %(cost)s a month.")
            % {
                "volume": volume(volume_),
                "option": label(key),
                "cost": money(costs[chart.keys.index(key)]),
            }
        )
    for (before, before_costs), (after, after_costs) in pairwise(chart.rows):
        first, then = cheapest(before_costs), cheapest(after_costs)
        if first != then:
            sentences.append(
                gettext(
                    "Between %(low)s and %(high)s a month the cheapest changes from “%(first)s” "
                    "to “%(then)s”."
                )
                % {
                    "low": volume(before),
                    "high": volume(after),
                    "first": label(first),
                    "then": label(then),
                }
            )
    return sentences
