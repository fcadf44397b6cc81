"""The calibration table: published results beside what the planner computes for them at its
defaults, the ratio, and whether it holds.

The cases are sourced data (apps/catalogue/data/calibration.json): each is an estimate request
as the pages and the API send it, with the published figure, the benchmark's conditions, its
source, evidence and date. `calibrate` runs every request through `estimate_from_request`, the
one path from catalogue rows to the engine, so the table shows what a user would be shown.

What a case compares (the bounds are issue 20's):
- throughput: output tokens per second per accelerator. Published: the system's tokens/s
  divided by its accelerators. Planner: one replica's output tokens/s divided by the
  accelerators of that replica, the one the planner chooses for a billion requests a month
  (a fleet of many copies, as a benchmark keeps its system saturated). Holds within 2× either
  way.
- FLOP: the training compute. Holds within 1 %.
- accelerator-hours: the training run's accelerator-hours at the default MFU. Holds within 2×.
"""

import json
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path

from django.utils.translation import gettext_lazy as _

from apps.catalogue.resolve import estimate_from_request
from apps.catalogue.snapshot import Catalogue
from apps.catalogue.sourced import Evidence
from apps.estimates import EstimateInputError, EstimateResult

CALIBRATION_FILE = Path(__file__).resolve().parent / "data" / "calibration.json"

THROUGHPUT, FLOP, ACCELERATOR_HOURS = "throughput", "flop", "accelerator_hours"
# The ratio planner ÷ published that holds, inclusive, for each kind of case.
BOUNDS: dict[str, tuple[float, float]] = {
    THROUGHPUT: (0.5, 2.0),
    FLOP: (0.99, 1.01),
    ACCELERATOR_HOURS: (0.5, 2.0),
}

SCENARIOS = {
    "offline": _("Offline: every request at once, no latency bound"),
    "server": _("Server: requests arrive at random, with latency bounds"),
    "training": _("Training run"),
}


@dataclass(frozen=True)
class CalibrationCase:
    """One published result and the request that asks the planner for the same figure."""

    slug: str
    kind: str  # THROUGHPUT, FLOP or ACCELERATOR_HOURS
    model_name: str
    benchmark: str | None  # the MLPerf round; None for a training run
    system: str
    accelerator_count: int | None  # None where the source does not say
    scenario: str  # "offline", "server" or "training"
    precision: str
    published: float  # tokens/s of the whole system, FLOP, or accelerator-hours
    request: dict
    evidence: str
    source: str  # URL
    as_of: date
    notes: str
    input_tokens: float | None = None
    input_tokens_published: bool = True
    output_tokens: float | None = None
    output_tokens_published: bool = True
    ttft_target_seconds: float | None = None
    tpot_target_seconds: float | None = None
    parameters: float | None = None
    tokens: float | None = None

    @property
    def published_figure(self) -> float:
        """What the planner's figure is compared with: per accelerator for throughput."""
        if self.kind == THROUGHPUT:
            return self.published / self.accelerator_count
        return self.published

    @property
    def bounds(self) -> tuple[float, float]:
        return BOUNDS[self.kind]

    @property
    def scenario_label(self) -> str:
        return SCENARIOS[self.scenario]

    @property
    def evidence_label(self) -> str:
        return Evidence(self.evidence).label


@dataclass(frozen=True)
class CalibrationRow:
    """A case and what the planner gives for it; `errors` where the request is refused (the
    engine's Messages or translated text, as the API would answer them)."""

    case: CalibrationCase
    computed: float | None
    errors: tuple[object, ...] = ()
    accelerators_per_replica: int | None = None  # throughput cases: the replica compared

    @property
    def ratio(self) -> float | None:
        """Planner ÷ published: below 1 the planner reads low (more accelerators, more cost)."""
        return None if self.computed is None else self.computed / self.case.published_figure

    @property
    def holds(self) -> bool:
        low, high = self.case.bounds
        return self.ratio is not None and low <= self.ratio <= high


@cache
def calibration_cases() -> tuple[CalibrationCase, ...]:
    """The cases of calibration.json, in its order."""
    rows = json.loads(CALIBRATION_FILE.read_text(encoding="utf-8"))["cases"]
    return tuple(
        CalibrationCase(**{**row, "as_of": date.fromisoformat(row["as_of"])}) for row in rows
    )


def _computed(case: CalibrationCase, result: EstimateResult) -> tuple[float | None, int | None]:
    if case.kind == FLOP:
        return result.training.flop, None
    if case.kind == ACCELERATOR_HOURS:
        return result.training.accelerator_hours, None
    serving = result.inference.serving
    if serving is None or not serving.fits:
        return None, None
    replica = serving.accelerators_per_replica
    return serving.output_tokens_per_second / replica, replica


def calibrate_case(case: CalibrationCase, catalogue: Catalogue) -> CalibrationRow:
    try:
        result, _ = estimate_from_request(case.request, catalogue)
    except EstimateInputError as error:
        messages = tuple(m for messages in error.errors.values() for m in messages)
        return CalibrationRow(case=case, computed=None, errors=messages)
    computed, replica = _computed(case, result)
    return CalibrationRow(case=case, computed=computed, accelerators_per_replica=replica)


def calibrate(catalogue: Catalogue | None = None) -> list[CalibrationRow]:
    """Every case beside the planner's figure for it, at the catalogue's current rows."""
    catalogue = catalogue or Catalogue.load()
    return [calibrate_case(case, catalogue) for case in calibration_cases()]
