"""The engine's benchmark: `evaluate()` on 1,000,000 random valid scenarios at once, against a
Python loop of `estimate()` (timed on the first 2,000 and extrapolated). Targets: the vectorised
run under 1 s and at least 100× faster than the loop. 200 sampled points are recomputed one by one
to check that the vectorised figures equal the scalar ones; then the ranges benchmark
(uncertainty_bench.py). Run by tests/bench/run.py.
"""

import json
import math
import time

import numpy as np

from apps.estimates import (
    EnergyProfile,
    EstimateInput,
    Figures,
    Hardware,
    InferenceInput,
    Pricing,
    Threshold,
    TrainingInput,
    estimate,
)
from tests.bench.common import ROOT, fmt_seconds, say
from tests.bench.uncertainty_bench import bench_uncertainty

try:
    from apps.estimates import evaluate
except ImportError:  # older engines exported it from the module only
    from apps.estimates.engine import evaluate


POINTS = 1_000_000
LOOP_POINTS = 2_000
SANITY_POINTS = 200
REPEATS = 3
SEED = 20_251_130

TARGET_VECTOR_SECONDS = 1.0
TARGET_SPEEDUP = 100.0


def _thresholds() -> tuple[Threshold, ...]:
    catalogue = json.loads((ROOT / "apps/catalogue/data/catalogue.json").read_text())
    return tuple(Threshold(name=t["name"], flop=float(t["flop"])) for t in catalogue["thresholds"])


def _log_uniform(rng: np.random.Generator, low: float, high: float, n: int) -> np.ndarray:
    return np.exp(rng.uniform(math.log(low), math.log(high), n))


def _growth(rng: np.random.Generator, n: int) -> np.ndarray:
    # Shrinking, flat (exactly 0, its own branch in the formulas) and growing demand.
    growth = rng.uniform(-0.05, 0.15, n)
    growth[rng.random(n) < 0.2] = 0.0
    return growth


def _common_columns(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    return {
        # Accelerators from a T4 to a B200: dense peak, memory bandwidth, power.
        "peak": _log_uniform(rng, 65e12, 2.25e15, n),
        "bandwidth": rng.uniform(0.3e12, 8e12, n),
        "power": rng.uniform(70.0, 1200.0, n),
        "pue": rng.uniform(1.05, 1.6, n),
        "kg_co2e": rng.uniform(0.02, 0.9, n),
        "electricity": rng.uniform(0.03, 0.3, n),
        "requests": _log_uniform(rng, 1e2, 1e10, n),
        "growth": _growth(rng, n),
        "months": rng.integers(1, 241, n).astype(np.float64),
        "peak_to_average": rng.uniform(1.0, 10.0, n),
        "target_utilization": rng.uniform(0.5, 0.9, n),
        "accelerator_count": np.round(_log_uniform(rng, 1, 16_384, n)),
        "mfu": rng.uniform(0.2, 0.6, n),
        "goodput": rng.uniform(0.8, 1.0, n),
        **_footprint_columns(n),
    }


def _footprint_columns(n: int) -> dict[str, np.ndarray]:
    """Life cycle and water, from a generator of their own: the other columns are drawn as
    they were before the footprint was added."""
    rng = np.random.default_rng([SEED, 27])
    return {
        # Cradle-to-gate kg CO2e of an accelerator and its share of the server, over a life of
        # 3 to 6 years; on-site WUE and the grid's water, litres per kWh.
        "embodied": rng.uniform(500.0, 5_000.0, n),
        "embodied_lifetime": rng.uniform(3.0, 6.0, n),
        "wue": rng.uniform(0.0, 2.0, n),
        "grid_water": rng.uniform(0.5, 5.0, n),
    }


def _columns_rent(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    return {
        **_common_columns(rng, n),
        "parameters": _log_uniform(rng, 1e8, 2e12, n),
        "tokens": _log_uniform(rng, 1e9, 3e13, n),
        "flop_per_parameter_token": rng.uniform(6.0, 8.0, n),
        "runs": rng.uniform(1.0, 3.0, n),
        "training_price": rng.uniform(0.5, 12.0, n),
        "seconds_per_request": _log_uniform(rng, 0.01, 30.0, n),
        "inference_price": rng.uniform(0.5, 12.0, n),
    }


def _hardware(v) -> Hardware:
    return Hardware(
        peak_flops_per_second=v("peak"),
        memory_bandwidth_bytes_per_second=v("bandwidth"),
        power_watts=v("power"),
        embodied_kg_co2e=v("embodied"),
        embodied_lifetime_years=v("embodied_lifetime"),
    )


def _energy(v) -> EnergyProfile:
    return EnergyProfile(
        pue=v("pue"),
        kg_co2e_per_kwh=v("kg_co2e"),
        electricity_price_per_kwh=v("electricity"),
        wue_litres_per_kwh=v("wue"),
        grid_water_litres_per_kwh=v("grid_water"),
    )


def _build_rent(v) -> EstimateInput:
    """parameters × tokens training, accelerator-seconds inference, rented, pay per use."""
    hardware = _hardware(v)
    return EstimateInput(
        training=TrainingInput(
            method="parameters_tokens",
            hardware=hardware,
            parameters=v("parameters"),
            tokens=v("tokens"),
            flop_per_parameter_token=v("flop_per_parameter_token"),
            runs=v("runs"),
            accelerator_count=v("accelerator_count"),
            mfu=v("mfu"),
            goodput=v("goodput"),
            pricing=Pricing(mode="rent", price_per_accelerator_hour=v("training_price")),
        ),
        inference=InferenceInput(
            method="accelerator_seconds",
            hardware=hardware,
            accelerator_seconds_per_request=v("seconds_per_request"),
            requests_per_month=v("requests"),
            monthly_growth=v("growth"),
            months=v("months"),
            peak_to_average=v("peak_to_average"),
            target_utilization=v("target_utilization"),
            provisioning="pay_per_use",
            pricing=Pricing(mode="rent", price_per_accelerator_hour=v("inference_price")),
        ),
        energy=_energy(v),
        thresholds=THRESHOLDS,
    )


def _columns_own(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    return {
        **_common_columns(rng, n),
        "total_flop": _log_uniform(rng, 1e18, 5e26, n),
        "active_parameters": _log_uniform(rng, 1e8, 4e11, n),
        "input_tokens": rng.integers(10, 8_001, n).astype(np.float64),
        "output_tokens": rng.integers(10, 2_001, n).astype(np.float64),
        "utilization": rng.uniform(0.1, 0.6, n),
        "bytes_per_parameter": rng.choice([1.0, 2.0, 4.0], n),
        "purchase_price": rng.uniform(5_000.0, 50_000.0, n),
        "lifetime_years": rng.uniform(3.0, 6.0, n),
        "utilization_of_owned": rng.uniform(0.4, 0.9, n),
    }


def _build_own(v) -> EstimateInput:
    """Total-FLOP training, tokens inference (roofline latency), owned, always on."""
    hardware = _hardware(v)
    pricing = Pricing(
        mode="own",
        purchase_price=v("purchase_price"),
        lifetime_years=v("lifetime_years"),
        utilization_of_owned=v("utilization_of_owned"),
    )
    return EstimateInput(
        training=TrainingInput(
            method="total_flop",
            hardware=hardware,
            total_flop=v("total_flop"),
            accelerator_count=v("accelerator_count"),
            mfu=v("mfu"),
            goodput=v("goodput"),
            pricing=pricing,
        ),
        inference=InferenceInput(
            method="tokens",
            hardware=hardware,
            parameters=v("active_parameters"),
            input_tokens=v("input_tokens"),
            output_tokens=v("output_tokens"),
            bytes_per_parameter=v("bytes_per_parameter"),
            utilization=v("utilization"),
            requests_per_month=v("requests"),
            monthly_growth=v("growth"),
            months=v("months"),
            peak_to_average=v("peak_to_average"),
            target_utilization=v("target_utilization"),
            provisioning="always_on",
            pricing=pricing,
        ),
        energy=_energy(v),
        thresholds=THRESHOLDS,
    )


def _columns_serve(rng: np.random.Generator, n: int) -> dict[str, np.ndarray]:
    # Language models from 1 B to 1 T parameters (a third mixtures of experts) on accelerators
    # from 16 to 288 GB, 4 or 8 to a node; a third with latency targets.
    active = _log_uniform(rng, 1e9, 4e11, n)
    moe = rng.random(n) < 0.3
    return {
        **_columns_rent(rng, n),
        "active_parameters": active,
        "total_parameters": np.where(moe, active * rng.uniform(3.0, 20.0, n), active),
        "layers": rng.integers(16, 127, n).astype(np.float64),
        "kv_heads": rng.choice([1.0, 4.0, 8.0, 16.0], n),
        "head_dim": rng.choice([64.0, 128.0, 256.0], n),
        "memory": rng.uniform(16e9, 288e9, n),
        "per_node": rng.choice([4.0, 8.0], n),
        "interconnect": rng.uniform(100e9, 1800e9, n),
        "input_tokens": rng.integers(10, 8_001, n).astype(np.float64),
        "output_tokens": rng.integers(10, 2_001, n).astype(np.float64),
        "utilization": rng.uniform(0.2, 0.6, n),
        "memory_efficiency": rng.uniform(0.55, 0.8, n),
        "bytes_per_parameter": rng.choice([0.5, 1.0, 2.0], n),
        "tpot_target": np.where(rng.random(n) < 0.3, rng.uniform(0.01, 0.2, n), 10.0),
        # Sliding windows (Gemma, gpt-oss, Llama 4): half to five sixths of the layers.
        "sliding_window": rng.choice([128.0, 1024.0, 4096.0, 8192.0], n),
        "window_share": rng.choice([0.5, 5.0 / 6.0], n),
        "inference_price": rng.uniform(0.5, 12.0, n),
    }


def _build_serve(v) -> EstimateInput:
    """Parameters × tokens training and tokens inference serving a language model (replica,
    batch, latency target), rented, always on."""
    hardware = Hardware(
        peak_flops_per_second=v("peak"),
        memory_bandwidth_bytes_per_second=v("bandwidth"),
        power_watts=v("power"),
        memory_bytes=v("memory"),
        accelerators_per_node=v("per_node"),
        interconnect_bytes_per_second=v("interconnect"),
        embodied_kg_co2e=v("embodied"),
        embodied_lifetime_years=v("embodied_lifetime"),
    )
    return EstimateInput(
        training=_build_rent(v).training,
        inference=InferenceInput(
            method="tokens",
            hardware=hardware,
            parameters=v("active_parameters"),
            total_parameters=v("total_parameters"),
            layers=v("layers"),
            kv_heads=v("kv_heads"),
            head_dim=v("head_dim"),
            sliding_window=v("sliding_window"),
            sliding_window_layers=np.maximum(1.0, np.floor(v("layers") * v("window_share"))),
            input_tokens=v("input_tokens"),
            output_tokens=v("output_tokens"),
            bytes_per_parameter=v("bytes_per_parameter"),
            utilization=v("utilization"),
            memory_efficiency=v("memory_efficiency"),
            tpot_target_seconds=v("tpot_target"),
            requests_per_month=v("requests"),
            monthly_growth=v("growth"),
            months=v("months"),
            peak_to_average=v("peak_to_average"),
            target_utilization=v("target_utilization"),
            provisioning="always_on",
            pricing=Pricing(mode="rent", price_per_accelerator_hour=v("inference_price")),
        ),
        energy=_energy(v),
        thresholds=THRESHOLDS,
    )


THRESHOLDS = _thresholds()
SCENARIOS = (
    (
        "rent",
        "parameters×tokens training + accelerator-seconds inference, rented, pay per use",
        _columns_rent,
        _build_rent,
    ),
    (
        "own",
        "total-FLOP training + tokens inference (roofline), owned, always on",
        _columns_own,
        _build_own,
    ),
    (
        "serve",
        "parameters×tokens training + tokens inference serving a language model, always on",
        _columns_serve,
        _build_serve,
    ),
)

FIGURE_NAMES = tuple(Figures.__dataclass_fields__)
# Figures of `evaluate` and where `estimate` reports the same quantity; money is a Decimal there.
ESTIMATE_FIELDS = {
    "training_flop": ("training.flop", False),
    "training_accelerator_hours": ("training.accelerator_hours", False),
    "training_wall_clock_hours": ("training.wall_clock_hours", False),
    "training_cost": ("training.cost", True),
    "training_energy_kwh": ("training.energy_kwh", False),
    "training_emissions_kg_co2e": ("training.emissions_kg_co2e", False),
    "training_embodied_kg_co2e": ("training.embodied_kg_co2e", False),
    "training_water_litres": ("training.water_litres", False),
    "inference_accelerator_seconds_per_request": (
        "inference.per_request.accelerator_seconds",
        False,
    ),
    "inference_latency_seconds": ("inference.per_request.latency_seconds", False),
    "inference_total_requests": ("inference.total.requests", False),
    "inference_accelerator_hours": ("inference.total.accelerator_hours", False),
    "inference_cost": ("inference.total.cost", True),
    "inference_energy_kwh": ("inference.total.energy_kwh", False),
    "inference_emissions_kg_co2e": ("inference.total.emissions_kg_co2e", False),
    "inference_embodied_kg_co2e": ("inference.total.embodied_kg_co2e", False),
    "inference_water_litres": ("inference.total.water_litres", False),
    "peak_accelerators": ("inference.peak_accelerators", False),
    "cost_per_request": ("inference.per_request.cost", True),
    "break_even_months": ("comparison.break_even_months", False),
    "training_share": ("comparison.training_share", False),
    # serving_*: compared with the scalar evaluate() only (estimate() has None where NaN).
}
REL_TOLERANCE = 1e-12
# NaN where a language model fits no replica: nothing resting on one can be true.
REPLICA_FIGURES = frozenset(
    {
        "inference_accelerator_seconds_per_request",
        "inference_latency_seconds",
        "inference_accelerator_hours",
        "inference_cost",
        "inference_energy_kwh",
        "inference_emissions_kg_co2e",
        "inference_embodied_kg_co2e",
        "inference_water_litres",
        "peak_accelerators",
        "cost_per_request",
        "training_share",
    }
)


def _scalar_getter(columns: dict[str, np.ndarray], index: int):
    def value(name: str):
        number = float(columns[name][index])
        return int(number) if name == "months" else number

    return value


def _attribute(obj: object, dotted: str) -> object:
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def _relative_difference(a: float, b: float) -> float:
    if math.isnan(a) or math.isnan(b):
        return 0.0 if math.isnan(a) and math.isnan(b) else math.inf
    if a == b:
        return 0.0
    return abs(a - b) / max(abs(a), abs(b))


def _sanity(columns, build, figures: Figures, sample: np.ndarray) -> dict:
    """Recompute sampled points one by one: `evaluate` on scalars and `estimate` (money rounded)."""
    max_evaluate, max_estimate, max_money_cents = 0.0, 0.0, 0.0
    mismatches: list[str] = []
    for index in sample:
        index = int(index)
        inp = build(_scalar_getter(columns, index))
        one = evaluate(inp)
        result = estimate(inp)
        for name in FIGURE_NAMES:
            vector = float(np.asarray(getattr(figures, name))[index])
            scalar = float(getattr(one, name))
            difference = _relative_difference(vector, scalar)
            max_evaluate = max(max_evaluate, difference)
            if difference > REL_TOLERANCE:
                mismatches.append(f"point {index} {name}: evaluate {scalar!r} vs {vector!r}")
            if name not in ESTIMATE_FIELDS:
                continue
            dotted, money = ESTIMATE_FIELDS[name]
            reported = _attribute(result, dotted)
            if money and reported is None:  # a model that fits no replica: no cost
                if not math.isnan(vector):
                    mismatches.append(f"point {index} {dotted}: estimate None vs {vector!r}")
                continue
            if money:
                # Rounded to the cent once, half up: at most half a cent from the float.
                cents = abs(float(reported) - vector) * 100
                max_money_cents = max(max_money_cents, cents)
                if cents > 0.5 + abs(vector) * 100 * REL_TOLERANCE:
                    mismatches.append(f"point {index} {dotted}: estimate {reported} vs {vector!r}")
                continue
            reported = math.nan if reported is None else float(reported)
            difference = _relative_difference(vector, reported)
            max_estimate = max(max_estimate, difference)
            if difference > REL_TOLERANCE:
                mismatches.append(f"point {index} {dotted}: estimate {reported!r} vs {vector!r}")
    return {
        "points": len(sample),
        "max_relative_difference_evaluate": max_evaluate,
        "max_relative_difference_estimate": max_estimate,
        "max_money_difference_cents": max_money_cents,
        "tolerance": REL_TOLERANCE,
        "mismatches": len(mismatches),
        "first_mismatches": mismatches[:10],
        "ok": not mismatches,
    }


def bench_engine_scenario(name: str, description: str, make_columns, build) -> dict:
    rng = np.random.default_rng([SEED, len(name)])
    started = time.perf_counter()
    columns = make_columns(rng, POINTS)
    vector_input = build(lambda key: columns[key])
    built = time.perf_counter() - started

    evaluate(vector_input)  # warm-up: first-call costs, page faults of the result arrays
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        figures = evaluate(vector_input)
        times.append(time.perf_counter() - started)
    vector_seconds = min(times)

    loop_inputs = [build(_scalar_getter(columns, i)) for i in range(LOOP_POINTS)]
    estimate(loop_inputs[0])
    evaluate(loop_inputs[0])
    started = time.perf_counter()
    for inp in loop_inputs:
        estimate(inp)
    estimate_loop = time.perf_counter() - started
    started = time.perf_counter()
    for inp in loop_inputs:
        evaluate(inp)
    evaluate_loop = time.perf_counter() - started
    per_point = estimate_loop / LOOP_POINTS
    per_point_evaluate = evaluate_loop / LOOP_POINTS

    sample = np.random.default_rng([SEED, 7]).choice(POINTS, SANITY_POINTS, replace=False)
    sanity = _sanity(columns, build, figures, sample)
    finite = {
        key: int(np.count_nonzero(~np.isfinite(np.asarray(getattr(figures, key)))))
        for key in FIGURE_NAMES
    }
    return {
        "scenario": name,
        "description": description,
        "points": POINTS,
        "input_generation_seconds": built,
        "vectorised_seconds_best": vector_seconds,
        "vectorised_seconds_all": times,
        "vectorised_points_per_second": POINTS / vector_seconds,
        "loop_points": LOOP_POINTS,
        "estimate_loop_seconds": estimate_loop,
        "estimate_seconds_per_point": per_point,
        "estimate_points_per_second": 1 / per_point,
        "estimate_loop_extrapolated_seconds": per_point * POINTS,
        "speedup_vs_estimate_loop": per_point * POINTS / vector_seconds,
        "evaluate_scalar_seconds_per_point": per_point_evaluate,
        "speedup_vs_scalar_evaluate_loop": per_point_evaluate * POINTS / vector_seconds,
        "non_finite_figures": {key: count for key, count in finite.items() if count},
        "sanity": sanity,
    }


def report_engine_scenario(r: dict) -> None:
    ok_time = r["vectorised_seconds_best"] < TARGET_VECTOR_SECONDS
    ok_speed = r["speedup_vs_estimate_loop"] >= TARGET_SPEEDUP
    all_runs = ", ".join(fmt_seconds(t) for t in r["vectorised_seconds_all"])
    s = r["sanity"]
    say(f"  Scenario {r['scenario']!r}: {r['description']}")
    say(
        f"    evaluate() on {r['points']:,} points   {fmt_seconds(r['vectorised_seconds_best'])}"
        f" best of {REPEATS} ({all_runs})  -> {r['vectorised_points_per_second']:,.0f} points/s"
        f"   [target < {TARGET_VECTOR_SECONDS:g} s: {'PASS' if ok_time else 'MISS'}]"
    )
    say(
        f"    estimate() loop                {fmt_seconds(r['estimate_seconds_per_point'])}/point"
        f" over {r['loop_points']:,} = {r['estimate_points_per_second']:,.0f} points/s"
        f" -> {r['estimate_loop_extrapolated_seconds']:,.1f} s for {r['points']:,} (extrapolated)"
    )
    say(
        f"    speed-up vs estimate() loop    {r['speedup_vs_estimate_loop']:,.0f}x"
        f"   [target >= {TARGET_SPEEDUP:g}x: {'PASS' if ok_speed else 'MISS'}]"
    )
    say(
        f"    (scalar evaluate() loop: {fmt_seconds(r['evaluate_scalar_seconds_per_point'])}/point,"
        f" speed-up {r['speedup_vs_scalar_evaluate_loop']:,.0f}x; headline figures only,"
        " no monthly series or Decimal money)"
    )
    say(
        f"    sanity on {s['points']} sampled points: max relative difference vectorised vs"
        f" scalar evaluate() {s['max_relative_difference_evaluate']:.2e}, vs estimate()"
        f" {s['max_relative_difference_estimate']:.2e}; money within"
        f" {s['max_money_difference_cents']:.3f} cent (rounded to the cent)"
        f"   [{'OK' if s['ok'] else 'FAIL: ' + str(s['mismatches']) + ' mismatches'}]"
    )
    for line in s["first_mismatches"]:
        say(f"      {line}")
    if r["non_finite_figures"]:
        nans = ", ".join(f"{k} {v:,}" for k, v in r["non_finite_figures"].items())
        say(
            f"    NaN figures (expected: break-even 'never'; serving without a plan or a fit): {nans}"
        )


def bench_engine() -> dict:
    say("== Engine: vectorised evaluate() against a per-point estimate() loop ==")
    results = []
    for name, description, make_columns, build in SCENARIOS:
        result = bench_engine_scenario(name, description, make_columns, build)
        report_engine_scenario(result)
        results.append(result)
    # NaN is expected for break-even "never", for serving figures without a plan or a fit, and
    # for every figure resting on a replica where the model fits none (no more points than that).
    unexpected_nan = any(
        key != "break_even_months"
        and not key.startswith("serving_")
        and not (
            key in REPLICA_FIGURES
            and count <= r["non_finite_figures"].get("serving_accelerators_per_replica", 0)
        )
        for r in results
        for key, count in r["non_finite_figures"].items()
    )
    say()
    ranges = bench_uncertainty()
    return {
        "scenarios": results,
        "uncertainty": ranges,
        "vectorised_seconds_worst": max(r["vectorised_seconds_best"] for r in results),
        "speedup_min": min(r["speedup_vs_estimate_loop"] for r in results),
        "sanity_ok": all(r["sanity"]["ok"] for r in results) and not unexpected_nan,
    }
