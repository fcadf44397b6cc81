"""FP4: on an accelerator with an FP4 peak (B200), training and serving use that peak and, by
default, half a byte per weight; the scalar and vectorised paths agree."""

from dataclasses import replace
from decimal import Decimal

import numpy as np
import pytest

from apps.estimates import EstimateInput, Hardware, Pricing, TrainingInput, estimate, evaluate
from apps.estimates.units import BYTES_PER_PARAMETER
from tests.unit.estimates.serving_cases import LLAMA_33_70B, serving_input

# B200 (HGX, 1,000 W): dense 4,500 TFLOP/s FP8 and 9,000 FP4 (apps/catalogue/data/catalogue.json),
# 180 GB, 7.7 TB/s, 8 per node, NVLink 5 at 1,800 GB/s.
B200_FP8 = Hardware(
    peak_flops_per_second=4500e12,
    memory_bandwidth_bytes_per_second=7.7e12,
    power_watts=1000.0,
    memory_bytes=180e9,
    accelerators_per_node=8,
    interconnect_bytes_per_second=1800e9,
)
B200_FP4 = replace(B200_FP8, peak_flops_per_second=9000e12)


def training(hardware: Hardware, total_flop=1e24) -> EstimateInput:
    return EstimateInput(
        training=TrainingInput(
            method="total_flop",
            total_flop=total_flop,
            hardware=hardware,
            pricing=Pricing(price_per_accelerator_hour=5.0),
        )
    )


def test_fp4_weights_are_half_a_byte():
    assert BYTES_PER_PARAMETER["fp4"] == 0.5
    assert BYTES_PER_PARAMETER["fp8"] == 1


def test_training_in_fp4_takes_half_the_hours_of_fp8_at_the_fp4_peak():
    fp8 = estimate(training(B200_FP8)).training
    fp4 = estimate(training(B200_FP4)).training
    # 1e24 FLOP ÷ (9e15 FLOP/s × the default MFU 0.25) ÷ 3,600 = 123,456.79 accelerator-hours.
    assert fp4.accelerator_hours == pytest.approx(1e24 / (9000e12 * 0.25) / 3600)
    assert fp4.accelerator_hours == pytest.approx(fp8.accelerator_hours / 2)
    assert fp4.cost == pytest.approx(fp8.cost / 2, abs=Decimal("0.01"))


def test_serving_in_fp4_holds_half_a_byte_per_weight_and_decodes_faster_than_fp8():
    fp8 = estimate(serving_input(LLAMA_33_70B, B200_FP8, bytes_per_parameter=1.0))
    fp4 = estimate(
        serving_input(LLAMA_33_70B, B200_FP4, bytes_per_parameter=BYTES_PER_PARAMETER["fp4"])
    )
    assert fp4.inference.serving.weights_gb == pytest.approx(70.6e9 * 0.5 / 1e9)
    assert fp8.inference.serving.weights_gb == pytest.approx(70.6)
    assert (
        fp4.inference.serving.output_tokens_per_second
        > fp8.inference.serving.output_tokens_per_second
    )


def test_fp4_scalar_and_vectorised_paths_agree_exactly():
    flops = np.array([1e23, 1e24, 3e25])
    figures = evaluate(training(B200_FP4, total_flop=flops))
    for index, flop in enumerate(flops.tolist()):
        scalar = estimate(training(B200_FP4, total_flop=flop)).training
        assert figures.training_accelerator_hours[index] == scalar.accelerator_hours
    tokens = np.array([500.0, 1000.0, 4000.0])
    serving = evaluate(
        serving_input(LLAMA_33_70B, B200_FP4, output_tokens=tokens, bytes_per_parameter=0.5)
    )
    for index, output in enumerate(tokens.tolist()):
        one = estimate(
            serving_input(LLAMA_33_70B, B200_FP4, output_tokens=output, bytes_per_parameter=0.5)
        ).inference.serving
        assert serving.serving_output_tokens_per_second[index] == one.output_tokens_per_second
        assert serving.serving_batch_size[index] == one.batch_size
