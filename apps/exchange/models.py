"""Exchange rates: the ECB's euro reference rates (loaded from the installed package) and the
tables of rates organisations keep themselves (edited by catalogue editors), each with a source."""

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.catalogue.sourced import Sourced

SMALLEST_RATE = 0.0000000001


class EcbRate(models.Model):
    """1 euro = `per_euro` of `currency` on `date`: the European Central Bank's euro reference
    rate of that day (published on working days), as `manage.py load_ecb_rates` reads it."""

    currency = models.CharField(_("currency"), max_length=3)
    date = models.DateField(_("date"))
    per_euro = models.DecimalField(_("per euro"), max_digits=24, decimal_places=10)

    class Meta:
        verbose_name = _("ECB reference rate")
        verbose_name_plural = _("ECB reference rates")
        constraints = [
            models.UniqueConstraint(fields=["currency", "date"], name="ecb_rate_once_a_day")
        ]
        indexes = [models.Index(fields=["currency", "-date"], name="ecb_rate_newest")]

    def __str__(self) -> str:
        return f"1 EUR = {self.per_euro} {self.currency} ({self.date})"


class RateTable(models.Model):
    """An organisation's own exchange rates (for example the UN operational rates of exchange,
    one a month); a project that chooses it converts at its rates, else at the ECB's."""

    name = models.CharField(_("name"), max_length=200, unique=True)
    source = models.TextField(
        _("source"), help_text=_("Who publishes these rates, and where they are found.")
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("exchange rate table")
        verbose_name_plural = _("exchange rate tables")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class OrganisationRate(Sourced):
    """1 `base` = `rate` `quote`, in force from `valid_from` until the table's next rate of the
    same pair."""

    table = models.ForeignKey(
        RateTable, on_delete=models.CASCADE, related_name="rates", verbose_name=_("table")
    )
    base = models.CharField(_("from currency"), max_length=3, help_text=_("ISO 4217 code: USD"))
    quote = models.CharField(_("to currency"), max_length=3, help_text=_("ISO 4217 code: EUR"))
    valid_from = models.DateField(_("valid from"))
    rate = models.DecimalField(
        _("rate"),
        max_digits=24,
        decimal_places=10,
        validators=[MinValueValidator(SMALLEST_RATE)],
        help_text=_("How many of the second currency one of the first is worth."),
    )

    class Meta:
        verbose_name = _("organisation exchange rate")
        verbose_name_plural = _("organisation exchange rates")
        ordering = ["table", "base", "quote", "-valid_from"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "base", "quote", "valid_from"], name="organisation_rate_once"
            )
        ]

    def __str__(self) -> str:
        return f"1 {self.base} = {self.rate} {self.quote} ({self.valid_from})"

    def save(self, *args, **kwargs) -> None:
        self.base, self.quote = self.base.upper(), self.quote.upper()
        super().save(*args, **kwargs)
