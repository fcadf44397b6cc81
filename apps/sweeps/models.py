"""A sweep, its stored chunks of results, and whether a scenario caught up with the catalogue."""

from functools import cached_property

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from apps.estimates.currency import ExchangeRate
from apps.estimates.record import load
from apps.projects.models import Project, Scenario

# The currency of prices not converted: the catalogue's.
PRICE_CURRENCY = "USD"


class SweepQuerySet(models.QuerySet):
    def for_user(self, user) -> "SweepQuerySet":
        """Sweeps of the scenarios this user may see: their projects' and those shared with them."""
        return self.filter(scenario__project__in=Project.objects.for_user(user))


class Sweep(models.Model):
    """A scenario with inputs varied over ranges; its points are computed in chunks by Celery.

    `run` counts computations: a catalogue change starts a new one at once, and a chunk computed
    for an older run is never stored. `results_run` is the last run that finished, whose results
    the pages show (marked "stale since …" while a newer run is under way).
    """

    class Status(models.TextChoices):
        QUEUED = "queued", pgettext_lazy("sweep status", "Queued")
        RUNNING = "running", pgettext_lazy("sweep status", "Running")
        COMPLETED = "completed", pgettext_lazy("sweep status", "Completed")
        FAILED = "failed", pgettext_lazy("sweep status", "Failed")
        CANCELLED = "cancelled", pgettext_lazy("sweep status", "Cancelled")

    ACTIVE = (Status.QUEUED, Status.RUNNING)

    scenario = models.ForeignKey(
        Scenario, on_delete=models.CASCADE, related_name="sweeps", verbose_name=_("scenario")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("defined by"),
    )
    name = models.CharField(_("name"), max_length=200)
    definition = models.JSONField(
        _("definition"), help_text=_("Varied inputs and accelerators, normalised.")
    )
    base_inputs = models.JSONField(
        _("scenario inputs"), help_text=_("The scenario's inputs when the sweep was made.")
    )
    exchange = models.JSONField(
        _("exchange rate"),
        null=True,
        blank=True,
        help_text=_(
            "The rate the scenario's prices (in US dollars) were converted into the "
            "project's currency at, pinned when the sweep was made (apps.estimates.record); null: "
            "in US dollars, not converted."
        ),
    )
    catalogue_keys = models.TextField(
        _("catalogue rows used"),
        help_text=_("The catalogue rows whose change makes the sweep stale."),
    )
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.QUEUED)
    total_points = models.PositiveIntegerField(_("points"))
    chunk_size = models.PositiveIntegerField(_("points per chunk"))
    total_chunks = models.PositiveIntegerField(_("chunks"))
    chunks_done = models.PositiveIntegerField(_("chunks computed"), default=0)
    points_done = models.PositiveIntegerField(_("points computed"), default=0)
    run = models.PositiveIntegerField(
        _("run"), default=1, help_text=_("One more each time a catalogue change restarts it.")
    )
    results_run = models.PositiveIntegerField(_("run of the results shown"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    stale_since = models.DateTimeField(_("stale since"), null=True, blank=True)
    heartbeat_at = models.DateTimeField(
        _("server last seen"),
        null=True,
        blank=True,
        help_text=_(
            "Without a task broker: when the server computing it last showed it was alive."
        ),
    )

    objects = SweepQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("sweep")
        verbose_name_plural = _("sweeps")

    def __str__(self) -> str:
        return f"{self.scenario}: {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("sweep-detail", args=[self.pk])

    @cached_property
    def exchange_rate(self) -> ExchangeRate | None:
        """The rate the sweep's prices were converted at, pinned when it was made; None: not
        converted (US dollars)."""
        return None if self.exchange is None else load(self.exchange, ExchangeRate)

    @property
    def currency(self) -> str:
        """The currency of every amount of the sweep: its project's when it was made."""
        rate = self.exchange_rate
        return PRICE_CURRENCY if rate is None else rate.to_currency

    @property
    def is_active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def has_results(self) -> bool:
        return self.results_run is not None

    @property
    def percent_done(self) -> int:
        """Whole percent of points computed; 100 only when every point is."""
        if not self.total_points:
            return 0
        percent = self.points_done * 100 // self.total_points
        return 99 if percent == 100 and self.points_done < self.total_points else percent


class SweepChunk(models.Model):
    """The figures of one range of points (never one row per point), written once per run."""

    sweep = models.ForeignKey(Sweep, on_delete=models.CASCADE, related_name="chunks")
    run = models.PositiveIntegerField()
    index = models.PositiveIntegerField()
    point_count = models.PositiveIntegerField()
    results = models.BinaryField(help_text="Every figure of every point: apps.sweeps.storage.")
    summary = models.JSONField(help_text="Extremes, sums and rankings, merged per sweep.")
    samples = models.JSONField(help_text="The chunk's points that the sweep's chart shows.")
    attempt = models.UUIDField(help_text="Which attempt stored the chunk (a retry stores none).")
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["sweep", "run", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["sweep", "run", "index"], name="one_chunk_per_sweep_run_index"
            )
        ]

    def __str__(self) -> str:
        return f"Sweep {self.sweep_id}, run {self.run}, chunk {self.index}"


class ScenarioFreshness(models.Model):
    """Whether a scenario's figures were recomputed since the catalogue rows it uses changed."""

    scenario = models.OneToOneField(
        Scenario, on_delete=models.CASCADE, related_name="freshness", verbose_name=_("scenario")
    )
    version = models.PositiveIntegerField(
        _("version"), default=0, help_text=_("One more each time it is marked stale.")
    )
    stale_since = models.DateTimeField(_("stale since"), null=True, blank=True)
    checked_at = models.DateTimeField(_("checked"), null=True, blank=True)
    problem = models.TextField(
        _("problem"), blank=True, help_text=_("Why the catalogue no longer serves it.")
    )

    class Meta:
        verbose_name = _("scenario freshness")
        verbose_name_plural = _("scenario freshness")

    def __str__(self) -> str:
        return f"{self.scenario}: {'stale' if self.stale_since else 'fresh'}"
