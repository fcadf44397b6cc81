"""A catalogue change marks the sweeps and scenarios using the changed row stale at once, and has
Celery recompute them (receivers connected in apps.sweeps.wiring)."""

from functools import partial

from django.db import transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from apps.catalogue.models import Accelerator, EnergyProfile, LanguageModel, PriceOffer
from apps.catalogue.resolve import DEFAULT_ENERGY_PROFILE
from apps.projects.models import Scenario
from apps.sweeps import tasks
from apps.sweeps.models import ScenarioFreshness, Sweep


def catalogue_key(row: object) -> str | None:
    """ "accelerator:<slug>", "energy:<slug>" or "model:<slug>": what a changed catalogue row
    affects."""
    if isinstance(row, Accelerator):
        return f"accelerator:{row.slug}"
    if isinstance(row, PriceOffer):
        # By id: when an accelerator is deleted its offers go first, while its row still exists.
        slug = Accelerator.objects.filter(pk=row.accelerator_id).values_list("slug", flat=True)
        return f"accelerator:{slug.first()}" if slug.exists() else None
    if isinstance(row, EnergyProfile):
        return f"energy:{row.slug}"
    if isinstance(row, LanguageModel):
        return f"model:{row.slug}"
    return None


@transaction.atomic
def sweeps_mark_stale(*, key: str) -> list[int]:
    """Restart every sweep using the row on a new run, marked stale until that run completes.

    Cancelled sweeps are not recomputed; those with results are marked stale.
    """
    now = timezone.now()
    using = Sweep.objects.filter(catalogue_keys__contains=f" {key} ")
    using.filter(status=Sweep.Status.CANCELLED, results_run__isnull=False).update(
        stale_since=Coalesce(F("stale_since"), Value(now))
    )
    ids = list(using.exclude(status=Sweep.Status.CANCELLED).values_list("pk", flat=True))
    if not ids:
        return []
    Sweep.objects.filter(pk__in=ids).update(
        run=F("run") + 1,
        status=Sweep.Status.QUEUED,
        chunks_done=0,
        points_done=0,
        error="",
        started_at=None,
        finished_at=None,
        stale_since=Coalesce(F("stale_since"), Value(now)),
        heartbeat_at=None,  # the new run is a task's, not a server thread's
    )
    # Read after the update, which holds the rows' locks: these runs are the ones to compute.
    for pk, run, total_chunks in Sweep.objects.filter(pk__in=ids).values_list(
        "pk", "run", "total_chunks"
    ):
        transaction.on_commit(partial(tasks.sweep_requeue_run.delay, pk, run, total_chunks))
    return ids


def _scenarios_using(key: str) -> Q:
    kind, _, slug = key.partition(":")
    if kind == "accelerator":
        return Q(inputs__training__accelerator=slug) | Q(inputs__inference__accelerator=slug)
    if kind == "model":
        return Q(inputs__inference__model=slug)
    using = Q(inputs__energy_profile=slug)
    if slug == DEFAULT_ENERGY_PROFILE:
        using |= Q(inputs__energy_profile__isnull=True) | Q(inputs__energy_profile="")
    return using


@transaction.atomic
def scenarios_mark_stale(*, key: str) -> list[int]:
    """Mark every scenario using the row stale and have its estimate rechecked."""
    now = timezone.now()
    ids = list(Scenario.objects.filter(_scenarios_using(key)).values_list("pk", flat=True))
    if not ids:
        return []
    rows = ScenarioFreshness.objects.filter(scenario_id__in=ids)
    rows.update(version=F("version") + 1, stale_since=Coalesce(F("stale_since"), Value(now)))
    known = set(rows.values_list("scenario_id", flat=True))
    missing = [pk for pk in ids if pk not in known]
    ScenarioFreshness.objects.bulk_create(
        [ScenarioFreshness(scenario_id=pk, version=1, stale_since=now) for pk in missing],
        ignore_conflicts=True,
    )
    for scenario_id, version in rows.values_list("scenario_id", "version"):
        transaction.on_commit(partial(tasks.scenario_recheck.delay, scenario_id, version))
    return ids


def catalogue_row_changed(sender, instance, raw: bool = False, **kwargs) -> None:
    """post_save and post_delete receiver of accelerators, price offers and energy profiles."""
    key = None if raw else catalogue_key(instance)
    if key:
        sweeps_mark_stale(key=key)
        scenarios_mark_stale(key=key)
