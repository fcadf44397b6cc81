"""The lines an estimate adds to a budget: compute, owned accelerators and their power, by month.

Each section's lines are built in apps.estimates.budget.accelerator_lines, placed in time by
apps.estimates.budget.months.
"""

from datetime import date

from apps.estimates.budget.accelerator_lines import LinesBuilder
from apps.estimates.budget.fiscal import FiscalCalendar
from apps.estimates.budget.inputs import BudgetInputError, ComputedLines
from apps.estimates.budget.months import default_service_start
from apps.estimates.inputs import EstimateInput
from apps.estimates.messages import _
from apps.estimates.results import EstimateResult


def compute_lines(
    inp: EstimateInput,
    result: EstimateResult,
    calendar: FiscalCalendar,
    *,
    training_start: date | None = None,
    service_start: date | None = None,
    residual_share: float = 0.0,
) -> ComputedLines:
    """The lines `estimate(inp)` (passed in as `result`) adds to a budget, month by month.

    Training (one-off, opex): its cost spread over the months of its wall-clock from
    `training_start` (default: the start of the planning period) in proportion to the hours in
    each month, in whole cents by largest remainder (see `spread`), so the months add up to the
    estimate's training cost exactly. Inference (opex): month k of the estimate's monthly series
    placed in the k-th month from `service_start` (default: the month after training ends, see
    `default_service_start`), its cost as `provisioning` chooses (pay-per-use or always-on).

    Owned accelerators (pricing mode "own") replace the compute line of their section: the
    estimate's owned cost per hour writes the purchase off over the accelerator's life, so
    counting it too would count the hardware twice. Instead: the purchase (capex, accelerator
    count × purchase price; training's count in the month training starts, the serving peak's in
    the month the service starts), and its power and cooling (opex, the estimate's energy × the
    electricity price; left out, with a note, when either is unknown). Each purchase is an
    `Asset` for the depreciation memo, with a residual value of `residual_share` × its price.
    Training and serving fleets are bought separately, even of the same accelerator. Rented
    compute includes its power in the price, so it has no power line.

    The inference line follows the engine's monthly series, each month rounded by the engine,
    so its total can differ by a few cents from the estimate's headline inference cost (which
    is rounded once over the horizon).

    Energy for the memo: the estimate's, training spread like its cost, serving month by month;
    None when no section's power is known. Anything falling outside the planning period is left
    out, with a note saying how much. Raises BudgetInputError on a residual share outside 0–1
    and ValueError on a bad calendar.
    """
    share = float(residual_share)
    if not 0 <= share <= 1:
        raise BudgetInputError(
            {"residual_share": [_("Enter a residual value from 0 to 1 of the purchase price.")]}
        )
    training_start = calendar.period_start if training_start is None else training_start
    builder = LinesBuilder(inp, result, calendar, residual_share)
    wall_clock = None if result.training is None else result.training.wall_clock_hours
    if result.training is not None:
        builder.training(training_start)
    if result.inference is not None:
        if service_start is None:
            service_start = default_service_start(training_start, wall_clock)
        builder.inference(service_start)
    sections = [
        (name, getattr(inp, name))
        for name in ("training", "inference")
        if getattr(result, name) is not None
    ]
    if any(given.pricing.mode == "own" for _, given in sections):
        builder.notes.append(
            _(
                "Owned accelerators are budgeted as bought (capex) with their power and cooling "
                "(opex); the estimate's owned cost per hour, which spreads the purchase over the "
                "accelerators' life, is not counted again. Depreciation is a memo row, not cash."
            )
        )
        if builder.electricity_price is None or any(
            given.hardware is None or given.hardware.power_watts is None
            for _, given in sections
            if given.pricing.mode == "own"
        ):
            builder.notes.append(
                _(
                    "Power of owned accelerators is not in the budget where their power draw or "
                    "the electricity price is unknown."
                )
            )
    for name, given in sections:
        if given.method in ("external_api", "api_fine_tune"):
            builder.notes.append(
                _("Energy and emissions exclude training: the vendor's API.")
                if name == "training"
                else _("Energy and emissions exclude inference: the vendor's API.")
            )
        elif given.hardware is None or given.hardware.power_watts is None:
            builder.notes.append(
                _("Energy and emissions exclude training: its power is unknown.")
                if name == "training"
                else _("Energy and emissions exclude inference: its power is unknown.")
            )
    return builder.computed()
