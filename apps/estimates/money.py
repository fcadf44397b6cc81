"""Money leaves the engine here: floats become Decimal, rounded half-up to the cent, once."""

import math
from decimal import ROUND_HALF_UP, Context, Decimal

CENT = Decimal("0.01")
# The largest float has 309 integer digits; the default 28-digit context could not quantise it.
_CONTEXT = Context(prec=400, rounding=ROUND_HALF_UP)


def to_money(amount: float | Decimal) -> Decimal:
    """Round an amount to the cent, half up; the only place where the engine rounds money.

    A float goes through its shortest decimal form (repr), so 2.675 rounds to 2.68 as a reader
    of "2.675" expects, not to 2.67 as its binary value 2.67499999… would.
    """
    if not isinstance(amount, Decimal):
        value = float(amount)
        if not math.isfinite(value):
            raise ValueError(f"Cannot express {value} as money.")
        amount = Decimal(repr(value))
    money = amount.quantize(CENT, context=_CONTEXT)
    # -0.00 would print with a minus sign; a zero amount has no sign.
    return money.copy_abs() if money.is_zero() else money


def cost_of_one_request(cost: Decimal, cost_per_1000: Decimal) -> Decimal:
    """A request's cost with the digits its cent-rounded `cost` hides below a cent: there the
    cost of 1,000 requests over 1,000 (1.66 gives 0.00166), which keeps three more decimals and
    so is no new rounding; `cost` itself from a cent on, or when both are zero."""
    if cost_per_1000.is_zero() or abs(cost_per_1000) >= 1000 * CENT:
        return cost
    return cost_per_1000.scaleb(-3)
