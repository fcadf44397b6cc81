"""Rented capacity bought on commitment: terms, upfront and monthly payments, on-demand excess
and the committed capacity left idle, for a float and a NumPy array alike.

A commitment (a reservation, a savings plan, a committed-use discount) buys `C` accelerators for
a term of 12 or 36 months at the on-demand price per accelerator-hour less a discount, paid for
every hour of the term whether used or not. `C` is what the peak needs (the accelerators the
always-on capacity would keep), unless given. Consecutive terms cover the horizon, so a 36-month
term bought for a 12-month service is paid for 36 months: the months after the horizon are
committed capacity left idle.

A share of each term (`upfront_share`: 0 none, 1 all) is paid at its start, the rest in equal
monthly payments over the term; the discount is the one for that payment option (providers give
a larger one for more upfront), so the total is the same arithmetic whatever the share.

In a month, the committed accelerators serve busy hours up to `C` × hours in the month × the
planned busy share (the headroom the peak is sized with); busy hours beyond that are paid on
demand at the full price. Bursts within a month are not modelled hour by hour: what exceeds is a
month's busy hours beyond what the committed capacity serves. Idle committed hours are the
committed hours less the busy hours they served, including the months after the horizon.
"""

from dataclasses import dataclass

import numpy as np

from apps.estimates import formulas as f
from apps.estimates.formulas import Quantity

MONTHS_PER_YEAR = 12.0


@dataclass(frozen=True)
class CommitmentFigures:
    """A commitment's figures over the terms that cover the horizon (money unrounded)."""

    committed_accelerators: Quantity
    term_months: Quantity  # 12 × years
    terms: Quantity  # consecutive terms that cover the horizon
    committed_months: Quantity  # terms × term months, at least the horizon
    discount: Quantity  # share off the on-demand price
    upfront_share: Quantity
    on_demand_price_per_accelerator_hour: Quantity
    price_per_accelerator_hour: Quantity  # committed: on demand × (1 − discount)
    monthly_charge: Quantity  # the commitment's cost of one month, upfront part included
    served_hours_a_month: Quantity  # busy hours the committed capacity serves in a month
    upfront_per_term: Quantity  # paid in the first month of each term
    monthly_payment: Quantity  # paid in every month of each term
    commitment_cost: Quantity  # every term, whole: paid whether used or not
    on_demand_accelerator_hours: Quantity  # busy hours beyond the committed capacity
    on_demand_cost: Quantity
    idle_accelerator_hours: Quantity  # committed hours not busy, months after the horizon too
    idle_cost: Quantity
    cost: Quantity  # commitment_cost + on_demand_cost


def term_months(commitment_years: Quantity) -> Quantity:
    """Months of one term = 12 · years."""
    return MONTHS_PER_YEAR * commitment_years


def terms_covering(months: Quantity, months_per_term: Quantity) -> Quantity:
    """Consecutive terms needed to cover the horizon = ceil(months / term months)."""
    return np.ceil(months / months_per_term)


def months_paid(months: Quantity, commitment_years: Quantity) -> Quantity:
    """Months the commitment is paid for: the whole terms that cover the horizon."""
    per_term = term_months(commitment_years)
    return terms_covering(months, per_term) * per_term


def committed_price(price_per_accelerator_hour: Quantity, discount: Quantity) -> Quantity:
    """Committed price per accelerator-hour = on-demand price · (1 − discount)."""
    return price_per_accelerator_hour * (1.0 - discount)


def excess_accelerator_hours(
    first_month_hours: Quantity,
    monthly_growth: Quantity,
    months: Quantity,
    capacity_hours: Quantity,
) -> Quantity:
    """Σ over months m = 1 … M of max(0, h · (1+g)^(m−1) − S): busy hours beyond S a month.

    h: busy accelerator-hours in the first month, g: growth a month, S: the hours the committed
    capacity serves a month. Demand is monotonic, so the months above S are the last ones when
    it grows (all but the first k0, k0 = floor(ln(S/h) / ln(1+g)) + 1) and the first ones when
    it shrinks (k1 = ceil(ln(S/h) / ln(1+g))); the sum over them is a geometric sum less S for
    each month. Equal to the month-by-month sum (a test checks it) at whole months.
    """
    h, g, m, s = (
        np.asarray(x, dtype=np.float64)
        for x in (first_month_hours, monthly_growth, months, capacity_hours)
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        log_q = np.log1p(g)
        ratio = np.log(s / h) / np.where(g == 0, 1.0, log_q)
        below = np.clip(np.floor(ratio) + 1.0, 0.0, m)  # growing: months at or below S
        above = np.clip(np.ceil(ratio), 0.0, m)  # shrinking: months above S
        growing = h * (f.growth_sum_factor(g, m) - f.growth_sum_factor(g, below)) - (m - below) * s
        shrinking = h * f.growth_sum_factor(g, above) - above * s
        steady = m * np.maximum(h - s, 0.0)
        excess = np.where(g > 0, growing, np.where(g < 0, shrinking, steady))
        # No demand: nothing exceeds (S/h is undefined); rounding never makes it negative.
        excess = np.where(h > 0, np.maximum(excess, 0.0), 0.0)
    return excess[()] if excess.ndim == 0 else excess


def commitment_figures(
    *,
    peak_accelerators: Quantity,
    committed_accelerators: Quantity | None,
    commitment_years: Quantity,
    upfront_share: Quantity,
    discount: Quantity,
    price_per_accelerator_hour: Quantity,
    first_month_busy_hours: Quantity,
    monthly_growth: Quantity,
    months: Quantity,
    busy_hours: Quantity,
    target_utilization: Quantity,
) -> CommitmentFigures:
    """The commitment's figures (see the module docstring). `busy_hours`: busy
    accelerator-hours over the horizon; `price_per_accelerator_hour`: the on-demand price."""
    accelerators = peak_accelerators if committed_accelerators is None else committed_accelerators
    per_term = term_months(commitment_years)
    terms = terms_covering(months, per_term)
    committed_months = months_paid(months, commitment_years)
    price = committed_price(price_per_accelerator_hour, discount)
    monthly_charge = f.cost(f.always_on_accelerator_hours(accelerators, 1.0), price)
    served_a_month = f.always_on_accelerator_hours(accelerators, 1.0) * target_utilization
    excess = excess_accelerator_hours(
        first_month_busy_hours, monthly_growth, months, served_a_month
    )
    commitment_cost = monthly_charge * committed_months
    on_demand_cost = f.cost(excess, price_per_accelerator_hour)
    idle = f.always_on_accelerator_hours(accelerators, committed_months) - (busy_hours - excess)
    return CommitmentFigures(
        committed_accelerators=accelerators,
        term_months=per_term,
        terms=terms,
        committed_months=committed_months,
        discount=discount,
        upfront_share=upfront_share,
        on_demand_price_per_accelerator_hour=price_per_accelerator_hour,
        price_per_accelerator_hour=price,
        monthly_charge=monthly_charge,
        served_hours_a_month=served_a_month,
        upfront_per_term=upfront_share * monthly_charge * per_term,
        monthly_payment=(1.0 - upfront_share) * monthly_charge,
        commitment_cost=commitment_cost,
        on_demand_accelerator_hours=excess,
        on_demand_cost=on_demand_cost,
        idle_accelerator_hours=idle,
        idle_cost=f.cost(idle, price),
        cost=commitment_cost + on_demand_cost,
    )
