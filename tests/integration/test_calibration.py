"""The calibration table against the planner at its defaults (issue 20): every published result
holds within its bound (throughput per accelerator within 2×, FLOP within 1 %, accelerator-hours
within 2× at the default MFU), or this test fails and says which case is off and by how much."""

import json
import re
from statistics import geometric_mean

import pytest

from apps.catalogue.calibration import (
    ACCELERATOR_HOURS,
    BOUNDS,
    FLOP,
    THROUGHPUT,
    calibrate,
    calibrate_case,
    calibration_cases,
)
from apps.catalogue.snapshot import Catalogue
from apps.estimates import TrainingInput
from apps.estimates.units import PRECISIONS

pytestmark = pytest.mark.django_db
CASES = calibration_cases()


@pytest.mark.parametrize("case", CASES, ids=[case.slug for case in CASES])
def test_the_planner_at_its_defaults_holds_against_the_published_result(case):
    row = calibrate_case(case, Catalogue.load())
    assert not row.errors, f"{case.slug}: the planner refuses the request: {row.errors}"
    low, high = case.bounds
    assert row.holds, (
        f"{case.slug}: planner {row.computed:.4g} against published {case.published_figure:.4g}, "
        f"ratio {row.ratio:.3f} outside [{low}, {high}]"
    )


def test_the_table_has_every_kind_of_result_the_issue_names():
    assert len(CASES) >= 12
    kinds = {case.kind for case in CASES}
    assert kinds == {THROUGHPUT, FLOP, ACCELERATOR_HOURS}
    throughput = [case for case in CASES if case.kind == THROUGHPUT]
    assert {"offline", "server"} <= {case.scenario for case in throughput}
    accelerators = {case.request["inference"]["accelerator"] for case in throughput}
    assert {"nvidia-h100-sxm", "nvidia-h200-sxm", "nvidia-b200", "nvidia-gb200", "amd-mi300x"} <= (
        accelerators
    )
    models = {case.model_name for case in CASES}
    assert {"Llama 2 70B", "Llama 3.1 405B", "Mixtral 8x7B", "DeepSeek-R1"} <= models
    assert {"Llama 3.1 8B", "Llama 3.1 70B", "DeepSeek-V3", "GPT-3 175B"} <= models


@pytest.mark.parametrize("case", CASES, ids=[case.slug for case in CASES])
def test_every_case_carries_its_source_date_evidence_and_conditions(case):
    assert re.match(r"https://\S+$", case.source)
    assert case.evidence in {"P", "S", "D", "U"}
    assert case.notes
    assert case.kind in BOUNDS
    if case.kind == THROUGHPUT:
        section = case.request["inference"]
        assert case.precision in PRECISIONS
        assert case.accelerator_count >= 1
        assert (section["input_tokens"], section["output_tokens"]) == (
            case.input_tokens,
            case.output_tokens,
        )
        assert section["precision"] == case.precision
        # A length the result does not publish is said to be assumed, and why.
        if not case.input_tokens_published:
            assert "assumed" in case.notes
        if case.scenario == "server":
            assert case.ttft_target_seconds and case.tpot_target_seconds
            assert section["tpot_target_seconds"] == case.tpot_target_seconds
    else:
        section = case.request["training"]
        assert (section["parameters"], section["tokens"]) == (case.parameters, case.tokens)
        # The default MFU: a case that set its own would not test the defaults.
        assert "mfu" not in section


def test_published_throughput_is_compared_per_accelerator():
    case = next(c for c in CASES if c.slug == "mlperf-4.1-llama-2-70b-8x-h100-offline")
    assert case.published == 24524.9 and case.accelerator_count == 8
    assert case.published_figure == pytest.approx(3065.6, abs=0.1)


@pytest.mark.parametrize("case", CASES, ids=[case.slug for case in CASES])
def test_the_table_shows_what_the_api_answers_for_the_same_request(case, client):
    """One path: the figure in the table is the figure an integrator gets for the request."""
    row = calibrate_case(case, Catalogue.load())
    response = client.post(
        "/api/v1/estimate/", data=json.dumps(case.request), content_type="application/json"
    )
    if row.errors:
        assert response.status_code == 400
        return
    assert response.status_code == 200, response.json()
    body = response.json()
    if case.kind == THROUGHPUT:
        serving = body["inference"]["serving"]
        api_figure = serving["output_tokens_per_second"] / serving["accelerators_per_replica"]
    elif case.kind == FLOP:
        api_figure = body["training"]["flop"]
    else:
        api_figure = body["training"]["accelerator_hours"]
    assert api_figure == pytest.approx(row.computed, rel=1e-9)


def test_calibrate_gives_one_row_per_case_in_the_files_order():
    rows = calibrate()
    assert [row.case.slug for row in rows] == [case.slug for case in CASES]


def test_the_default_mfu_is_the_geometric_mean_of_what_the_published_runs_reached():
    """Planner hours = FLOP ÷ (peak × default MFU) and published hours = FLOP ÷ (peak × the MFU
    the run reached), so each run reached default × ratio (apps.estimates.assumptions)."""
    default = TrainingInput(method="parameters_tokens").mfu
    rows = [row for row in calibrate() if row.case.kind == ACCELERATOR_HOURS]
    reached = {row.case.model_name: default * row.ratio for row in rows}
    assert {name: round(mfu, 2) for name, mfu in reached.items()} == {
        "Llama 3.1 8B": 0.14,
        "Llama 3.1 70B": 0.25,
        "Llama 3.1 405B": 0.35,
        "DeepSeek-V3": 0.33,
    }
    assert geometric_mean(reached.values()) == pytest.approx(0.2523, abs=5e-5)
    assert default == round(geometric_mean(reached.values()), 2)
