"""Ranges as they were saved: the percentiles of a stored estimate response (a version, a share
link, an export), and the input ranges of stored inputs, in the words of the scenario page."""

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext

from apps.estimates.uncertainty import MONEY_FIGURES, FigureRange, UncertaintyResult
from apps.estimates.uncertainty_fan import FanMonth
from apps.projects.range_inputs import RANGED
from apps.words.numbers import decimal_text


def uncertainty_from_response(
    results: dict | None, is_money: Callable[[str], bool] = MONEY_FIGURES.__contains__
) -> UncertaintyResult | None:
    """The `uncertainty` of a stored estimate response (or budget record, whose figures are all
    money: `is_money` says which are) as the sampler's result (money as Decimal), so that a
    saved version reads as the live page does; None without ranges."""
    stored = (results or {}).get("uncertainty")
    if not stored:
        return None

    def value(path: str, raw):
        if raw is None:
            return None
        return Decimal(raw) if is_money(path) else float(raw)

    figures = {
        path: FigureRange(
            value(path, figure.get("p5")),
            value(path, figure.get("p50")),
            value(path, figure.get("p95")),
            value(path, figure.get("mean")),
            figure.get("probability_never"),
        )
        for path, figure in stored.get("figures", {}).items()
    }
    return UncertaintyResult(
        samples=stored["samples"],
        seed=stored["seed"],
        figures=figures,
        clipped=dict(stored.get("clipped") or {}),
        shared=tuple(tuple(paths) for paths in stored.get("shared") or ()),
        fan=_fan(stored.get("fan")),
    )


def _fan(stored: dict | None) -> tuple[FanMonth, ...]:
    """The fan's months as a version keeps them (apps.api.representation); none in versions
    saved before it was kept, or without a monthly cost."""
    if not stored:
        return ()
    columns = zip(stored["months"], stored["p5"], stored["p50"], stored["p95"], strict=True)
    return tuple(
        FanMonth(month, Decimal(p5), Decimal(p50), Decimal(p95)) for month, p5, p50, p95 in columns
    )


@dataclass(frozen=True)
class InputRange:
    label: str
    text: str  # "between 100 and 400"


def _number(value: float) -> str:
    return decimal_text(Decimal(f"{float(value):.4g}"))


def input_ranges(inputs: dict | None) -> list[InputRange]:
    """The 90 % ranges stored inputs carry, labelled as the form labels them, in its units."""
    specs = {f"{spec.section}.{spec.name}": spec for spec in RANGED}
    lines = []
    for path, interval in ((inputs or {}).get("ranges") or {}).items():
        spec = specs.get(path)
        scale = spec.scale if spec else 1.0
        low, high = interval["low"] * scale, interval["high"] * scale
        text = (
            gettext("fixed at %(value)s") % {"value": _number(low)}
            if low == high
            else gettext("between %(low)s and %(high)s")
            % {"low": _number(low), "high": _number(high)}
        )
        lines.append(InputRange(str(spec.label) if spec else path, text))
    return lines


def shared_ranges_context(inputs: dict | None) -> dict:
    """The input ranges and seed a shared page shows (templates/sharing/includes/input_ranges)."""
    ranges = input_ranges(inputs)
    seed = ((inputs or {}).get("uncertainty") or {}).get("seed") if ranges else None
    return {"input_ranges": ranges, "range_seed": seed}
