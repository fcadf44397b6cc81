"""The replica a deployment would pick: the fewest accelerators at peak among the sizes that fit
and meet the latency targets, against hand computations; a given size still fixes it."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.estimates import Hardware, estimate
from tests.unit.estimates.serving_cases import (
    H100,
    H100_FP8,
    LLAMA_31_8B,
    LLAMA_33_70B,
    serving_input,
)
from tests.unit.estimates.test_serving_properties import models, plan_of, scenario

GIB = 2**30
HOURS_PER_MONTH = 730.5
# Llama 2 70B (the MLPerf Inference model): 68.98 B parameters, Llama 3.3 70B's architecture.
LLAMA_2_70B = {**LLAMA_33_70B, "parameters": 68.98e9}
# NVIDIA L4: 24 GB, 300 GB/s, 121 TFLOP/s dense bf16, eight to a server over PCIe (64 GB/s).
L4 = Hardware(
    peak_flops_per_second=121e12,
    memory_bandwidth_bytes_per_second=300e9,
    power_watts=72.0,
    memory_bytes=24e9,
    accelerators_per_node=8,
    interconnect_bytes_per_second=64e9,
)


def serving_of(model: dict, hardware: Hardware, **inputs):
    return estimate(serving_input(model, hardware, **inputs)).inference.serving


def option(serving, accelerators: int):
    (found,) = (o for o in serving.replica_choice if o.accelerators_per_replica == accelerators)
    return found


def copies(requests_per_month: float, tokens_per_second: float, output_tokens: float) -> int:
    """Copies at peak by hand: requests/s ÷ (0.7 × requests/s of one copy), rounded up."""
    arrival = requests_per_month / (HOURS_PER_MONTH * 3600)
    return math.ceil(arrival / (0.7 * tokens_per_second / output_tokens))


def test_llama_2_70b_in_fp8_on_h100_takes_two_per_copy_where_one_needs_47_copies():
    serving = serving_of(
        LLAMA_2_70B,
        H100_FP8,
        input_tokens=300,
        output_tokens=291,
        bytes_per_parameter=1.0,
        kv_cache_bytes_per_element=1.0,
        requests_per_month=100e6,
    )
    kv_per_token = 80 * 2 * 8 * 128 * 1  # 163,840 bytes in FP8
    mean_context = 300 + 291 / 2
    # One H100: 72 GB usable − 68.98 GB of weights − 2 GiB leaves 5,325 tokens: a batch of 11.
    room_one = 72e9 - 68.98e9 - 2 * GIB
    assert math.floor(math.floor(room_one / kv_per_token) / mean_context) == 11
    # Two: each holds half the weights and half the KV heads: 431,671 tokens, a batch of 968.
    room_two = 72e9 - 68.98e9 / 2 - 2 * GIB
    assert math.floor(math.floor(room_two / (kv_per_token / 2)) / mean_context) == 968
    one, two = option(serving, 1), option(serving, 2)
    assert (one.batch_size, two.batch_size) == (11, 968)
    assert one.replicas_at_peak == copies(100e6, one.output_tokens_per_second, 291) == 47
    assert two.replicas_at_peak == copies(100e6, two.output_tokens_per_second, 291) == 4
    # 8 accelerators at peak against 47: the fewest of every size considered.
    assert serving.accelerators_per_replica == 2 and serving.replicas_at_peak == 4
    peaks = [o.replicas_at_peak * o.accelerators_per_replica for o in serving.replica_choice]
    assert min(peaks) == 8 and peaks.index(8) == 1
    assert serving.replica_chosen_because == (
        "2 accelerators per copy: the fewest accelerators at peak (8); 1 per copy would need 47 "
        "copies (47 accelerators)."
    )


def test_sizes_considered_are_the_tensor_parallel_degrees_that_split_the_heads_then_nodes():
    # 405B in bf16: 811.8 GB fits no H100 node of 8 (576 GB usable): two nodes of 8 at least.
    serving = serving_of({**LLAMA_33_70B, "parameters": 405.9e9}, H100)
    assert [o.accelerators_per_replica for o in serving.replica_choice] == [1, 2, 4, 8, 16]
    assert [o.fits for o in serving.replica_choice] == [False] * 4 + [True]
    assert serving.replica_chosen_because == (
        "16 accelerator(s) per copy: the only size considered that fits (32 accelerators at peak)."
    )
    # 12 query heads split over 1, 2 and 4 accelerators but not 8: past 4, whole stages of 4.
    odd = serving_of({**LLAMA_31_8B, "query_heads": 12}, H100)
    assert [o.accelerators_per_replica for o in odd.replica_choice] == [1, 2, 4, 8]
    two_stages = plan_of(serving_input({**LLAMA_31_8B, "query_heads": 12}, H100)).options[-1]
    assert (two_stages.tensor_parallel, two_stages.pipeline_parallel) == (4, 2)


def test_a_time_per_token_target_one_accelerator_cannot_meet_forces_a_larger_replica():
    # Llama 3.1 8B in bf16: one H100 reads 16.06 GB a step at 70 % of 3.35 TB/s, 6.85 ms
    # even one request at a time; two read half each, 3.42 ms + 32 layers × 2 all-reduces.
    assert 16.06e9 / (3.35e12 * 0.7) > 0.005
    free = serving_of(LLAMA_31_8B, H100, requests_per_month=1000)
    assert free.accelerators_per_replica == 1  # one copy of each size: one accelerator is fewest
    bound = serving_of(LLAMA_31_8B, H100, requests_per_month=1000, tpot_target_seconds=0.005)
    assert not option(bound, 1).meets_targets and option(bound, 1).fits
    assert option(bound, 2).meets_targets
    assert bound.accelerators_per_replica == 2
    assert bound.tpot_seconds <= 0.005
    assert bound.replica_chosen_because == (
        "2 accelerators per copy: the fewest accelerators at peak (2) that meet the latency "
        "targets; 1 per copy cannot meet them."
    )


def test_a_time_per_token_target_can_make_the_smaller_replica_the_fewest_at_peak():
    # Llama 3.3 70B in bf16 on L4s (PCIe): one node of 8 or two in pipeline stages of 8.
    inputs = {"input_tokens": 300, "output_tokens": 300, "requests_per_month": 1e8}
    free = serving_of(LLAMA_33_70B, L4, **inputs)
    eight, sixteen = option(free, 8), option(free, 16)
    # Unbounded, two nodes hold 12 times the batch: 10 copies of 16 against 26 of 8.
    assert (eight.replicas_at_peak, sixteen.replicas_at_peak) == (26, 10)
    assert free.accelerators_per_replica == 16
    bound = serving_of(LLAMA_33_70B, L4, tpot_target_seconds=0.1, **inputs)
    # At 0.1 s a token the batch of 8 is set by the target: weights 141.2 GB ÷ 8 read at 70 %
    # of 300 GB/s (84.05 ms), 160 all-reduce latencies (0.8 ms), then per request its KV share
    # (450 × 327,680 B ÷ 8 ÷ 210 GB/s) and its activations over the link (ring 2 × 7/8 ×
    # 160 × 8,192 × 2 B ÷ 32 GB/s).
    memory = 141.2e9 / 8 / 210e9
    per_request = 450 * 327_680 / 8 / 210e9 + 1.75 * 160 * 8192 * 2 / 32e9
    assert option(bound, 8).batch_size == math.floor((0.1 - 0.8e-3 - memory) / per_request) == 65
    eight, sixteen = option(bound, 8), option(bound, 16)
    assert eight.replicas_at_peak == copies(1e8, eight.output_tokens_per_second, 300) == 33
    assert sixteen.replicas_at_peak == copies(1e8, sixteen.output_tokens_per_second, 300) == 17
    # 33 × 8 = 264 accelerators against 17 × 16 = 272: the single node is now the fewest.
    assert bound.accelerators_per_replica == 8 and bound.pipeline_parallel == 1
    assert bound.limited_by == "latency_target"


def test_a_given_replica_size_still_fixes_it():
    inputs = {"input_tokens": 300, "output_tokens": 291, "requests_per_month": 100e6}
    given = serving_of(LLAMA_33_70B, H100_FP8, bytes_per_parameter=1.0, **inputs,
                       accelerators_per_replica=8)  # fmt: skip
    assert given.accelerators_per_replica == 8 and given.replica_choice == ()
    assert given.replica_chosen_because == "8 accelerator(s) per copy, as given."


def test_no_size_meeting_the_targets_falls_back_to_the_fewest_at_peak_among_those_that_fit():
    # 0.1 ms a token: no copy of 8B reads its weights that fast.
    serving = serving_of(LLAMA_31_8B, H100, requests_per_month=1000, tpot_target_seconds=1e-4)
    assert not any(o.meets_targets for o in serving.replica_choice)
    assert serving.accelerators_per_replica == 1
    assert "no size considered meets the latency targets" in serving.replica_chosen_because


@settings(max_examples=150, deadline=None)
@given(
    model=models(),
    memory=st.floats(8e9, 300e9),
    requests=st.floats(1e3, 1e10),
    tpot=st.one_of(st.none(), st.floats(1e-3, 0.5)),
)
def test_the_chosen_replica_never_needs_more_accelerators_at_peak_than_the_smallest_that_fits(
    model, memory, requests, tpot
):
    serving = plan_of(
        scenario(model, memory, requests_per_month=requests, tpot_target_seconds=tpot)
    )
    fitting = [o for o in serving.options if o.fits]
    if not fitting:
        assert not serving.fits
        return
    meeting = [o for o in fitting if o.meets_targets]
    assert serving.fits
    if meeting or tpot is None:
        assert serving.peak_accelerators == min(o.peak_accelerators for o in meeting)
    assert serving.peak_accelerators <= fitting[0].peak_accelerators or (
        meeting and not fitting[0].meets_targets
    )
    # Ties go to the smaller copy: no smaller size that qualifies needs as few.
    chosen = serving.accelerators_per_replica
    pool = meeting or fitting
    assert not any(
        o.accelerators_per_replica < chosen and o.peak_accelerators <= serving.peak_accelerators
        for o in pool
    )
