"""The words of a stored scenario input, shared by every place that shows one to people (the
versions' differences, the exports): each choice's label, and each number's field, whatever the
method that takes it (the form's or an external API's)."""

from apps.projects.api_methods import API_NUMBER_FIELDS, METHOD_LABELS
from apps.projects.scenario_fields import (
    COMMITMENT_PROVIDERS,
    COMMITMENT_YEARS,
    INFERENCE_METHODS,
    NUMBER_FIELDS,
    PRICING_MODES,
    PROVISIONING,
    TRAINING_METHODS,
    FieldSpec,
)

INPUT_CHOICES: dict[tuple[str, str], dict] = {
    ("training", "method"): {**dict(TRAINING_METHODS), **METHOD_LABELS},
    ("inference", "method"): {**dict(INFERENCE_METHODS), **METHOD_LABELS},
    ("training", "pricing_mode"): dict(PRICING_MODES),
    ("inference", "pricing_mode"): dict(PRICING_MODES),
    ("inference", "provisioning"): dict(PROVISIONING),
    ("inference", "commitment_years"): {int(key): label for key, label in COMMITMENT_YEARS},
    ("inference", "commitment_provider"): dict(COMMITMENT_PROVIDERS),
}
INPUT_NUMBERS: dict[tuple[str, str], FieldSpec] = {
    (spec.section, spec.name): spec for spec in (*NUMBER_FIELDS, *API_NUMBER_FIELDS)
}
