"""The engine's words are Messages: English text (as JSON carries it) that keeps its msgid and
parameters, so that the Django edge can translate them; no engine sentence is a bare str."""

import pickle
from datetime import date
from decimal import Decimal

import pytest

from apps.estimates import (
    EnergyProfile,
    EstimateInput,
    EstimateInputError,
    Hardware,
    InferenceInput,
    Pricing,
    TrainingInput,
    estimate,
    validate,
)
from apps.estimates.budget import (
    BudgetInputError,
    BudgetRules,
    CostLineInput,
    FiscalCalendar,
    budget,
    compute_lines,
)
from apps.estimates.limits import RULES
from apps.estimates.messages import Alternatives, Day, Message, Number, _
from apps.estimates.uncertainty_draws import range_errors

H100 = Hardware(peak_flops_per_second=989e12, power_watts=700.0)
ENERGY = EnergyProfile(pue=1.2, kg_co2e_per_kwh=0.4, electricity_price_per_kwh=0.15)


def owned_scenario() -> EstimateInput:
    return EstimateInput(
        training=TrainingInput(
            method="parameters_tokens",
            hardware=H100,
            parameters=7e9,
            tokens=1e11,
            accelerator_count=64,
            pricing=Pricing(mode="own", purchase_price=30_000.0),
        ),
        inference=InferenceInput(
            method="accelerator_seconds",
            hardware=H100,
            accelerator_seconds_per_request=2.0,
            requests_per_month=150_000.0,
            monthly_growth=0.05,
            pricing=Pricing(mode="own", purchase_price=30_000.0),
        ),
        energy=ENERGY,
    )


def test_a_message_is_its_english_text_with_its_msgid_and_parameters():
    message = _(
        "%(line)s: %(amount)s falls outside the planning period and is left out.",
        line=_("Training compute"),
        amount=Number(Decimal("1234.5"), "two_places"),
    )
    assert (
        message == "Training compute: 1,234.50 falls outside the planning period and is left out."
    )
    assert isinstance(message, str)
    assert message.msgid.startswith("%(line)s: %(amount)s falls")
    assert message.params["line"].msgid == "Training compute"


def test_parameters_are_written_in_english_as_the_engine_always_has():
    assert str(Number(0.05, "signed_percent")) == "+5.00%"
    assert str(Number(0.7, "percent")) == "70%"
    assert str(Number(1234567.0, "g6")) == "1.23457e+06"
    assert str(Number(15000.0, "g6")) == "15,000"
    assert str(Day(date(2026, 3, 1))) == "1 March 2026"
    assert str(Day(date(2026, 3, 1), "month")) == "March 2026"
    assert str(Alternatives((8.0, 16.0))) == "8 or 16"
    assert _("Enter a discount rate above −100 %%, e.g. 0.035 for 3.5 %%.").endswith("3.5 %.")


def test_a_message_survives_pickling_with_its_parameters():
    message = RULES["mfu"].message
    copy = pickle.loads(pickle.dumps(message))
    assert copy == message
    assert isinstance(copy, Message)
    assert copy.msgid == message.msgid
    assert copy.params["label"] == "MFU"


def test_every_note_of_an_estimate_is_a_message():
    result = estimate(owned_scenario())
    notes = (*result.training.assumptions, *result.inference.assumptions)
    assert notes
    assert all(isinstance(note, Message) for note in notes)


def test_every_line_name_basis_and_note_of_a_budget_is_a_message():
    inp = owned_scenario()
    calendar = FiscalCalendar(
        start_month=1,
        label_rule="end_year",
        period_start=date(2026, 1, 1),
        period_end=date(2026, 6, 30),
    )
    computed = compute_lines(inp, estimate(inp), calendar)
    drawn_up = budget(calendar, BudgetRules(), computed=computed)
    computed_lines = [line for line in drawn_up.lines if line.computed]
    assert {line.kind for line in computed_lines} >= {"hardware_purchase", "hardware_power"}
    for line in computed_lines:
        assert isinstance(line.name, Message), line.name
        assert isinstance(line.basis, Message), line.basis
    assert drawn_up.notes
    assert all(isinstance(note, Message) for note in drawn_up.notes)


def test_every_validation_error_is_a_message():
    inp = EstimateInput(
        training=TrainingInput(method="parameters_tokens", hardware=H100, mfu=2.0),
        inference=InferenceInput(method="nonsense", requests_per_month=-1.0),
    )
    with pytest.raises(EstimateInputError) as raised:
        validate(inp)
    messages = [m for found in raised.value.errors.values() for m in found]
    assert len(messages) >= 4
    assert all(isinstance(message, Message) for message in messages)
    assert "MFU must be more than 0 (at least 0.001) and at most 1 (typical 0.14–0.5)." in messages

    line = CostLineInput(
        name="", kind="x", quantity=-1, unit="", unit_price=1, recurrence="once", start=date.today()
    )
    calendar = FiscalCalendar(
        start_month=13, label_rule="end_year", period_start=date(2026, 1, 1), period_end=None
    )
    with pytest.raises(BudgetInputError) as raised:
        budget(calendar, BudgetRules(discount_rate=-2), lines=[line])
    messages = [m for found in raised.value.errors.values() for m in found]
    assert len(messages) >= 5
    assert all(isinstance(message, Message) for message in messages)

    assert all(isinstance(m, Message) for m in range_errors("mfu", 0.5, 0.1))
