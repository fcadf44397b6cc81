"""A project is a workplan; a scenario is one set of assumptions inside it."""

from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from apps.core.planning_dates import PlanningDateValidator
from apps.exchange.models import RateTable
from apps.projects.origin import origin_text


class Classification(models.TextChoices):
    PUBLIC = "public", _("Public")
    INTERNAL = "internal", _("Internal")
    CONFIDENTIAL = "confidential", _("Confidential")
    STRICTLY_CONFIDENTIAL = "strictly_confidential", _("Strictly confidential")


# Methods that send the data to a vendor's model API: approved for public data only.
EXTERNAL_API_METHODS = {"external_api", "api_fine_tune"}

# Which hosting each classification may use: renting means a cloud provider processes the data.
APPROVED_HOSTING = {
    Classification.PUBLIC: {"rent", "own"},
    Classification.INTERNAL: {"rent", "own"},
    Classification.CONFIDENTIAL: {"own"},
    Classification.STRICTLY_CONFIDENTIAL: {"own"},
}


class ProjectFrozen(Exception):
    """A change to a project that is submitted or cleared: it is frozen until it is returned."""

    def __init__(self, project: "Project", message: str) -> None:
        self.project_id = project.pk
        super().__init__(message)


class BaselineNeeded(Exception):
    """Deleting a project's baseline while it has other scenarios, without naming which of them
    becomes the baseline: a project with scenarios always has exactly one."""


class StatusChangeRefused(Exception):
    """A move between statuses that the review workflow does not allow, such as clearing a draft."""


class FiscalYearLabel(models.TextChoices):
    END_YEAR = "end_year", _("By the calendar year in which it ends (FY2026)")
    START_END = "start_end", _("By both calendar years (2025/26)")


def rate_field(verbose_name: str, help_text: str, default: str = "0") -> models.DecimalField:
    """A rate as a fraction (0.035 for 3.5 %), from 0 to 1."""
    return models.DecimalField(
        verbose_name,
        max_digits=7,
        decimal_places=6,
        default=Decimal(default),
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(1))],
        help_text=help_text,
    )


# The project's fields that set how its budgets are drawn up (apps.budget).
BUDGET_SETTINGS = (
    "fiscal_year_start_month",
    "fiscal_year_label",
    "capitalisation_threshold",
    "discount_rate",
    "contingency_capex",
    "contingency_opex",
    "indirect_rate",
)


RATE_DIGITS = 20
RATE_PLACES = 10
# The smallest rate more than 0 that RATE_PLACES keeps: a rate's lower bound in the model and
# the API.
RATE_MIN = Decimal("0.0000000001")


def rate_range_errors(currency: str, low: Decimal | None, high: Decimal | None) -> dict[str, str]:
    """Why (low, high) cannot be the 90 % range of the exchange rate of a project in `currency`,
    by field name; empty when it can (both empty: no range). Each end's own bound, more than 0
    (RATE_MIN), is its field's: the model's validators and the serializers' fields."""
    if low is None and high is None:
        return {}
    if currency == "USD":
        return {
            "rate_low": _(
                "The project is in US dollars, the prices' own currency: no rate converts them, "
                "so it can carry no range."
            )
        }
    if low is None or high is None:
        return {
            "rate_low" if low is None else "rate_high": _(
                "Give both ends of the rate's range, or neither."
            )
        }
    if low > high:
        return {"rate_high": _("The high end is below the low end.")}
    return {}


FISCAL_YEAR_LABEL_LENGTH = 20


def fiscal_year_rates_record(currency: str, rates: dict) -> dict[str, str]:
    """Rates by fiscal year label as the project keeps them (decimal strings without trailing
    zeros, empty rates left out); raises ValidationError for a project in US dollars or a
    label too long."""
    kept = {
        str(label): format(Decimal(str(rate)).normalize(), "f")
        for label, rate in rates.items()
        if rate not in (None, "")
    }
    if kept and currency == "USD":
        raise ValidationError(
            {
                "fiscal_year_rates": _(
                    "The project is in US dollars, the prices' own currency: no rate converts them."
                )
            }
        )
    if any(len(label) > FISCAL_YEAR_LABEL_LENGTH for label in kept):
        raise ValidationError({"fiscal_year_rates": _("A fiscal year's label is too long.")})
    return kept


class ProjectQuerySet(models.QuerySet):
    def for_user(self, user) -> "ProjectQuerySet":
        """Projects this user owns or collaborates on; nobody else's."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(models.Q(owner=user) | models.Q(collaborators=user)).distinct()

    def reviewable(self) -> "ProjectQuerySet":
        """Projects submitted at least once: submitted, returned or cleared, never drafts."""
        return self.exclude(status=Project.Status.DRAFT)


class Project(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        SUBMITTED = "submitted", _("Submitted for review")
        RETURNED = "returned", _("Returned for changes")
        CLEARED = "cleared", _("Cleared")

    title = models.CharField(_("title"), max_length=200)
    unit = models.CharField(_("organisational unit"), max_length=200, blank=True)
    description = models.TextField(_("description"), blank=True)
    currency = models.CharField(_("currency"), max_length=3, default="USD")
    # Prices are converted at this table's rates (null: the ECB's euro reference rates) of this
    # date (null: the date of the catalogue's prices), apps.exchange.
    rate_table = models.ForeignKey(
        RateTable,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="projects",
        verbose_name=_("exchange rate table"),
    )
    rate_date = models.DateField(
        _("exchange rate date"), null=True, blank=True, validators=[PlanningDateValidator()]
    )
    # The manager's 90 % range of the rate (1 unit of the catalogue's currency in the project's),
    # which the ranges sample as one driver of every converted price; null: the rate is fixed.
    rate_low = models.DecimalField(
        _("exchange rate, low end"),
        max_digits=RATE_DIGITS,
        decimal_places=RATE_PLACES,
        null=True,
        blank=True,
        validators=[MinValueValidator(RATE_MIN, message=_("The low end must be more than 0."))],
    )
    rate_high = models.DecimalField(
        _("exchange rate, high end"),
        max_digits=RATE_DIGITS,
        decimal_places=RATE_PLACES,
        null=True,
        blank=True,
        validators=[MinValueValidator(RATE_MIN, message=_("The high end must be more than 0."))],
    )
    # A rate of the catalogue's currency per fiscal year, by the year's label ({"FY2028":
    # "0.95"}), for the years the manager gives one; every other year uses the rate date's.
    fiscal_year_rates = models.JSONField(
        _("exchange rate per fiscal year"), default=dict, blank=True
    )
    period_start = models.DateField(
        _("planning period starts"), null=True, blank=True, validators=[PlanningDateValidator()]
    )
    period_end = models.DateField(
        _("planning period ends"), null=True, blank=True, validators=[PlanningDateValidator()]
    )
    fiscal_year_start_month = models.PositiveSmallIntegerField(
        _("month the fiscal year starts"),
        default=1,
        validators=[MinValueValidator(1), MaxValueValidator(12)],
        help_text=_("1 for January, 10 for October."),
    )
    fiscal_year_label = models.CharField(
        _("fiscal year names"),
        max_length=10,
        choices=FiscalYearLabel,
        default=FiscalYearLabel.END_YEAR,
    )
    capitalisation_threshold = models.DecimalField(
        _("capitalisation threshold"),
        max_digits=14,
        decimal_places=2,
        default=Decimal(5000),
        validators=[MinValueValidator(Decimal(0))],
        help_text=_(
            "In the project's currency: a line whose amount is at least this much is capital "
            "expenditure (capex), unless its class is set."
        ),
    )
    discount_rate = rate_field(
        _("discount rate"),
        _("A year, real, as a fraction: 0.035 for 3.5 %."),
        default="0.035",
    )
    contingency_capex = rate_field(
        _("contingency on capex"), _("As a fraction of capital expenditure: 0.1 for 10 %.")
    )
    contingency_opex = rate_field(
        _("contingency on opex"), _("As a fraction of operating expenditure: 0.1 for 10 %.")
    )
    indirect_rate = rate_field(
        _("indirect support costs"),
        _("As a fraction of direct costs and contingency: 0.07 for 7 %."),
    )
    classification = models.CharField(
        _("data classification"),
        max_length=30,
        choices=Classification,
        default=Classification.PUBLIC,
    )
    status = models.CharField(_("status"), max_length=20, choices=Status, default=Status.DRAFT)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="owned_projects",
        verbose_name=_("owner"),
    )
    collaborators = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="shared_projects",
        verbose_name=_("collaborators"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    objects = ProjectQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at"]
        verbose_name = _("project")
        verbose_name_plural = _("projects")

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("project-detail", args=[self.pk])

    def clean(self) -> None:
        errors = rate_range_errors(self.currency, self.rate_low, self.rate_high)
        if errors:
            raise ValidationError(errors)

    @property
    def is_editable(self) -> bool:
        """Drafts and returned projects can change; submitted and cleared ones are frozen."""
        return self.status in {self.Status.DRAFT, self.Status.RETURNED}

    @property
    def frozen_reason(self) -> str:
        """Why the project cannot change now; empty when it can."""
        if self.status == self.Status.SUBMITTED:
            return _(
                "“%(title)s” is submitted for review: it cannot be changed until the front "
                "office returns it."
            ) % {"title": self.title}
        if self.status == self.Status.CLEARED:
            return _(
                "“%(title)s” has been cleared by the front office: it can no longer change."
            ) % {"title": self.title}
        return ""

    def check_can_edit(self) -> None:
        """Raise ProjectFrozen unless the project and its scenarios may change: every write
        to a project or a scenario, from a page or the API, goes through this check."""
        if not self.is_editable:
            raise ProjectFrozen(self, self.frozen_reason)

    def can_move_to(self, status: str) -> bool:
        return self.status in STATUS_MOVES[status]

    def check_can_move_to(self, status: str) -> None:
        """Raise StatusChangeRefused unless the review workflow allows moving to `status`."""
        if not self.can_move_to(status):
            raise StatusChangeRefused(
                _("“%(title)s” is %(now)s, so it cannot be %(then)s.")
                % {
                    "title": self.title,
                    "now": STATUS_PHRASES[self.status],
                    "then": STATUS_PHRASES[status],
                }
            )

    def hosting_warning(self, scenario_inputs) -> str | None:
        """A plain-language warning when a scenario's hosting is not approved for the data."""
        scenario_inputs = list(scenario_inputs)
        if self.classification != Classification.PUBLIC and any(
            section.get("method") in EXTERNAL_API_METHODS
            for inputs in scenario_inputs
            for section in (inputs.get("training"), inputs.get("inference"))
            if section
        ):
            label = self.get_classification_display().lower()
            return _(
                "This project will process %(label)s data, but a scenario sends it to an external "
                "model API: the data leaves the organisation. Such data must not be entered into "
                "a service that has not been approved for it: the provider may retain, process or "
                "expose it. Confirm the provider is approved for %(label)s data, or host the model "
                "yourself, before going ahead."
            ) % {"label": label}
        modes = {
            section.get("pricing_mode", "rent")
            for inputs in scenario_inputs
            for section in (inputs.get("training"), inputs.get("inference"))
            if section
        }
        unapproved = modes - APPROVED_HOSTING[self.classification]
        if not unapproved:
            return None
        label = self.get_classification_display().lower()
        return _(
            "This project will process %(label)s data, but a scenario rents accelerators from a "
            "cloud provider, which is not approved for %(label)s data. Such data must not be "
            "entered into a service that has not been approved for it: the provider may retain, "
            "process or expose it. Use owned, approved hosting, or confirm the provider’s "
            "approval before going ahead."
        ) % {"label": label}


# The review workflow: the statuses a project may move to each status from.
STATUS_MOVES = {
    Project.Status.DRAFT: set(),
    Project.Status.SUBMITTED: {Project.Status.DRAFT, Project.Status.RETURNED},
    Project.Status.RETURNED: {Project.Status.SUBMITTED},
    Project.Status.CLEARED: {Project.Status.SUBMITTED},
}
STATUS_PHRASES = {
    Project.Status.DRAFT: _("a draft"),
    Project.Status.SUBMITTED: _("submitted for review"),
    Project.Status.RETURNED: _("returned for changes"),
    Project.Status.CLEARED: _("cleared"),
}


class Scenario(models.Model):
    """Inputs are stored in the estimate API's request shape, so page and API share one format."""

    project = models.ForeignKey(
        Project, on_delete=models.CASCADE, related_name="scenarios", verbose_name=_("project")
    )
    name = models.CharField(_("name"), max_length=200)
    inputs = models.JSONField(
        _("inputs"),
        help_text=_("An estimate request: training, inference, energy_profile."),
    )
    is_baseline = models.BooleanField(_("baseline"), default=False)
    training_start = models.DateField(
        _("training starts"),
        null=True,
        blank=True,
        validators=[PlanningDateValidator()],
        help_text=_("When training or fine-tuning starts; by default the planning period's start."),
    )
    service_start = models.DateField(
        _("service starts"),
        null=True,
        blank=True,
        validators=[PlanningDateValidator()],
        help_text=_("When requests start to be served; by default once training has ended."),
    )
    version = models.PositiveIntegerField(
        _("version"),
        default=0,
        help_text=_("The number of the latest saved version; every save adds one."),
    )
    # Where the figures came from when an app made the scenario (re-planned from actuals): a
    # record (apps.projects.origin), {} for a scenario a person made.
    origin = models.JSONField(_("origin"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["project", "-is_baseline", "name"]
        verbose_name = _("scenario")
        verbose_name_plural = _("scenarios")
        constraints = [
            models.UniqueConstraint(
                fields=["project"],
                condition=models.Q(is_baseline=True),
                name="one_baseline_per_project",
            )
        ]

    def __str__(self) -> str:
        return f"{self.project}: {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("scenario-detail", args=[self.pk])

    @property
    def origin_text(self) -> str:
        """Where its figures came from, in the active language ("" if a person made it)."""
        return origin_text(self.origin)


class ScenarioVersion(models.Model):
    """One save of a scenario: its inputs, its results, and the catalogue figures behind them."""

    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    name = models.CharField(max_length=200)
    inputs = models.JSONField(help_text="The estimate request as saved.")
    results = models.JSONField(
        help_text="The estimate when it was saved, with its ranges: a record of the codec "
        "(apps.estimates.record)."
    )
    catalogue = models.JSONField(help_text="The catalogue figures the estimate used.")
    budget = models.JSONField(
        default=dict,
        blank=True,
        help_text="The scenario's timing and cost lines as saved (apps.budget.records).",
    )
    figures_key = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="A digest of everything its estimate and budget were computed from "
        "(apps.projects.versions.figures_key): while the scenario's is the same, its page reads "
        "them instead of computing them again. Empty before versions kept one.",
    )
    engine_version = models.CharField(max_length=20)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["scenario", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["scenario", "number"], name="one_version_number")
        ]

    def __str__(self) -> str:
        return f"{self.scenario} — version {self.number}"


class ProjectSnapshot(models.Model):
    """The scenario versions frozen when a project was submitted for review."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="snapshots")
    number = models.PositiveIntegerField()
    scenario_versions = models.ManyToManyField(ScenarioVersion, related_name="snapshots")
    total_cost = models.DecimalField(
        max_digits=20,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="The project's budget total when it was submitted: its baseline scenario's, "
        "over the planning period (scenarios are alternatives, so they are not added up), in "
        "the project's currency; null when there was no budget to draw up. Kept to sort the "
        "review queue.",
    )
    budget = models.JSONField(
        null=True,
        blank=True,
        encoder=DjangoJSONEncoder,
        help_text="The baseline scenario's budget when the project was submitted, a record of "
        "the codec (apps.projects.frozen_budget): a submitted project is frozen, so its budget is "
        "too. Null when there was no budget to draw up (or before it was kept).",
    )
    fiscal_year_totals = models.JSONField(
        default=dict,
        blank=True,
        help_text='The budget\'s total per fiscal year, {label: {"start": date, "total": '
        "decimal string}}, to sort the review queue by any fiscal year in the database.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["project", "number"], name="one_snapshot_number")
        ]

    def __str__(self) -> str:
        return f"{self.project} — snapshot {self.number}"


class StatusChange(models.Model):
    """Who moved a project from one status to another, when, and why."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="status_changes")
    from_status = models.CharField(max_length=20, choices=Project.Status)
    to_status = models.CharField(max_length=20, choices=Project.Status)
    comment = models.TextField(blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project", "changed_at"]

    def __str__(self) -> str:
        return f"{self.project}: {self.from_status} → {self.to_status}"


class ReviewComment(models.Model):
    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="comments")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    body = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["project", "created_at"]

    def __str__(self) -> str:
        return f"Comment on {self.project} by {self.author}"
