"""One figure of a scenario's estimate as the exports list it: section, figure, value, unit and
its path in the estimate response (apps.exports.figures builds them)."""

from dataclasses import dataclass
from decimal import Decimal

Value = Decimal | float | int | str | None


@dataclass(frozen=True)
class FigureRow:
    section: str
    figure: str
    value: Value
    unit: str
    field: str  # the figure's path in the estimate response, e.g. "training.cost"

    @property
    def money(self) -> bool:
        return isinstance(self.value, Decimal)
