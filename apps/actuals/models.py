"""Actual costs and usage of a project: imports of billing files, their sums, mapping rules."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.storage import FileSystemStorage
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.actuals.kinds import kind_choices

# Money summed from billing rows keeps their precision (FOCUS costs carry many decimals); it is
# rounded to the cent where it is shown.
AMOUNT_DIGITS = 20
AMOUNT_PLACES = 6
MANUAL_SOURCE = "manual"


def billing_files() -> FileSystemStorage:
    """Where an uploaded bill waits for its import (DATA_DIR/actuals/, shared with the workers);
    the import deletes it once read."""
    return FileSystemStorage(location=settings.DATA_DIR / "actuals")


class MappingRule(models.Model):
    """Rows of a billing file whose `column` (a FOCUS column or "Tags.<key>") equals `value`
    belong to the project's budget lines of `kind`; the first rule by `position` wins."""

    project = models.ForeignKey(
        "projects.Project", on_delete=models.CASCADE, related_name="mapping_rules"
    )
    position = models.PositiveIntegerField(_("position"), default=0)
    column = models.CharField(_("column"), max_length=200)
    value = models.CharField(_("value"), max_length=500, blank=True)
    kind = models.CharField(_("kind of line"), max_length=30, choices=kind_choices)

    class Meta:
        ordering = ["project", "position", "pk"]

    def __str__(self) -> str:
        return f"{self.column} = {self.value} → {self.kind}"


class ActualsImport(models.Model):
    """One billing file imported into a project, on a worker; all or nothing."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    project = models.ForeignKey(
        "projects.Project", on_delete=models.CASCADE, related_name="actuals_imports"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    source = models.CharField(_("source"), max_length=200, blank=True)
    file = models.FileField(storage=billing_files, blank=True)
    file_name = models.CharField(max_length=255, blank=True)
    digest = models.CharField(max_length=64, blank=True)
    format = models.CharField(max_length=10, blank=True)
    status = models.CharField(max_length=10, choices=Status, default=Status.QUEUED)
    language = models.CharField(max_length=10, default="en")
    rows_read = models.PositiveIntegerField(default=0)
    rows_matched = models.PositiveIntegerField(default=0)
    rows_unmatched = models.PositiveIntegerField(default=0)
    amount_unmatched = models.DecimalField(
        max_digits=AMOUNT_DIGITS, decimal_places=AMOUNT_PLACES, default=0
    )
    errors = models.JSONField(default=list, blank=True)  # [{"row": n, "message": "…"}]
    error_count = models.PositiveIntegerField(default=0)
    unchanged = models.BooleanField(default=False)  # the same file as an earlier import
    period_start = models.DateField(null=True, blank=True)
    period_end = models.DateField(null=True, blank=True)
    # The rates amounts in another currency were converted at (apps.actuals.currency's record).
    exchange_rates = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return self.file_name or str(self.pk)


class ActualAmount(models.Model):
    """What a source billed a project in one month, for one kind of line, summed over the rows
    of one billing period with the same accelerator, model and token type. Kind "" holds the
    unmatched rows, `description` saying what they are (service · SKU · charge category)."""

    project = models.ForeignKey(
        "projects.Project", on_delete=models.CASCADE, related_name="actual_amounts"
    )
    actuals_import = models.ForeignKey(
        ActualsImport, on_delete=models.SET_NULL, null=True, blank=True, related_name="amounts"
    )
    source = models.CharField(max_length=200, blank=True)
    billing_period = models.DateField()
    month = models.DateField()
    kind = models.CharField(max_length=30, blank=True)
    accelerator = models.CharField(max_length=100, blank=True)
    model = models.CharField(max_length=200, blank=True)
    token_type = models.CharField(max_length=10, blank=True)
    amount = models.DecimalField(max_digits=AMOUNT_DIGITS, decimal_places=AMOUNT_PLACES)
    accelerator_hours = models.FloatField(default=0)
    tokens = models.BigIntegerField(default=0)
    rows = models.PositiveIntegerField(default=0)
    first_row = models.PositiveIntegerField(null=True, blank=True)
    description = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["month", "kind", "pk"]
        indexes = [models.Index(fields=["project", "source", "billing_period"])]

    def __str__(self) -> str:
        return f"{self.month:%Y-%m} {self.kind} {self.amount}"


DEFAULT_PERCENTAGES = (80, 100)
MAX_THRESHOLDS = 5
MAX_PERCENTAGE = 500


def default_percentages() -> list[int]:
    return list(DEFAULT_PERCENTAGES)


def validate_percentages(value: object) -> None:
    """One to MAX_THRESHOLDS whole percentages, each from 1 to MAX_PERCENTAGE."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_THRESHOLDS:
        raise ValidationError(
            _("Give from one to %(count)s thresholds."),
            code="count",
            params={"count": MAX_THRESHOLDS},
        )
    for share in value:
        if isinstance(share, bool) or not isinstance(share, int):
            raise ValidationError(_("Each threshold is a whole percentage."), code="whole")
        if not 1 <= share <= MAX_PERCENTAGE:
            raise ValidationError(
                _("Each threshold is from 1 %% to %(most)s %% of the year’s budget."),
                code="range",
                params={"most": MAX_PERCENTAGE},
            )


class AlertThresholds(models.Model):
    """When a project's budget alerts are raised: a fiscal year's actual, its forecast outturn
    or both reaching each percentage of the year's budget. A project without a row has the
    defaults: 80 % and 100 %, on both."""

    project = models.OneToOneField(
        "projects.Project", on_delete=models.CASCADE, related_name="alert_thresholds"
    )
    percentages = models.JSONField(
        _("thresholds (% of the year’s budget)"),
        default=default_percentages,
        validators=[validate_percentages],
    )
    on_actual = models.BooleanField(_("on actual spending"), default=True)
    on_forecast = models.BooleanField(_("on the forecast outturn"), default=True)

    def __str__(self) -> str:
        return ", ".join(f"{p} %" for p in self.percentages)


class Alert(models.Model):
    """A fiscal year's actual (or forecast) crossed a share of its budget: raised once per
    crossing (the row is the record that it was), shown on the page and emailed."""

    class Basis(models.TextChoices):
        ACTUAL = "actual", _("actual")
        FORECAST = "forecast", _("forecast")

    project = models.ForeignKey("projects.Project", on_delete=models.CASCADE, related_name="+")
    fiscal_year = models.CharField(max_length=20)
    threshold = models.DecimalField(max_digits=5, decimal_places=2)  # 0.80 = 80 %
    basis = models.CharField(max_length=10, choices=Basis)
    amount = models.DecimalField(max_digits=AMOUNT_DIGITS, decimal_places=2)
    budget = models.DecimalField(max_digits=AMOUNT_DIGITS, decimal_places=2)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=("project", "fiscal_year", "threshold", "basis"),
                name="one_alert_per_crossing",
            )
        ]

    def __str__(self) -> str:
        return f"{self.fiscal_year} {self.basis} ≥ {self.threshold}"
