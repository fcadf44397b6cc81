"""A rule for one input number: its accepted range, and the plain-language message for a value
outside it; with the two kinds of rule many inputs share (a share of 1, a whole number).
Every input's rule is in apps.estimates.limits."""

from dataclasses import dataclass

import numpy as np

from apps.estimates.messages import Message, _, number


@dataclass(frozen=True)
class Rule:
    """The accepted range of one number, and the message shown when a value falls outside it.

    Upper bounds, and floors slightly above 0 for shares and divisors, are chosen so that no
    valid combination can overflow a float (1.8e308) or divide by zero; the worst case stays
    below about 1e300 (tests/unit/estimates/test_estimate_validation.py checks the extremes).
    """

    label: Message
    low: float
    high: float
    message: Message
    zero_allowed: bool = False  # 0 accepted below `low` (e.g. "no revenue")
    low_open: bool = False
    whole: bool = False

    def accepts(self, values: np.ndarray) -> bool:
        if values.size and not (self.zero_allowed or self.whole):
            # The smallest and the largest value decide, in two passes without a temporary
            # array (a NaN makes both NaN, which fails both comparisons, as it fails below).
            smallest, largest = values.min(), values.max()
            above = (smallest > self.low) if self.low_open else (smallest >= self.low)
            return bool(above and largest <= self.high)
        in_range = (values > self.low) if self.low_open else (values >= self.low)
        accepted = in_range & (values <= self.high)
        if self.zero_allowed:
            accepted |= values == 0
        if self.whole:
            accepted &= values == np.floor(values)
        # One np.all per rule keeps validation cheap on million-point sweeps.
        return bool(np.all(accepted))

    def accepts_number(self, value: float) -> bool:
        """`accepts` for one float, without the cost of an array (NaN and infinities fail)."""
        in_range = (value > self.low) if self.low_open else (value >= self.low)
        accepted = in_range and value <= self.high
        if self.zero_allowed:
            accepted = accepted or value == 0
        if self.whole:
            accepted = accepted and value.is_integer()
        return accepted


def share_rule(label: Message, typical_low: float, typical_high: float) -> Rule:
    return Rule(
        label,
        0.001,
        1.0,
        _(
            "%(label)s must be more than 0 (at least 0.001) and at most 1 (typical "
            "%(typical_low)s–%(typical_high)s).",
            label=label,
            typical_low=number(typical_low, "plain"),
            typical_high=number(typical_high, "plain"),
        ),
    )


def whole_rule(label: Message, low: int, high: int) -> Rule:
    return Rule(
        label,
        float(low),
        float(high),
        _(
            "%(label)s must be a whole number from %(low)s to %(high)s.",
            label=label,
            low=number(low, "whole"),
            high=number(high, "whole"),
        ),
        whole=True,
    )
