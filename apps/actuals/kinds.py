"""The kinds of budget line actuals are counted in, by their names in the reader's language."""

from django.utils.translation import gettext_lazy as _

from apps.budget.models import Kind
from apps.estimates.budget import KINDS

KIND_NAMES = {
    "training_compute": _("Training compute"),
    "inference_compute": _("Inference compute (or an external model API)"),
    "hardware_purchase": _("Accelerators bought"),
    "hardware_power": _("Power and cooling of owned accelerators"),
    **dict(Kind.choices),
}


def kind_choices() -> list[tuple[str, str]]:
    return [(kind, KIND_NAMES[kind]) for kind in KINDS]


def kind_name(kind: str) -> str:
    return str(KIND_NAMES.get(kind, kind))
