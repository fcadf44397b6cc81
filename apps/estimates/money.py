"""Money leaves the engine here: floats become Decimal, rounded half-up once: to the cent, or
below a cent to four significant figures where an estimate reports it."""

import math
from decimal import ROUND_HALF_UP, Context, Decimal

CENT = Decimal("0.01")
CENT_FLOAT = 0.01
SIGNIFICANT_BELOW_A_CENT = 4
# The largest float has 309 integer digits; the default 28-digit context could not quantise it.
_CONTEXT = Context(prec=400, rounding=ROUND_HALF_UP)


def _exact(amount: float | Decimal) -> Decimal:
    """A float as the Decimal of its shortest decimal form (repr), so that 2.675 rounds to 2.68
    as a reader of "2.675" expects, not to 2.67 as its binary value 2.67499999… would."""
    if isinstance(amount, Decimal):
        return amount
    value = float(amount)
    if not math.isfinite(value):
        raise ValueError(f"Cannot express {value} as money.")
    return Decimal(repr(value))


def _cents(amount: Decimal) -> Decimal:
    money = amount.quantize(CENT, context=_CONTEXT)
    # -0.00 would print with a minus sign; a zero amount has no sign.
    return money.copy_abs() if money.is_zero() else money


def to_money(amount: float | Decimal) -> Decimal:
    """Round an amount to the cent, half up; the only place where the engine rounds money.

    A float goes through its shortest decimal form (repr): see `_exact`.
    """
    return _cents(_exact(amount))


def to_money_figure(amount: float | Decimal) -> Decimal:
    """Money as an estimate reports it: to the cent (as `to_money`) from one cent up; below a
    cent, four significant figures, half up (0.00166389 gives 0.001664), so that a request's
    cost never reads 0.00. A ledger (the budget) rounds such an amount with `to_money`."""
    if type(amount) is float and CENT_FLOAT <= abs(amount) < math.inf:
        # The usual case, a finite float of a cent or more, straight to the cent: its shortest
        # form is at least 0.01 exactly when the float is (repr is monotonic and 0.01's is
        # "0.01"), so the figure is `to_money`'s, never zero, and nothing below applies.
        return Decimal(repr(amount)).quantize(CENT, context=_CONTEXT)
    amount = _exact(amount)  # once: an estimate rounds some fifty amounts
    money = _cents(amount)
    if amount.is_zero() or abs(amount) >= CENT:
        return money
    exponent = amount.adjusted() - (SIGNIFICANT_BELOW_A_CENT - 1)
    figure = amount.quantize(Decimal(1).scaleb(exponent), context=_CONTEXT)
    return money if abs(figure) >= CENT else figure  # 0.0099996 rounds up to a cent


def cost_of_one_request(cost: Decimal, cost_per_1000: Decimal) -> Decimal:
    """A request's cost below a cent too. `cost` keeps four significant figures there
    (`to_money_figure`); a record written before it did rounded it to the cent, and then the
    cost of 1,000 requests over 1,000 (1.66 gives 0.00166) gives three more decimals, which is
    no new rounding. `cost` itself from a cent on, or when both are zero."""
    if (
        cost_per_1000.is_zero()
        or abs(cost_per_1000) >= 1000 * CENT
        or (not cost.is_zero() and abs(cost) < CENT)
    ):
        return cost
    return cost_per_1000.scaleb(-3)
