"""A catalogue change marks the sweeps and scenarios using the changed row stale at once and has
them recomputed; pages say "stale since …" until they are fresh again."""

from decimal import Decimal

import pytest
from django.db import connection
from django.template import Context, Template
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.catalogue.models import Accelerator, EnergyProfile, PriceOffer
from apps.sweeps import runs, services, tasks
from apps.sweeps.models import ScenarioFreshness, Sweep, SweepChunk
from apps.sweeps.selectors import sweep_summary
from apps.sweeps.storage import columns_decode
from tests.factories import (
    DEMAND_SWEEP,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)

pytestmark = pytest.mark.django_db
DEMAND = DEMAND_SWEEP


@pytest.fixture
def manager():
    return make_manager()


@pytest.fixture
def sent(monkeypatch) -> list[tuple]:
    """Every task queued on commit, by name, recorded instead of sent."""
    calls = []
    for task in (tasks.sweep_run_chunk, tasks.sweep_requeue_run, tasks.scenario_recheck):
        name = task.name.rpartition(".")[2]
        monkeypatch.setattr(task, "delay", lambda *args, name=name: calls.append((name, *args)))
    return calls


def completed_sweep(scenario, manager, **definition) -> Sweep:
    sweep = services.sweep_create(
        scenario=scenario, created_by=manager, definition={"inputs": [DEMAND], **definition}
    )
    runs.sweep_chunk_store(sweep_id=sweep.pk, run=1, chunk_index=0)
    sweep.refresh_from_db()
    assert sweep.status == "completed"
    return sweep


def cheapest_cost(sweep: Sweep) -> float:
    return sweep_summary(sweep).figures["total_cost"]["min"]


def test_a_price_change_marks_the_sweeps_using_it_stale_at_once_and_recomputes_them(
    manager, sent, django_capture_on_commit_callbacks
):
    project = make_project(manager)
    on_h100 = completed_sweep(make_scenario(project), manager)
    on_l4 = completed_sweep(
        make_scenario(
            project,
            "On L4s",
            inputs={"inference": seed_000_inference(1000, accelerator="nvidia-l4")},
        ),
        manager,
    )
    compared = completed_sweep(
        make_scenario(
            project,
            "On L4s too",
            inputs={"inference": seed_000_inference(1000, accelerator="nvidia-l4")},
        ),
        manager,
        accelerators=["nvidia-l4", "nvidia-h100-sxm"],
    )
    before = cheapest_cost(on_h100)
    sent.clear()

    with django_capture_on_commit_callbacks(execute=True):
        for offer in PriceOffer.objects.filter(accelerator__slug="nvidia-h100-sxm", kind="rent"):
            offer.price_per_accelerator_hour *= 2
            offer.save()

    for sweep in (on_h100, compared):
        sweep.refresh_from_db()
        assert sweep.stale_since is not None
        assert (sweep.status, sweep.run, sweep.chunks_done, sweep.results_run) == (
            "queued",
            sweep.run,
            0,
            1,
        )
        assert sweep.run > 1
        assert ("sweep_requeue_run", sweep.pk, sweep.run, 1) in sent
    on_l4.refresh_from_db()
    assert on_l4.stale_since is None and on_l4.run == 1
    # The stale results stay readable until the new run has finished.
    assert cheapest_cost(on_h100) == before

    # The recomputation, as the tasks it queued run it.
    for name, *args in list(sent):
        if name == "sweep_requeue_run":
            tasks.sweep_requeue_run.run(*args)
    for name, *args in list(sent):
        if name == "sweep_run_chunk":
            runs.sweep_chunk_store(sweep_id=args[0], run=args[1], chunk_index=args[2])
    on_h100.refresh_from_db()
    assert (on_h100.status, on_h100.stale_since, on_h100.results_run) == (
        "completed",
        None,
        on_h100.run,
    )
    assert SweepChunk.objects.filter(sweep=on_h100).count() == 1  # the old run's chunk is gone
    assert cheapest_cost(on_h100) > before


def test_a_chunk_computed_before_the_change_is_never_stored(manager, sent):
    scenario = make_scenario(make_project(manager))
    sweep = services.sweep_create(
        scenario=scenario, created_by=manager, definition={"inputs": [DEMAND]}
    )
    accelerator = Accelerator.objects.get(slug="nvidia-h100-sxm")
    accelerator.power_watts = 650
    accelerator.save()
    assert not runs.sweep_chunk_store(sweep_id=sweep.pk, run=1, chunk_index=0)
    assert not SweepChunk.objects.exists()
    sweep.refresh_from_db()
    assert sweep.run == 2 and sweep.status == "queued" and sweep.stale_since is not None


def test_the_chunks_of_a_run_read_the_catalogue_once_and_a_new_run_reads_it_again(manager, sent):
    sweep = services.sweep_create(
        scenario=make_scenario(make_project(manager)),
        created_by=manager,
        definition={"inputs": [DEMAND]},
        chunk_size=1,
    )

    def store(run: int, chunk_index: int) -> list[str]:
        """The catalogue queries of computing and storing one chunk."""
        with CaptureQueriesContext(connection) as queries:
            assert runs.sweep_chunk_store(sweep_id=sweep.pk, run=run, chunk_index=chunk_index)
        return [query["sql"] for query in queries if 'FROM "catalogue_' in query["sql"]]

    def cost(run: int) -> float:
        chunk = SweepChunk.objects.get(sweep=sweep, run=run, index=0)
        return float(columns_decode(chunk.results, ("inference_cost",))["inference_cost"][0])

    assert store(1, 0)
    assert store(1, 1) == []
    for offer in PriceOffer.objects.filter(accelerator__slug="nvidia-h100-sxm", kind="rent"):
        offer.price_per_accelerator_hour *= 2
        offer.save()
    sweep.refresh_from_db()
    assert sweep.run > 1  # each offer saved started a run
    assert store(sweep.run, 0)  # the new run's first chunk reads the changed prices
    assert cost(sweep.run) == pytest.approx(2 * cost(1), rel=1e-12)


def test_an_energy_profile_change_reaches_scenarios_on_the_default_profile(manager, sent):
    project = make_project(manager)
    default = make_scenario(project)
    german = make_scenario(
        project,
        "German grid",
        inputs={**default.inputs, "energy_profile": "germany-grid-industry-pue"},
    )
    sweep = completed_sweep(default, manager)
    profile = EnergyProfile.objects.get(slug="world-average-grid-industry-pue")
    profile.kg_co2e_per_kwh = 0.5
    profile.save()
    sweep.refresh_from_db()
    assert sweep.stale_since is not None
    assert ScenarioFreshness.objects.get(scenario=default).stale_since is not None
    assert not ScenarioFreshness.objects.filter(scenario=german).exists()


def test_a_cancelled_sweep_is_marked_stale_but_not_recomputed(manager, sent):
    sweep = completed_sweep(make_scenario(make_project(manager)), manager)
    Sweep.objects.filter(pk=sweep.pk).update(status="cancelled")
    Accelerator.objects.get(slug="nvidia-h100-sxm").save()
    sweep.refresh_from_db()
    assert sweep.status == "cancelled" and sweep.run == 1 and sweep.stale_since is not None


def test_a_scenario_is_stale_until_rechecked_and_keeps_any_problem_found(
    manager, sent, django_capture_on_commit_callbacks
):
    scenario = make_scenario(
        make_project(manager),
        inputs={"inference": seed_000_inference(1000, accelerator="nvidia-l4")},
    )
    client = Client()
    client.force_login(manager)
    with django_capture_on_commit_callbacks(execute=True):
        PriceOffer.objects.filter(accelerator__slug="nvidia-l4", kind="rent").delete()
    freshness = ScenarioFreshness.objects.get(scenario=scenario)
    assert freshness.stale_since is not None
    page = client.get(f"/scenarios/{scenario.pk}/sweeps/new/").content.decode()
    assert "Stale since" in page
    tag = Template("{% load sweeps %}{% scenario_freshness scenario %}")
    assert "Stale since" in tag.render(Context({"scenario": scenario}))
    rechecks = [args for name, *args in sent if name == "scenario_recheck"]
    assert rechecks and rechecks[-1] == [scenario.pk, freshness.version]
    assert runs.scenario_freshness_check(scenario_id=scenario.pk, version=freshness.version)
    freshness.refresh_from_db()
    assert freshness.stale_since is None
    assert "the catalogue has no rental price for NVIDIA L4" in freshness.problem
    page = client.get(f"/scenarios/{scenario.pk}/sweeps/new/").content.decode()
    assert "no longer serves this scenario as it stands" in page
    # An older recheck, finishing after a newer change, leaves the scenario stale.
    PriceOffer.objects.create(
        accelerator=Accelerator.objects.get(slug="nvidia-l4"),
        kind="rent",
        provider="Test",
        price_per_accelerator_hour=Decimal("0.8"),
        source="test",
        as_of="2025-01-01",
    )
    assert not runs.scenario_freshness_check(scenario_id=scenario.pk, version=freshness.version)
    assert ScenarioFreshness.objects.get(scenario=scenario).stale_since is not None


def test_the_sweep_page_says_stale_since_until_fresh(manager, sent):
    sweep = completed_sweep(make_scenario(make_project(manager)), manager)
    client = Client()
    client.force_login(manager)
    Accelerator.objects.get(slug="nvidia-h100-sxm").save()
    page = client.get(f"/sweeps/{sweep.pk}/").content.decode()
    assert "Stale since" in page
    assert "The sweep is being recomputed; the results below are from before the change." in page
    assert "Download every point as CSV" in page
    sweep.refresh_from_db()
    runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=0)
    assert "Stale since" not in client.get(f"/sweeps/{sweep.pk}/").content.decode()
