"""The EU guidelines' one-third rule: when fine-tuning another's model makes you its provider.

The European Commission's guidelines on the scope of the obligations for general-purpose AI
models (Annex to C(2025) 5045 final, Brussels, 18 July 2025), section 3.2 "Downstream modifiers
as providers of general-purpose AI models", paragraphs 63 and 64 as numbered in the copy read
(GUIDELINES_RULE_QUOTE and GUIDELINES_FALLBACK_QUOTE below, word for word; the PDF's
superscripts written out as 10^25 and 10^23): a modification that uses more than a third of the
original model's training compute is the indicative criterion of a new model, whose modifier
becomes its provider; where the modifier cannot know or estimate the original's compute, the
line is a third of 10^25 FLOP for an original that is a general-purpose AI model with systemic
risk and a third of 10^23 FLOP for any other. The catalogue's threshold row quotes the same text.

Formulas work on a float and a NumPy array alike.
"""

from dataclasses import dataclass, replace

from apps.estimates.formulas import Flag, Quantity
from apps.estimates.messages import Message, Number, _

# The guidelines' indicator of a general-purpose AI model (for one that generates language,
# images or video): training compute greater than 10^23 FLOP. The catalogue's threshold of the
# same figure carries the source; a test keeps the two equal.
GPAI_INDICATOR_FLOP = 1e23
# The AI Act's presumption of high-impact capabilities (Art. 51(2)): more than 10^25 FLOP.
SYSTEMIC_RISK_FLOP = 1e25
MODIFICATION_SHARE = 1 / 3

GUIDELINES_SOURCE = (
    "European Commission, Guidelines on the scope of the obligations for general-purpose AI "
    "models established by Regulation (EU) 2024/1689 (AI Act), Annex to C(2025) 5045 final, "
    "Brussels, 18 July 2025, section 3.2, paragraphs 63 and 64"
)
GUIDELINES_RULE_QUOTE = (
    "Based on the considerations above, an indicative criterion for when a downstream modifier "
    "is considered to be the provider of a general-purpose AI model is that the training "
    "compute used for the modification is greater than a third of the training compute of the "
    "original model (see paragraph 115 for how ‘training compute’ should be understood in these "
    "guidelines)."
)
GUIDELINES_FALLBACK_QUOTE = (
    "However, if the downstream modifier cannot be expected to know this value (for example "
    "because it has not been communicated by the provider of the original model) and cannot "
    "estimate it (see the Annexes A.1 and A.2 to these guidelines for how to estimate training "
    "compute) then the threshold should be replaced as follows. If the original model is a "
    "general-purpose AI model with systemic risk, the threshold should be replaced with a third "
    "of the threshold for a model being presumed to have high-impact capabilities (i.e. "
    "currently 10^25 FLOP, see Article 51(2) AI Act). Otherwise, it should be replaced with a "
    "third of the threshold for a model being presumed to be a general-purpose AI model (i.e. "
    "currently 10^23 FLOP, see Section 2.1)."
)


@dataclass(frozen=True)
class BaseModel:
    """The model a training run modifies (fine-tunes), as the model catalogue gives it."""

    name: str
    training_flop: float | None = None  # its published training compute; None: not published
    # A general-purpose AI model with systemic risk (designated, or notified as above 10^25
    # FLOP): its fallback line is a third of 10^25 FLOP. The model catalogue records no such
    # designation, so a catalogue model's is False: the guidelines' "otherwise".
    systemic_risk: bool = False


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
    systemic_risk: bool = False  # the fallback for an original with systemic risk (10^25 / 3)


def modification_threshold_flop(
    base_model_flop: Quantity | None, systemic_risk: bool = False
) -> Quantity:
    """FLOP a modification must exceed: a third of the original model's training compute, or,
    where that is not published (None), the guidelines' fallback: a third of 10^25 FLOP
    (3.33e24) for an original with systemic risk, else a third of 10^23 FLOP (3.33e22)."""
    if base_model_flop is None:
        line = SYSTEMIC_RISK_FLOP if systemic_risk else GPAI_INDICATOR_FLOP
        return line * MODIFICATION_SHARE
    return base_model_flop * MODIFICATION_SHARE


def modification_share(flop: Quantity, base_model_flop: Quantity) -> Quantity:
    """The modification's training compute as a share of the original's (0.004 for 0.4 %)."""
    return flop / base_model_flop


def modification_exceeds(
    flop: Quantity, base_model_flop: Quantity | None, systemic_risk: bool = False
) -> Flag:
    """True where the modification uses strictly more than the threshold above."""
    return flop > modification_threshold_flop(base_model_flop, systemic_risk)


def modification_result(flop: float, base_model: BaseModel) -> ModificationResult:
    """One scenario's fine-tune (its training FLOP) against the one-third rule."""
    base_flop = base_model.training_flop
    systemic_risk = base_flop is None and base_model.systemic_risk
    result = ModificationResult(
        base_model=base_model.name,
        base_model_flop=base_flop,
        share=None if base_flop is None else float(modification_share(flop, base_flop)),
        threshold_flop=float(modification_threshold_flop(base_flop, systemic_risk)),
        fallback=base_flop is None,
        exceeded=bool(modification_exceeds(flop, base_flop, systemic_risk)),
        systemic_risk=systemic_risk,
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
    fallback = dict(model=result.base_model, threshold=g4(result.threshold_flop), flop=g4(flop))
    if result.systemic_risk:
        if result.exceeded:
            return _(
                "%(model)s's training compute is not published and it is a general-purpose AI "
                "model with systemic risk, so the guidelines' fallback applies: a third of "
                "10^25 FLOP (%(threshold)s FLOP). This fine-tune's %(flop)s FLOP is above it: "
                "under the EU guidelines you would likely become the provider of a new "
                "general-purpose AI model with systemic risk.",
                **fallback,
            )
        return _(
            "%(model)s's training compute is not published and it is a general-purpose AI "
            "model with systemic risk, so the guidelines' fallback applies: a third of 10^25 "
            "FLOP (%(threshold)s FLOP). This fine-tune's %(flop)s FLOP stays below it.",
            **fallback,
        )
    if result.fallback:
        if result.exceeded:
            return _(
                "%(model)s's training compute is not published, so the guidelines' fallback "
                "applies: a third of 10^23 FLOP (%(threshold)s FLOP). This fine-tune's "
                "%(flop)s FLOP is above it: under the EU guidelines you would likely become the "
                "provider of a new general-purpose AI model.",
                **fallback,
            )
        return _(
            "%(model)s's training compute is not published, so the guidelines' fallback "
            "applies: a third of 10^23 FLOP (%(threshold)s FLOP). This fine-tune's %(flop)s "
            "FLOP stays below it.",
            **fallback,
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
