"""Cost lines: what a scenario costs besides its compute (staff, storage, licences, …)."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.core.planning_dates import PlanningDateValidator

# SQLite keeps a decimal column as a float, exact to 15 significant digits: an amount is no
# longer than that, so it reads back as it was written on SQLite and PostgreSQL alike.
AMOUNT_DIGITS = 15
AMOUNT_PLACES = 4


class Kind(models.TextChoices):
    STAFF = "staff", _("Staff")
    STORAGE = "storage", _("Storage")
    NETWORK = "network", _("Networking and egress")
    LICENCE = "licence", _("Software licences")
    DATA = "data", _("Data acquisition and labelling")
    EVALUATION = "evaluation", _("Evaluation and red-teaming")
    SUPPORT = "support", _("Support")
    COLOCATION = "colocation", _("Colocation")
    OTHER = "other", _("Other")


class Recurrence(models.TextChoices):
    ONE_OFF = "one_off", _("One-off, in one month")
    MONTHLY = "monthly", _("Every month")
    YEARLY = "yearly", _("Every year")


class BudgetClass(models.TextChoices):
    CAPEX = "capex", _("Capital expenditure (capex)")
    OPEX = "opex", _("Operating expenditure (opex)")


class Category(models.IntegerChoices):
    """The UNDG harmonised budget categories."""

    STAFF = 1, _("1 Staff and other personnel")
    SUPPLIES = 2, _("2 Supplies, commodities and materials")
    EQUIPMENT = 3, _("3 Equipment, vehicles and furniture, incl. depreciation")
    CONTRACTUAL = 4, _("4 Contractual services")
    TRAVEL = 5, _("5 Travel")
    TRANSFERS = 6, _("6 Transfers and grants")
    GENERAL = 7, _("7 General operating and other direct costs")


class CostLine(models.Model):
    """One line of a scenario's budget: quantity × unit price, once or recurring.

    A recurring line runs from `start` to `end` (inclusive, whole months; no end: to the end of
    the planning period) and its unit price rises by `annual_escalation` each year from its
    start; a one-off line falls in `start`'s month. The arithmetic is apps.estimates.budget's.
    `budget_class` empty (""; null in the API) means the project's capitalisation threshold decides.
    """

    scenario = models.ForeignKey(
        "projects.Scenario", on_delete=models.CASCADE, related_name="cost_lines"
    )
    name = models.CharField(_("name"), max_length=200)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind)
    quantity = models.DecimalField(
        _("quantity"),
        max_digits=AMOUNT_DIGITS,
        decimal_places=AMOUNT_PLACES,
        validators=[MinValueValidator(Decimal(0))],
    )
    unit = models.CharField(_("unit"), max_length=50, help_text=_("e.g. FTE, TB-month, seat."))
    unit_price = models.DecimalField(
        _("unit price"),
        max_digits=AMOUNT_DIGITS,
        decimal_places=AMOUNT_PLACES,
        validators=[MinValueValidator(Decimal(0))],
        help_text=_("Per unit (per month or per year if recurring), in the line's currency."),
    )
    # Empty: the project's currency. Another ISO 4217 code: the unit price is in it, converted
    # at the project's rate date (apps.estimates.budget.conversion).
    currency = models.CharField(_("currency"), max_length=3, blank=True, default="")
    recurrence = models.CharField(
        _("recurrence"), max_length=10, choices=Recurrence, default=Recurrence.ONE_OFF
    )
    start = models.DateField(
        _("start"),
        validators=[PlanningDateValidator()],
        help_text=_("The month of a one-off line."),
    )
    end = models.DateField(
        _("end"),
        null=True,
        blank=True,
        validators=[PlanningDateValidator()],
        help_text=_("Last month of a recurring line; empty: the end of the planning period."),
    )
    annual_escalation = models.DecimalField(
        _("annual escalation"),
        max_digits=7,
        decimal_places=6,
        default=Decimal(0),
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(1))],
        help_text=_("Yearly price rise as a fraction: 0.03 for 3 %."),
    )
    budget_class = models.CharField(
        _("class"),
        max_length=5,
        choices=BudgetClass,
        blank=True,
        default="",
        help_text=_("Leave empty to let the capitalisation threshold decide."),
    )
    category = models.PositiveSmallIntegerField(_("category"), choices=Category)
    basis = models.TextField(
        _("basis and source"), blank=True, help_text=_("How the figures were arrived at.")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["scenario", "kind", "name", "pk"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        # The project's own currency is stored as empty, as the form saves it, so that a line
        # reads the same however it was entered (an import of an export included) and keeps
        # following the project's currency.
        if self.currency and self.scenario_id and self.currency == self.scenario.project.currency:
            self.currency = ""
        if self.recurrence == Recurrence.ONE_OFF and self.end is not None:
            raise ValidationError(
                {"end": _("A one-off line falls in one month, its start: leave its end empty.")}
            )
        if (
            self.start
            and self.end
            and (self.end.year, self.end.month)
            < (
                self.start.year,
                self.start.month,
            )
        ):
            raise ValidationError({"end": _("The end is before the start.")})
