"""The comparison in words (seed 000): the description without the diagram and the bottom strip."""

import re

import pytest

from apps.estimates import (
    EnergyProfile,
    EstimateInput,
    Hardware,
    InferenceInput,
    Pricing,
    Threshold,
    TrainingInput,
    estimate,
)
from apps.estimates.results import EstimateResult
from apps.projects.describe import bottom_strip, describe

RENT = Pricing(mode="rent", price_per_accelerator_hour=2.99)
H100 = Hardware(
    peak_flops_per_second=989.4e12, memory_bandwidth_bytes_per_second=3.35e12, power_watts=700.0
)


def translation_assistant(
    requests_per_month: float = 15_000,
    *,
    training: bool = True,
    inference: bool = True,
    **inference_fields: object,
) -> EstimateResult:
    """Seed 000's worked example: 200 accelerator-hours of fine-tuning, 2 s per request."""
    return estimate(
        EstimateInput(
            training=TrainingInput(
                method="accelerator_hours", accelerator_hours=200.0, pricing=RENT
            )
            if training
            else None,
            inference=InferenceInput(
                method="accelerator_seconds",
                accelerator_seconds_per_request=2.0,
                requests_per_month=requests_per_month,
                months=12,
                pricing=RENT,
                **inference_fields,
            )
            if inference
            else None,
        )
    )


def on_h100s() -> EstimateResult:
    return estimate(
        EstimateInput(
            training=TrainingInput(
                method="parameters_tokens",
                hardware=H100,
                parameters=7e9,
                tokens=2e12,
                accelerator_count=1024,
                pricing=RENT,
            ),
            inference=InferenceInput(
                method="tokens",
                hardware=H100,
                parameters=7e9,
                input_tokens=500,
                output_tokens=300,
                requests_per_month=2e6,
                pricing=RENT,
            ),
            energy=EnergyProfile(pue=1.2, kg_co2e_per_kwh=0.4),
            thresholds=(Threshold(name="EU AI Act Art. 51(2)", flop=1e25),),
        )
    )


def text(result: EstimateResult, **kwargs: str) -> str:
    return "\n".join(describe(result, **kwargs))


def test_seed_000_pilot_description_gives_training_hours_monthly_inference_and_break_even():
    description = text(translation_assistant(15_000))
    assert "This training run uses 200 accelerator-hours" in description
    assert "15,000 requests a month" in description
    # 30,000 s a month: three significant figures, so 8.33 where the seed says 8.3.
    assert "8.33 accelerator-hours a month" in description
    assert "after about 24 months, beyond the horizon of 12 months" in description
    assert "training accounts for 67%" in description
    assert "so training dominates" in description


def test_seed_000_wider_use_says_inference_dominates_and_overtakes_within_the_horizon():
    description = text(translation_assistant(300_000))
    assert "167 accelerator-hours a month" in description
    assert "after about 1.2 months, within the horizon of 12 months" in description
    assert "inference for 91%" in description
    assert "so inference dominates" in description


def test_description_follows_the_seed_structure_column_by_column():
    paragraphs = describe(translation_assistant())
    assert paragraphs[0].startswith("This diagram compares two uses of compute")
    assert paragraphs[1].startswith("On the left, training starts with data")
    assert paragraphs[2].startswith("On the right, inference starts with a user request")
    assert "build-stage cost of $598" in paragraphs[3]
    assert "run-stage cost of $24.92 a month" in paragraphs[3]
    assert "each answer takes about 2 s" in paragraphs[3]
    assert paragraphs[4].startswith("Counting accelerator-hours, cumulative inference overtakes")


def test_single_request_view_describes_one_request_without_monthly_figures():
    description = text(translation_assistant(), view="single")
    assert "Each request uses 2 accelerator-seconds" in description
    # 2 s at 2.99 an hour is 0.17 cents: the engine rounds it to 0.00, the text gives its digits.
    assert "costs $0.0017 ($1.66 per 1,000 requests)" in description
    assert "360,000 requests to use as much compute as the training did" in description
    assert "a month" not in description
    assert "overtakes" not in description


def test_description_gives_flop_energy_emissions_and_thresholds_when_known():
    description = text(on_h100s(), currency="EUR")
    # 8.4e22 FLOP ÷ (989.4e12 FLOP/s × the default MFU 0.25) ÷ 3,600 = 94,333.27 accelerator-hours;
    # ÷ 1,024 = 92.1 h; × 0.7 kW × PUE 1.2 = 79.2 MWh, × 0.4 kg = 31.7 t; × 2.99 = 282,056.
    assert "8.4 × 10²² FLOP, or 94,333 accelerator-hours, and takes 92.1 hours" in description
    assert "79.2 MWh of energy (31.7 t CO2e)" in description
    assert "stays below the EU AI Act Art. 51(2) threshold of 1 × 10²⁵ FLOP" in description
    assert "€282,056" in description
    assert "$" not in description


def test_description_leaves_out_figures_the_engine_could_not_compute():
    description = text(translation_assistant())
    assert "FLOP" not in description  # accelerator-hours given without an accelerator
    assert "energy" not in description  # no power draw known
    assert "not available" not in description


def test_zero_demand_never_overtakes_training():
    description = text(translation_assistant(0))
    assert "never overtakes the one-off training" in description
    assert "At peak" not in description


def test_growing_demand_with_always_on_capacity_says_so():
    description = text(translation_assistant(15_000, monthly_growth=0.1, provisioning="always_on"))
    assert "in the first month to 42,797 requests in month 12" in description
    assert "Capacity is kept always on" in description
    assert "Counted in money" in description


def test_training_only_result_describes_the_build_stage():
    paragraphs = describe(translation_assistant(inference=False))
    assert paragraphs[0].startswith("This diagram shows the compute used to train the model")
    assert paragraphs[-1] == (
        "In short, training compute is a build-stage cost of $598 "
        "(200 accelerator-hours of training, once)."
    )


def test_inference_only_result_describes_the_run_stage():
    description = text(translation_assistant(inference=True, training=False))
    assert "no one-off cost of building the model" in description
    assert "run-stage cost of $24.92 a month" in description
    assert "overtakes" not in description


@pytest.mark.parametrize("view", ["single", "many"])
@pytest.mark.parametrize(
    "result",
    [
        translation_assistant(15_000),
        translation_assistant(0),
        translation_assistant(training=False),
        translation_assistant(inference=False),
        on_h100s(),
    ],
    ids=["pilot", "no-demand", "inference-only", "training-only", "h100"],
)
def test_no_description_or_strip_shows_nan_none_or_infinity(result, view):
    strip = bottom_strip(result, view=view)
    pieces = [*describe(result, view=view), *(v for item in strip.values() for v in item.values())]
    for piece in pieces:
        assert piece.strip()
        assert not re.search(r"\b(nan|none|inf|infinity)\b", piece, re.IGNORECASE), piece


def test_unknown_view_is_rejected():
    with pytest.raises(ValueError, match="view must be one of single, many"):
        describe(translation_assistant(), view="both")


def test_bottom_strip_for_many_requests_shows_the_month_horizon_and_peak_capacity():
    strip = bottom_strip(translation_assistant(), "USD", view="many")
    assert strip == {
        "build_cost": {
            "label": "Build cost",
            "text": "$598",
            "detail": "200 accelerator-hours of training, once",
        },
        "run_cost": {
            "label": "Run cost",
            "text": "$24.92 a month",
            "detail": "$299 over 12 months; 8.33 accelerator-hours a month",
        },
        "user_speed": {
            "label": "User speed",
            "text": "2 s a request",
            "detail": "1 accelerator needed at peak (0.0057 requests per second)",
        },
    }


def test_bottom_strip_for_a_single_request_shows_per_request_figures():
    strip = bottom_strip(translation_assistant(), "EUR", view="single")
    assert strip["run_cost"]["text"] == "€0.0017 per request"
    assert strip["run_cost"]["detail"] == "€1.66 per 1,000 requests; 2 accelerator-seconds each"
    assert strip["user_speed"]["detail"] == "taken as the accelerator time per request"


def test_bottom_strip_says_which_section_the_scenario_lacks():
    strip = bottom_strip(translation_assistant(inference=False))
    assert strip["run_cost"]["text"] == "not in this scenario"
    assert strip["user_speed"]["detail"] == "This scenario has no inference."
    strip = bottom_strip(translation_assistant(training=False))
    assert strip["build_cost"]["detail"] == "This scenario has no training."
