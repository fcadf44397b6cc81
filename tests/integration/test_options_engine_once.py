"""The decision view runs the estimate engine once per option: the options that fit no replica
are found, the period's end is set and the options are compared with the same answers."""

from datetime import date

import pytest

from apps.estimates import engine
from apps.options.services import BudgetSettings, options_compare
from tests.factories import SEED_000_TRAINING, seed_000_inference

pytestmark = pytest.mark.django_db
TOKENS = {"input_tokens": 1000, "output_tokens": 500}


@pytest.mark.parametrize("ranges", [False, True])
def test_each_option_is_estimated_once_whatever_the_page_asks_of_it(monkeypatch, ranges):
    request = {"training": SEED_000_TRAINING, "inference": seed_000_inference(150_000, **TOKENS)}
    if ranges:
        request["ranges"] = {"inference.requests_per_month": {"low": 50_000, "high": 400_000}}
        request["uncertainty"] = {"samples": 1_000, "seed": 1}
    computed = []
    compute = engine.compute
    monkeypatch.setattr(
        engine, "compute", lambda inp, **kw: computed.append(inp) or compute(inp, **kw)
    )
    # No planning period: its end follows the options' service, as for a project without one.
    compared = options_compare(request, None, BudgetSettings(), today=date(2027, 3, 1))
    options = len(compared.comparison.options)
    assert options == 6  # the five ways to serve the demand, and fine-tuning
    scalar = [inp for inp in computed if engine._input_shape(inp) == ()]
    # One estimate and one unrounded evaluation of each option, and nothing more.
    assert len(scalar) == 2 * options
    # With ranges, each option's sampled inference once: fine-tuning hosts as renting per use
    # does (the same inputs and draws), and no range moves its training.
    assert len(computed) - len(scalar) == (options - 1 if ranges else 0)
