"""The record codec: every result the engine keeps dumps to plain JSON and loads back equal."""

import json
from dataclasses import dataclass, fields, is_dataclass, replace
from datetime import date
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.estimates import EstimateInput, EstimateResult, estimate
from apps.estimates.budget import Budget, BudgetRules, CostLineInput, budget, compute_lines
from apps.estimates.budget.compare import BudgetDiff, Portfolio, budget_diff, portfolio
from apps.estimates.budget.uncertainty import budget_uncertainty
from apps.estimates.kept import KeptOptions
from apps.estimates.messages import Alternatives, Day, Message, Number, _, ngettext
from apps.estimates.options import (
    ApiPricing,
    OptionsComparison,
    OptionsUncertainty,
    compare_options,
)
from apps.estimates.record import SCHEMA_VERSION, RecordError, dump, load
from apps.estimates.uncertainty import FigureRange, UncertaintyResult, sample
from apps.estimates.uncertainty_draws import Range
from tests.unit.estimates.serving_cases import DEEPSEEK_V3, LLAMA_33_70B, serving_input
from tests.unit.estimates.test_budget_compute import OCTOBER, OWN, RENT, scenario
from tests.unit.estimates.test_estimate_properties import build, scenarios
from tests.unit.estimates.test_estimate_worked_example import translation_assistant
from tests.unit.estimates.test_options import CALENDAR, FOUR, RULES
from tests.unit.estimates.test_training_without_a_price import GPT3, SERVING

STAFF = CostLineInput(
    name="Staff",
    kind="staff",
    quantity=2,
    unit="FTE-month",
    unit_price=8000,
    recurrence="monthly",
    start=date(2026, 2, 1),
    annual_escalation=0.03,
)
RENTED_AND_OWNED = (scenario(RENT), scenario(OWN, "always_on"))


@dataclass(frozen=True)
class Notes:
    """A holder of notes, as the engine's results hold theirs."""

    notes: tuple[str, ...]


def through_json(value: object, cls: type) -> object:
    """`value` dumped, written as JSON text and read back (as a JSON column gives it), loaded."""
    record = json.loads(json.dumps(dump(value), allow_nan=False))
    return load(record, cls)


def same_words(a: object, b: object) -> bool:
    """Equal, and every Message in them with the same msgid and parameters (a Message equals
    any str of its English text, so == alone would miss a lost msgid)."""
    if isinstance(a, Message) or isinstance(b, Message):
        return (
            isinstance(a, Message)
            and isinstance(b, Message)
            and (a.msgid, a.plural, a.count) == (b.msgid, b.plural, b.count)
            and a.params.keys() == b.params.keys()
            and all(same_words(a.params[k], b.params[k]) for k in a.params)
        )
    if is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b) and all(
            same_words(getattr(a, f.name), getattr(b, f.name)) for f in fields(a)
        )
    if isinstance(a, tuple | list):
        return type(a) is type(b) and len(a) == len(b) and all(map(same_words, a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_words(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def assert_round_trip(value: object) -> None:
    loaded = through_json(value, type(value))
    assert loaded == value
    assert same_words(loaded, value)


@pytest.mark.parametrize("requests_per_month", [15_000, 300_000])
def test_the_worked_example_s_estimate_loads_back_equal(requests_per_month):
    assert_round_trip(estimate(translation_assistant(requests_per_month)))


@pytest.mark.parametrize("model", [LLAMA_33_70B, DEEPSEEK_V3])
def test_a_served_language_model_loads_back_with_its_replica_choice(model):
    result = estimate(serving_input(model, ttft_target_seconds=2.0, tpot_target_seconds=0.05))
    assert result.inference.serving.replica_choice
    assert isinstance(result.inference.serving.replica_chosen_because, Message)
    assert_round_trip(result)


def test_an_unpriced_training_keeps_its_note_as_a_message():
    result = estimate(EstimateInput(training=GPT3, inference=SERVING))
    assert isinstance(result.training.cost_note, Message)
    assert_round_trip(result)


@pytest.mark.parametrize("inp", RENTED_AND_OWNED)
def test_a_budget_with_its_lines_notes_and_memo_loads_back_equal(inp):
    result = estimate(inp)
    drawn_up = budget(
        OCTOBER, BudgetRules(contingency_opex=0.1), [STAFF], compute_lines(inp, result, OCTOBER)
    )
    assert drawn_up.notes or drawn_up.lines
    assert_round_trip(drawn_up)
    assert isinstance(through_json(drawn_up, Budget).summary.prices_as_of, date | None)


def test_a_budget_diff_and_a_portfolio_load_back_equal():
    first, second = (
        budget(OCTOBER, BudgetRules(), [], compute_lines(inp, estimate(inp), OCTOBER))
        for inp in RENTED_AND_OWNED
    )
    assert_round_trip(budget_diff(first, second))
    assert_round_trip(portfolio([first, second]))
    assert through_json(portfolio([first, second]), Portfolio).rows
    assert isinstance(through_json(budget_diff(first, second), BudgetDiff), BudgetDiff)


def test_the_options_comparison_loads_back_with_its_condition_and_crossovers():
    compared = compare_options(FOUR, CALENDAR, RULES)
    loaded = through_json(compared, OptionsComparison)
    assert loaded.crossovers and loaded.condition == compared.condition
    assert_round_trip(compared)


def test_the_decision_view_kept_loads_back_with_its_prices_reasons_and_ranges():
    compared = compare_options(FOUR, CALENDAR, RULES)
    npv = FigureRange(Decimal("9000.00"), Decimal("10000.50"), Decimal("12000.00"), Decimal("1E+4"))
    kept = KeptOptions(
        currency="EUR",
        comparison=replace(compared, lines=()),
        period_start=CALENDAR.period_start,
        period_end=CALENDAR.period_end,
        discount_rate=0.05,
        api_prices={
            "external_api": ApiPricing("openai-gpt-4o-mini", "off_peak", None, date(2026, 12, 1))
        },
        unavailable={
            "build": {
                "training.tokens": (_("Give %(count)s tokens.", count=Number(1e9)),),
                "training": ("A reason worded before it was kept.",),
            }
        },
        ranges=OptionsUncertainty(2_000, 3, {"options.own.npv": npv}, {"own": 0.25, "rent": 0.75}),
    )
    assert_round_trip(kept)


def test_ranges_with_their_fan_load_back_with_money_as_decimal():
    inp = translation_assistant(15_000)
    ranges = {"inference.requests_per_month": Range(5e3, 5e4)}
    result = sample(inp, ranges, samples=2_000, seed=7, fan=True)
    assert result.fan
    loaded = through_json(result, UncertaintyResult)
    assert isinstance(loaded.figures["inference.total.cost"].p50, Decimal)
    assert isinstance(loaded.figures["inference.total.accelerator_hours"].p50, float)
    assert_round_trip(result)


def test_a_budget_s_ranges_load_back_equal():
    inp = RENTED_AND_OWNED[0]
    ranges = {"inference.requests_per_month": Range(5e4, 5e5)}
    result = budget_uncertainty(inp, ranges, OCTOBER, BudgetRules(), samples=500, seed=3)
    assert_round_trip(result)


def test_a_message_keeps_its_msgid_and_typed_parameters():
    message = _(
        "%(count)s of %(total)s by %(day)s, %(sizes)s: %(inner)s (%(who)s, %(exact)s)",
        count=Number(3, "whole"),
        total=Number(Decimal("1234.50"), "two_places"),
        day=Day(date(2026, 3, 1), "month"),
        sizes=Alternatives((8.0, 16.0)),
        inner=_("%(share)s idle", share=Number(0.25, "percent")),
        who="Ada",
        exact=Decimal("0.1"),
    )
    loaded = through_json(Notes((message,)), Notes)
    assert same_words(loaded.notes[0], message)
    assert str(loaded.notes[0]) == str(message)
    assert isinstance(loaded.notes[0].params["exact"], Decimal)


@pytest.mark.parametrize("offers", [1, 8])
def test_a_message_with_a_plural_keeps_both_forms_and_its_count(offers):
    message = ngettext(
        "the median of %(offers)s offer", "the median of %(offers)s offers", "offers", offers=offers
    )
    loaded = through_json(Notes((message,)), Notes).notes[0]
    assert same_words(loaded, message)
    assert str(loaded) == ("the median of 1 offer" if offers == 1 else "the median of 8 offers")


def test_a_record_of_another_schema_version_is_refused_clearly():
    record = dump(estimate(translation_assistant(15_000)))
    assert record["schema"] == SCHEMA_VERSION
    with pytest.raises(RecordError, match=f"schema version 99 .* reads version {SCHEMA_VERSION}"):
        load({**record, "schema": 99}, EstimateResult)
    with pytest.raises(RecordError, match="schema version None"):
        load(record["data"], EstimateResult)


def test_a_record_of_another_type_is_refused():
    record = dump(estimate(translation_assistant(15_000)))
    with pytest.raises(RecordError, match="no Budget"):
        load(record, Budget)


def test_an_object_outside_a_message_s_parameters_is_refused_rather_than_lost():
    with pytest.raises(RecordError):
        dump(Notes((_("%(x)s", x=object()),)))


@settings(max_examples=60)
@given(scenarios(both=True))
def test_any_valid_scenario_s_estimate_loads_back_equal(drawn):
    assert_round_trip(estimate(build(*drawn)))


parameters = st.recursive(
    st.one_of(
        st.builds(Number, st.floats(allow_nan=False), st.sampled_from(["plain", "g6", "whole"])),
        st.builds(Number, st.decimals(allow_nan=False, allow_infinity=False, places=4)),
        st.builds(Number, st.integers()),
        st.builds(Day, st.dates(), st.sampled_from(["long", "month"])),
        st.builds(Alternatives, st.tuples(st.floats(allow_nan=False), st.floats(1, 64))),
        st.text(max_size=12),
        st.integers(),
        st.booleans(),
        st.floats(allow_nan=False),
    ),
    lambda inner: st.dictionaries(
        st.from_regex(r"[a-z]{1,6}", fullmatch=True), inner, max_size=3
    ).map(lambda params: _(" ".join(f"%({name})s" for name in params), **params)),
    max_leaves=8,
)


@given(st.lists(parameters, max_size=4))
def test_any_note_loads_back_with_the_same_words(notes):
    holder = Notes(tuple(_("%(p)s", p=note) for note in notes))
    loaded = through_json(holder, Notes)
    assert same_words(loaded, holder)
