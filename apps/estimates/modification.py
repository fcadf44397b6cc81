"""The EU guidelines' one-third rule: when fine-tuning another's model makes you its provider.

The European Commission's guidelines for providers of general-purpose AI models (18 July 2025)
take a downstream modification (a fine-tune, among others) that uses more than a third of the
original model's training compute as the indicative criterion of a new model, whose modifier
becomes its provider. Where the original's training compute is not known, one third of the
guidelines' indicator of a general-purpose model (10^23 FLOP) stands in for it. The catalogue's
threshold rows quote the guidelines and say how sure each part is.

Formulas work on a float and a NumPy array alike.
"""

from dataclasses import dataclass, replace

from apps.estimates.formulas import Flag, Quantity
from apps.estimates.messages import Message, Number, _

# The guidelines' indicator of a general-purpose AI model (for one that generates language,
# images or video): training compute greater than 10^23 FLOP. The catalogue's threshold of the
# same figure carries the source; a test keeps the two equal.
GPAI_INDICATOR_FLOP = 1e23
MODIFICATION_SHARE = 1 / 3


@dataclass(frozen=True)
class BaseModel:
    """The model a training run modifies (fine-tunes), as the model catalogue gives it."""

    name: str
    training_flop: float | None = None  # its published training compute; None: not published


@dataclass(frozen=True)
class ModificationResult:
    """A fine-tune's compute against the one-third rule."""

    base_model: str
    base_model_flop: float | None  # None: not published, so the fallback applies
    share: float | None  # the fine-tune's FLOP over the original's; None where not published
    threshold_flop: float  # a third of the original's compute, or the fallback
    fallback: bool  # True: the original's compute is not published
    exceeded: bool  # strictly more than the threshold: the modifier becomes a provider
    summary: str = ""  # the outcome in plain words (a Message; see modification_summary)


def modification_threshold_flop(base_model_flop: Quantity | None) -> Quantity:
    """FLOP a modification must exceed: a third of the original model's training compute, or,
    where that is not published (None), a third of the 10^23 FLOP indicator (3.33e22)."""
    if base_model_flop is None:
        return GPAI_INDICATOR_FLOP * MODIFICATION_SHARE
    return base_model_flop * MODIFICATION_SHARE


def modification_share(flop: Quantity, base_model_flop: Quantity) -> Quantity:
    """The modification's training compute as a share of the original's (0.004 for 0.4 %)."""
    return flop / base_model_flop


def modification_exceeds(flop: Quantity, base_model_flop: Quantity | None) -> Flag:
    """True where the modification uses strictly more than the threshold above."""
    return flop > modification_threshold_flop(base_model_flop)


def modification_result(flop: float, base_model: BaseModel) -> ModificationResult:
    """One scenario's fine-tune (its training FLOP) against the one-third rule."""
    base_flop = base_model.training_flop
    result = ModificationResult(
        base_model=base_model.name,
        base_model_flop=base_flop,
        share=None if base_flop is None else float(modification_share(flop, base_flop)),
        threshold_flop=float(modification_threshold_flop(base_flop)),
        fallback=base_flop is None,
        exceeded=bool(modification_exceeds(flop, base_flop)),
    )
    return replace(result, summary=modification_summary(result, flop))


def _percent(share: float) -> Number:
    """A share as a percentage to two significant figures (0.4, 33, 120), for the words."""
    percent = share * 100
    if percent >= 10:
        return Number(round(percent), "whole")
    return Number(float(f"{percent:.2g}"), "plain")


def g4(value: float) -> Number:
    return Number(float(value), "g4")


# Below a tenth of the threshold (a thirtieth of the original's compute), the rule is far away.
FAR_BELOW = 0.1


def modification_summary(result: ModificationResult, flop: float) -> Message:
    """The one-third rule's outcome in plain words, for the page, the API and exports."""
    if result.fallback:
        if result.exceeded:
            return _(
                "%(model)s's training compute is not published, so the guidelines' fallback "
                "applies: a third of 10^23 FLOP (%(threshold)s FLOP). This fine-tune's "
                "%(flop)s FLOP is above it: under the EU guidelines you would likely become the "
                "provider of a new general-purpose AI model.",
                model=result.base_model,
                threshold=g4(result.threshold_flop),
                flop=g4(flop),
            )
        return _(
            "%(model)s's training compute is not published, so the guidelines' fallback "
            "applies: a third of 10^23 FLOP (%(threshold)s FLOP). This fine-tune's %(flop)s "
            "FLOP stays below it.",
            model=result.base_model,
            threshold=g4(result.threshold_flop),
            flop=g4(flop),
        )
    percent = _percent(result.share)
    if result.exceeded:
        return _(
            "This fine-tune uses %(percent)s %% of %(model)s's published training compute, more "
            "than one third: under the EU guidelines you would likely become the provider of a "
            "new general-purpose AI model.",
            percent=percent,
            model=result.base_model,
        )
    if flop < result.threshold_flop * FAR_BELOW:
        return _(
            "This fine-tune uses %(percent)s %% of %(model)s's published training compute; the "
            "one-third rule is far away.",
            percent=percent,
            model=result.base_model,
        )
    return _(
        "This fine-tune uses %(percent)s %% of %(model)s's published training compute: below "
        "one third, but near it (the line is at %(threshold)s FLOP).",
        percent=percent,
        model=result.base_model,
        threshold=g4(result.threshold_flop),
    )
