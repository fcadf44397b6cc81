"""What flips the cheapest option of the decision view (apps.estimates.options).

Crossovers, between each fixed-cost option (always-on, committed or owned capacity) and each
per-use option
(an external API, rented pay-per-use): the monthly requests at which they cost the same,
fixed monthly cost ÷ per-use cost per request. The fixed cost is the engine's for a month of the
capacity sized for this demand's peak (owned accelerators written off over their life, not
bought at once as in the budget): above that peak more accelerators would be needed. Owning
beats renting per use above the utilisation owned cost per provisioned hour ÷ rented price per
busy hour. Capacity rented on commitment beats the same accelerators rented per use above a
busy share of its committed hours, and kept always on when the service uses enough of each term
(`commitment_crossover`). The condition says, in English for the API, which of these would flip
the cheapest.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from apps.estimates import formulas as f
from apps.estimates.commitment import months_paid, term_months
from apps.estimates.inputs import EstimateInput
from apps.estimates.section_figures import optional

FIXED_COST = ("rent_always_on", "rent_committed", "own")
PER_USE = ("external_api", "rent_pay_per_use")
# How each option reads as the subject of a sentence ("Owning the accelerators beats …").
SUBJECTS = {
    "external_api": "the external API",
    "rent_pay_per_use": "renting accelerators per use",
    "rent_always_on": "renting always-on accelerators",
    "rent_committed": "committing to rented accelerators",
    "own": "owning the accelerators",
    "fine_tune": "fine-tuning an open model",
    "build": "pre-training a model",
}


@dataclass(frozen=True)
class Crossover:
    options: tuple[str, str]  # (fixed-cost option, per-use option)
    requests_per_month: float | None  # None: the per-use option costs nothing per request


@dataclass(frozen=True)
class Condition:
    """What would flip the cheapest option: `kind` "above" (option `options[0]` beats the
    cheapest `options[1]` above `value` requests a month), "below" (`options[0]` would be
    cheaper below `value`), "utilisation" (owning beats renting above `value`, a share),
    "gap" (`options[0]` is next, `value` more in NPV) or "only" (a single option)."""

    kind: str
    options: tuple[str, ...]
    value: float | None
    text: str


@dataclass(frozen=True)
class CommitmentCrossover:
    """Where capacity rented on commitment beats the same accelerators at the on-demand price.

    Per use: committed cost C · h · N · p · (1 − d) against busy hours B · p, so the commitment
    wins when the busy share of the committed hours over the service, B / (C · h · M), is above
    (1 − d) · N / M (N months paid, M served; above 1 it never wins). Always on: C · h · M · p
    against the same commitment, so it wins when the service runs more than (1 − d) · N months;
    for one term, (1 − d) · its months.
    """

    discount: float
    term_months: int
    busy_share_over_pay_per_use: float
    service_months_over_always_on: float  # of one term


def commitment_crossover(committed: EstimateInput) -> CommitmentCrossover:
    """The commitment's crossovers (see `CommitmentCrossover`) for its inputs."""
    inference = committed.inference
    discount = float(inference.commitment_discount)
    months = float(inference.months)
    per_term = float(term_months(float(inference.commitment_years)))
    paid = float(months_paid(months, float(inference.commitment_years)))
    return CommitmentCrossover(
        discount=discount,
        term_months=int(per_term),
        busy_share_over_pay_per_use=(1 - discount) * paid / months,
        service_months_over_always_on=(1 - discount) * per_term,
    )


def crossover_requests_per_month(monthly_fixed_cost: float, per_use_cost: float) -> float | None:
    """Monthly requests at which capacity kept on costs as much as paying per request:
    fixed monthly cost ÷ per-use cost per request (None when a request costs nothing)."""
    if per_use_cost <= 0:
        return None
    return monthly_fixed_cost / per_use_cost


def owning_beats_renting_utilisation(owned: EstimateInput, rented: EstimateInput) -> float:
    """The busy share above which owned accelerators cost less than renting per busy hour:
    owned cost per provisioned hour (purchase written off over every hour of its life, with
    electricity) ÷ rented price per accelerator-hour. Above 1, owning never wins."""
    pricing, hardware, energy = owned.inference.pricing, owned.inference.hardware, owned.energy
    power = None if hardware is None else optional(hardware.power_watts)
    owned_per_hour = f.owned_cost_per_accelerator_hour(
        float(pricing.purchase_price),
        float(pricing.lifetime_years),
        1.0,
        power,
        float(energy.pue),
        optional(energy.electricity_price_per_kwh),
    )
    return float(owned_per_hour) / float(rented.inference.pricing.price_per_accelerator_hour)


def _volume(requests: float) -> str:
    if requests >= 1e9:
        return f"{requests / 1e9:,.1f} billion"
    if requests >= 1e6:
        return f"{requests / 1e6:,.1f} million"
    return f"{requests:,.0f}"


def flipping_condition(
    npvs: dict[str, Decimal],
    cheapest: str,
    crossovers: Sequence[Crossover],
    utilisation: float | None,
) -> Condition:
    """What would flip the `cheapest` of the options whose NPV `npvs` gives by key: where a
    crossover lets another option beat it, the utilisation at which owning beats renting, else
    the runner-up's gap in NPV."""

    def subject(key: str) -> str:
        return SUBJECTS[key]

    if cheapest in PER_USE:
        flips = [c for c in crossovers if c.options[1] == cheapest and c.requests_per_month]
        if flips:
            best = min(flips, key=lambda c: c.requests_per_month)
            other = best.options[0]
            return Condition(
                "above",
                (other, cheapest),
                best.requests_per_month,
                f"{subject(other).capitalize()} beats {subject(cheapest)} above "
                f"{_volume(best.requests_per_month)} requests a month at these prices.",
            )
    if cheapest in FIXED_COST:
        if cheapest == "own" and utilisation is not None and utilisation <= 1:
            return Condition(
                "utilisation",
                ("own", "rent_pay_per_use"),
                utilisation,
                f"Owning beats renting above {utilisation:.0%} utilisation.",
            )
        flips = [c for c in crossovers if c.options[0] == cheapest and c.requests_per_month]
        if flips:
            best = max(flips, key=lambda c: c.requests_per_month)
            other = best.options[1]
            return Condition(
                "below",
                (other, cheapest),
                best.requests_per_month,
                f"{subject(other).capitalize()} would be cheaper than {subject(cheapest)} "
                f"below {_volume(best.requests_per_month)} requests a month at these prices.",
            )
    others = sorted((key for key in npvs if key != cheapest), key=lambda key: npvs[key])
    if not others:
        return Condition("only", (cheapest,), None, "The only option compared.")
    runner_up = others[0]
    gap = npvs[runner_up] - npvs[cheapest]
    return Condition(
        "gap",
        (runner_up, cheapest),
        float(gap),
        f"{subject(runner_up).capitalize()} is next, {gap:,.2f} more in net present value: "
        f"it would be cheapest if {subject(cheapest)} cost that much more.",
    )
