"""The evidence, source and date every catalogue row carries."""

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class Evidence(models.TextChoices):
    PRIMARY = "P", _("Primary (vendor, paper, legal text)")
    SECONDARY = "S", _("Secondary (third party quoting a primary)")
    DERIVED = "D", _("Derived by arithmetic from sourced figures")
    UNVERIFIED = "U", _("Unverified or conflicting")


def optional_figure(verbose_name, minimum, help_text="", *, field=models.FloatField, **options):
    """A figure a source may not publish: empty allowed, never below `minimum`."""
    return field(
        verbose_name,
        null=True,
        blank=True,
        validators=[MinValueValidator(minimum)],
        help_text=help_text,
        **options,
    )


class Sourced(models.Model):
    """Where the figures of a row come from."""

    evidence = models.CharField(
        _("evidence"), max_length=1, choices=Evidence, default=Evidence.SECONDARY
    )
    source = models.TextField(_("source"), help_text=_("The document the figures were taken from."))
    as_of = models.DateField(
        _("as of"), help_text=_("Date of the source, or of the figures it gives.")
    )
    notes = models.TextField(
        _("notes"), blank=True, help_text=_("Conversions, conflicts, empty fields and why.")
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        abstract = True
