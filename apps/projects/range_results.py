"""The input ranges of stored inputs (a version, a share link), in the words of the scenario
page."""

from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext

from apps.projects.range_inputs import RANGED
from apps.words.numbers import decimal_text


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
