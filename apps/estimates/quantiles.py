"""The 5th, 50th and 95th percentiles of a figure's samples, as np.quantile gives them, faster."""

import math

import numpy as np

PERCENTILES = (0.05, 0.5, 0.95)


def _linear_quantiles(values: np.ndarray) -> list[float]:
    """np.quantile(values, PERCENTILES), the same numbers, about ten times faster.

    NumPy partitions once around all six order statistics the three percentiles need (each
    one's floor and ceiling), which is far slower than three single partitions: one at the
    median's floor, then each half at the 5th's and 95th's. The ceiling next to each floor is
    the smallest value after it up to the next floor (or the end). The interpolation is NumPy's
    own (`_lerp`: from the nearer end), so the figures do not change. NaN sorts last, as there.
    """
    # Partitioned in a copy: callers go on comparing figures sample by sample (the cheapest
    # option, a budget drawn per sample), so their arrays must keep their order. The copy costs
    # well under a millisecond at 10^5 samples.
    work = np.array(values, dtype=np.float64, copy=True).ravel()
    last = len(work) - 1
    virtual = [last * p for p in PERCENTILES]
    floors = [min(math.floor(v), last) for v in virtual]
    low, middle, high = floors
    work.partition(middle)
    if low < middle:
        work[:middle].partition(low)
    if high > middle:
        work[middle + 1 :].partition(high - middle - 1)
    result = []
    for v, k in zip(virtual, floors, strict=True):
        a = float(work[k])
        end = next((floor for floor in floors if floor > k), None)  # the next partition point
        after = work[k + 1 : None if end is None else end + 1]
        b = float(after.min()) if len(after) else a
        t = v - k
        if np.isnan(a) or np.isnan(b):
            result.append(math.nan)
            continue
        difference = b - a
        result.append(b - difference * (1 - t) if t >= 0.5 else a + difference * t)
    return result


def _quantiles(values: np.ndarray, infinite: int = 0) -> list[float]:
    """PERCENTILES of the values, interpolated linearly (NumPy's default method), when the
    `infinite` largest of them stand for +inf: a percentile that reaches into them is +inf."""
    if values.strides == (0,):
        return [float(values[0])] * len(PERCENTILES)  # a figure no range moves
    result = _linear_quantiles(values)
    # Sorted, the infinite ones take the last places; a percentile between the last finite
    # value and the first infinite one is +inf too (as a + (inf − a) · t would be).
    first_infinite = len(values) - infinite
    for index, p in enumerate(PERCENTILES):
        if infinite and p * (len(values) - 1) > first_infinite - 1:
            result[index] = math.inf
    return result
