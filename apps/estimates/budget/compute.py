"""The lines an estimate adds to a budget: compute, owned accelerators and their power, by month.

`compute_lines` says what each line includes; `LinesBuilder` builds each section's lines
(rented compute or an external API's bill, owned accelerators bought, their power and cooling)
with the assets, the monthly energy and the notes that go with them; apps.estimates.budget.months
places them in time.
"""

from collections.abc import Sequence
from datetime import date
from decimal import Decimal

from apps.estimates.budget.fiscal import (
    FiscalCalendar,
    PeriodMonths,
    fiscal_years,
    month_index,
    month_start,
)
from apps.estimates.budget.inputs import Asset, BudgetInputError, ComputedLines
from apps.estimates.budget.lines import (
    BY_THRESHOLD,
    DEFAULT_CATEGORIES,
    ScheduledLine,
    decimal,
)
from apps.estimates.budget.months import (
    ZERO,
    default_service_start,
    spread,
    training_hours_by_month,
)
from apps.estimates.footprint import water_litres
from apps.estimates.inputs import EstimateInput, Pricing
from apps.estimates.messages import Day, Message, _, g6, number
from apps.estimates.money import to_money
from apps.estimates.results import CommitmentResult, EstimateResult
from apps.estimates.units import HOURS_PER_MONTH


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

    Capacity rented on commitment replaces the inference line with the commitment's payments
    (apps.estimates.commitment): each term's upfront payment in its first month (classed by the
    capitalisation threshold rule when the budget is drawn up, see `BY_THRESHOLD`), its monthly
    payments in every month of the term, the terms running on from the service start even past
    the horizon, and the busy hours beyond the committed capacity on demand, month by month. The
    committed capacity left idle goes to the memo (`idle_commitment`): each month's committed
    hours not busy, at the committed price.

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


class LinesBuilder:
    """Collects the computed lines, assets, monthly energy and notes of one scenario."""

    def __init__(
        self,
        inp: EstimateInput,
        result: EstimateResult,
        calendar: FiscalCalendar,
        residual_share: float,
    ) -> None:
        self.inp = inp
        self.result = result
        self.period = PeriodMonths(fiscal_years(calendar))
        self.residual_share = decimal(residual_share)
        self.lines: list[ScheduledLine] = []
        self.idle_commitment: list[tuple[int, Decimal]] | None = None
        self.assets: list[Asset] = []
        self.energy: dict[int, float] | None = None
        self.embodied: dict[int, float] | None = None  # kg CO2e of the hardware's making
        self.notes: list[Message] = []
        price = inp.energy.electricity_price_per_kwh
        self.electricity_price = None if price is None else float(price)

    def line(
        self,
        name: Message,
        kind: str,
        basis: Message,
        monthly: Sequence[tuple[int, Decimal]],
        budget_class: str | None = None,
    ):
        """A line of cents per month; the months outside the period are left out, with a note.
        Its class: `budget_class` when given, else capex for hardware bought, opex otherwise."""
        inside = [(month, amount) for month, amount in monthly if month in self.period]
        if budget_class is None:
            budget_class = "capex" if kind == "hardware_purchase" else "opex"
        if inside:
            self.lines.append(
                ScheduledLine(
                    name=name,
                    kind=kind,
                    budget_class=budget_class,
                    category=DEFAULT_CATEGORIES[kind],
                    basis=basis,
                    monthly=tuple((month_start(month), amount) for month, amount in inside),
                )
            )
        left_out = sum((amount for month, amount in monthly if month not in self.period), ZERO)
        if left_out:
            self.notes.append(
                _(
                    "%(line)s: %(amount)s falls outside the planning period and is left out.",
                    line=name,
                    amount=number(left_out, "two_places"),
                )
            )

    def purchase(self, name: Message, month: int, count: float, pricing: Pricing) -> None:
        price = to_money(decimal(count) * decimal(pricing.purchase_price))
        if price == 0:
            return
        lifetime = float(pricing.lifetime_years)
        basis = _(
            "%(count)s accelerator(s) × %(price)s purchase price; written off over %(years)s "
            "years to a residual value of %(residual)s (memo row). Replaces the estimate's owned "
            "cost per hour, which spreads the same purchase over its life.",
            count=g6(count),
            price=number(pricing.purchase_price, "two_places"),
            years=g6(lifetime),
            residual=number(self.residual_share, "percent"),
        )
        self.line(name, "hardware_purchase", basis, [(month, price)])
        if month in self.period:
            self.assets.append(
                Asset(
                    name=name,
                    bought=month_start(month),
                    price=price,
                    residual_value=to_money(price * self.residual_share),
                    lifetime_years=lifetime,
                )
            )

    def add_energy(self, monthly: Sequence[tuple[int, float]]) -> None:
        if self.energy is None:
            self.energy = {}
        for month, kwh in monthly:
            if month in self.period:
                self.energy[month] = self.energy.get(month, 0.0) + kwh

    def add_embodied(self, monthly: Sequence[tuple[int, float]]) -> None:
        if self.embodied is None:
            self.embodied = {}
        for month, kg in monthly:
            if month in self.period:
                self.embodied[month] = self.embodied.get(month, 0.0) + kg

    def training(self, start: date) -> None:
        training, pricing = self.result.training, self.inp.training.pricing
        if training.wall_clock_hours is None:  # fine-tuned through a vendor's API
            self.line(
                _("Training compute"),
                "training_compute",
                _(
                    "Fine-tuning billed by the vendor's API per training token, in the month it "
                    "starts."
                ),
                [(month_index(start), to_money(training.cost))],
            )
            return
        months, hours_outside = training_hours_by_month(
            start, training.wall_clock_hours, self.period
        )
        hours = [hours for _, hours in months] + [hours_outside]
        # The part after the last month is placed one month past the period, so it is left out.
        places = [month for month, _ in months] + [self.period.last + 1]
        spread_over = {
            "hours": number(training.wall_clock_hours, "one_place"),
            "start": Day(start),
        }
        if training.cost is None:
            self.notes.append(
                _(
                    "Training compute is not in the budget: the training is not priced, as "
                    "no price per accelerator-hour is known for its accelerator. Give one in the "
                    "scenario, or add the cost as a line."
                )
                if pricing.mode == "rent"
                else _(
                    "Accelerators bought for training are not in the budget: the training is "
                    "not priced, as no purchase price is known for its accelerator. Give one in "
                    "the scenario, or add the cost as a line."
                )
            )
        if pricing.mode == "rent" and training.cost is not None:
            basis = _(
                "%(accelerator_hours)s accelerator-hours × %(price)s per accelerator-hour, spread "
                "over its %(hours)s wall-clock hours from %(start)s in proportion to hours.",
                accelerator_hours=number(training.accelerator_hours, "two_places"),
                price=g6(training.price_per_accelerator_hour),
                **spread_over,
            )
            cost = spread(to_money(training.cost), hours)  # a ledger counts whole cents
            self.line(
                _("Training compute"),
                "training_compute",
                basis,
                list(zip(places, cost, strict=True)),
            )
        elif pricing.mode == "own":
            count = self.inp.training.accelerator_count
            if training.cost is not None:
                self.purchase(
                    _("Accelerators bought for training"), month_index(start), count, pricing
                )
            if training.energy_kwh is not None and self.electricity_price is not None:
                cost = spread(to_money(training.energy_kwh * self.electricity_price), hours)
                self.line(
                    _("Power and cooling of training hardware"),
                    "hardware_power",
                    _(
                        "The estimate's energy for training (busy accelerator-hours × power × "
                        "PUE, so cooling included and idle draw excluded) × %(price)s per kWh. "
                        "Spread over its %(hours)s wall-clock hours from %(start)s in proportion "
                        "to hours.",
                        price=g6(self.electricity_price),
                        **spread_over,
                    ),
                    list(zip(places, cost, strict=True)),
                )
        if training.energy_kwh is not None:
            whole = sum(hours)
            self.add_energy(
                [(m, training.energy_kwh * h / whole) for m, h in zip(places, hours, strict=True)]
            )
        if training.embodied_kg_co2e is not None:
            whole = sum(hours)
            kg = training.embodied_kg_co2e
            self.add_embodied([(m, kg * h / whole) for m, h in zip(places, hours, strict=True)])

    def inference(self, start: date | None) -> None:
        inference, pricing = self.result.inference, self.inp.inference.pricing
        if inference.serving is not None and not inference.serving.fits:
            return  # a model that fits no replica has no cost or hardware that could be true
        # Past the year 9999 (start None) every month lies after the period.
        first = self.period.last + 1 if start is None else month_index(start)
        months = [(first + index, month) for index, month in enumerate(inference.monthly)]
        when = None if start is None else Day(month_start(first), "month")
        if pricing.mode == "rent" and inference.commitment is not None:
            self.commitment(first, inference.commitment, months)
        elif pricing.mode == "rent":
            how = (
                _("an external API's price per token")
                if inference.peak_accelerators is None
                else _(
                    "always-on: %(accelerators)s accelerator(s) paid every hour",
                    accelerators=inference.peak_accelerators,
                )
                if self.inp.inference.provisioning == "always_on"
                else _("pay-per-use: busy accelerator-hours × price")
            )
            self.line(
                _("Inference compute"),
                "inference_compute",
                _("The estimate's monthly inference cost, %(how)s.", how=how)
                if when is None
                else _(
                    "The estimate's monthly inference cost from %(month)s, %(how)s.",
                    how=how,
                    month=when,
                ),
                # A ledger counts whole cents: a month below a cent is rounded here.
                [(place, to_money(month.cost)) for place, month in months],
            )
        else:
            self.purchase(
                _("Accelerators bought for serving"), first, inference.peak_accelerators, pricing
            )
            known = all(month.energy_kwh is not None for month in inference.monthly)
            if known and self.electricity_price is not None:
                power = {"price": g6(self.electricity_price)}
                self.line(
                    _("Power and cooling of serving hardware"),
                    "hardware_power",
                    _(
                        "The estimate's energy for serving (busy accelerator-hours × power × PUE, "
                        "so cooling included and idle draw excluded) × %(price)s per kWh. Month "
                        "by month.",
                        **power,
                    )
                    if when is None
                    else _(
                        "The estimate's energy for serving (busy accelerator-hours × power × PUE, "
                        "so cooling included and idle draw excluded) × %(price)s per kWh. Month "
                        "by month from %(month)s.",
                        month=when,
                        **power,
                    ),
                    [
                        (place, to_money(month.energy_kwh * self.electricity_price))
                        for place, month in months
                    ],
                )
        if all(month.energy_kwh is not None for month in inference.monthly):
            self.add_energy([(place, month.energy_kwh) for place, month in months])
        total = inference.total
        if total.embodied_kg_co2e is not None and total.accelerator_hours:
            # Spread like the busy accelerator-hours it is worked out from.
            per_hour = total.embodied_kg_co2e / total.accelerator_hours
            self.add_embodied(
                [(place, month.accelerator_hours * per_hour) for place, month in months]
            )

    def commitment(self, first: int, commitment: CommitmentResult, months: list) -> None:
        """The commitment's payments from the service start, its on-demand excess and its idle
        capacity (see `compute_lines`)."""
        term, terms = commitment.term_months, commitment.terms
        committed = {
            "accelerators": commitment.committed_accelerators,
            "months": term,
            "price": g6(commitment.price_per_accelerator_hour),
            "discount": number(commitment.discount, "percent"),
        }
        if commitment.upfront_per_term:
            self.line(
                _("Committed capacity paid upfront"),
                "inference_compute",
                _(
                    "%(accelerators)s accelerator(s) committed for terms of %(months)s months at "
                    "%(price)s per accelerator-hour (%(discount)s off on demand): %(share)s of "
                    "each term paid in its first month, whether the capacity is used or not.",
                    share=number(commitment.upfront_share, "percent"),
                    **committed,
                ),
                [(first + k * term, commitment.upfront_per_term) for k in range(terms)],
                budget_class=BY_THRESHOLD,
            )
        if commitment.monthly_payment:
            self.line(
                _("Committed capacity, monthly payments"),
                "inference_compute",
                _(
                    "%(accelerators)s accelerator(s) committed for terms of %(months)s months at "
                    "%(price)s per accelerator-hour (%(discount)s off on demand): the rest of "
                    "each term paid every month of it, whether the capacity is used or not.",
                    **committed,
                ),
                [(first + k, commitment.monthly_payment) for k in range(terms * term)],
            )
        if commitment.months_after_horizon:
            self.notes.append(
                _(
                    "The commitment runs %(months)s month(s) past the end of the service: its "
                    "payments continue, for capacity left idle (%(amount)s).",
                    months=commitment.months_after_horizon,
                    amount=number(commitment.after_horizon_cost, "two_places"),
                )
            )
        capacity = commitment.committed_accelerators * HOURS_PER_MONTH
        served = capacity * float(self.inp.inference.target_utilization)
        price = commitment.on_demand_price_per_accelerator_hour
        excess = [
            (place, to_money(max(month.accelerator_hours - served, 0.0) * price))
            for place, month in months
        ]
        if any(amount for _, amount in excess):
            self.line(
                _("Inference on demand above the commitment"),
                "inference_compute",
                _(
                    "Busy accelerator-hours beyond what the %(accelerators)s committed "
                    "accelerator(s) serve at the planned busy share, at the on-demand price of "
                    "%(price)s per accelerator-hour, month by month.",
                    accelerators=commitment.committed_accelerators,
                    price=g6(price),
                ),
                excess,
            )
        committed_price = commitment.price_per_accelerator_hour
        busy = {place: min(month.accelerator_hours, served) for place, month in months}
        self.idle_commitment = [
            (place, to_money((capacity - busy.get(place, 0.0)) * committed_price))
            for place in range(first, first + terms * term)
            if place in self.period
        ]

    def computed(self) -> ComputedLines:
        profile = self.inp.energy
        intensity = profile.kg_co2e_per_kwh
        energy = self.energy
        water = (
            None
            if profile.wue_litres_per_kwh is None or profile.grid_water_litres_per_kwh is None
            else float(
                water_litres(
                    1.0, profile.pue, profile.wue_litres_per_kwh, profile.grid_water_litres_per_kwh
                )
            )
        )
        return ComputedLines(
            lines=tuple(self.lines),
            assets=tuple(self.assets),
            energy_kwh=None
            if energy is None
            else tuple((month_start(month), kwh) for month, kwh in sorted(energy.items())),
            kg_co2e_per_kwh=None if intensity is None else float(intensity),
            water_litres_per_kwh=water,
            embodied_kg_co2e=None
            if self.embodied is None
            else tuple((month_start(month), kg) for month, kg in sorted(self.embodied.items())),
            notes=tuple(self.notes),
            idle_commitment=None
            if self.idle_commitment is None
            else tuple((month_start(month), amount) for month, amount in self.idle_commitment),
        )
