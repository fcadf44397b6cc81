"""Templates for new cost lines: what a line of each kind usually holds, to start from."""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from apps.budget.models import Kind, Recurrence
from apps.estimates.budget import DEFAULT_CATEGORIES


@dataclass(frozen=True)
class LineTemplate:
    kind: str
    name: Promise
    unit: Promise
    recurrence: str
    category: int  # the engine's DEFAULT_CATEGORIES
    basis: Promise  # how the quantity × unit price is made up, for the user to complete


LINE_TEMPLATES = {
    template.kind: template
    for template in (
        LineTemplate(
            Kind.STAFF,
            _("Staff"),
            _("FTE"),
            Recurrence.YEARLY,
            DEFAULT_CATEGORIES[Kind.STAFF],
            _("FTE × loaded annual cost (salary, benefits and overheads)."),
        ),
        LineTemplate(
            Kind.STORAGE,
            _("Storage"),
            _("TB-month"),
            Recurrence.MONTHLY,
            DEFAULT_CATEGORIES[Kind.STORAGE],
            _("TB stored × price per TB-month."),
        ),
        LineTemplate(
            Kind.NETWORK,
            _("Networking and egress"),
            _("TB transferred"),
            Recurrence.MONTHLY,
            DEFAULT_CATEGORIES[Kind.NETWORK],
            _("TB leaving the provider each month × price per TB."),
        ),
        LineTemplate(
            Kind.LICENCE,
            _("Software licences"),
            _("seat"),
            Recurrence.YEARLY,
            DEFAULT_CATEGORIES[Kind.LICENCE],
            _("Seats × price per seat and year."),
        ),
        LineTemplate(
            Kind.DATA,
            _("Data acquisition and labelling"),
            _("item labelled"),
            Recurrence.ONE_OFF,
            DEFAULT_CATEGORIES[Kind.DATA],
            _("Items × price per item."),
        ),
        LineTemplate(
            Kind.EVALUATION,
            _("Evaluation and red-teaming"),
            _("engagement"),
            Recurrence.ONE_OFF,
            DEFAULT_CATEGORIES[Kind.EVALUATION],
            _("Engagements × price per engagement."),
        ),
        LineTemplate(
            Kind.SUPPORT,
            _("Support"),
            _("month"),
            Recurrence.MONTHLY,
            DEFAULT_CATEGORIES[Kind.SUPPORT],
            _("Support plan's price per month."),
        ),
        LineTemplate(
            Kind.COLOCATION,
            _("Colocation"),
            _("rack-month"),
            Recurrence.MONTHLY,
            DEFAULT_CATEGORIES[Kind.COLOCATION],
            _("Racks × price per rack and month (space, power and cooling)."),
        ),
        LineTemplate(
            Kind.OTHER,
            _("Other"),
            _("item"),
            Recurrence.ONE_OFF,
            DEFAULT_CATEGORIES[Kind.OTHER],
            _("Quantity × unit price."),
        ),
    )
}
