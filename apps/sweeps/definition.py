"""A sweep's definition: the varied inputs and accelerators, checked, and its points by index.

Points are numbered in mixed radix over the axes (accelerators first, then language models, then
the inputs in the order given, the last varying fastest), so a chunk of points is a range of
indices and no list of points is ever built.
"""

import math
from dataclasses import dataclass
from decimal import Decimal

import numpy as np
from django.utils.translation import gettext, ngettext

from apps.sweeps.inputs import SWEEPABLE, SweepableInput
from apps.words.messages import message_text
from apps.words.numbers import decimal_text

MAX_POINTS = 1_000_000
MAX_ACCELERATORS = 50
MAX_MODELS = 50
KINDS = ("linear", "log", "list")
SECTIONS = ("training", "inference")


class DefinitionError(ValueError):
    """A definition that cannot run; `errors` maps keys ("inputs.0.start") to plain messages."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{key}: {' '.join(m)}" for key, m in errors.items()))


@dataclass(frozen=True)
class VariedInput:
    spec: SweepableInput
    kind: str
    values: np.ndarray  # float64, in the order the points use them


@dataclass(frozen=True)
class Definition:
    inputs: tuple[VariedInput, ...]
    accelerators: tuple[str, ...]  # catalogue slugs; empty: the scenario's own accelerators
    accelerator_sections: tuple[str, ...]  # the sections whose accelerator the list replaces
    models: tuple[str, ...] = ()  # language model slugs; empty: the scenario's own model

    @property
    def shape(self) -> tuple[int, ...]:
        accelerators = (len(self.accelerators),) if self.accelerators else ()
        models = (len(self.models),) if self.models else ()
        return (*accelerators, *models, *(len(item.values) for item in self.inputs))

    @property
    def total_points(self) -> int:
        return math.prod(self.shape)

    def positions(
        self, indices: np.ndarray
    ) -> tuple[np.ndarray | None, np.ndarray | None, tuple[np.ndarray, ...]]:
        """Accelerator and model positions (None without a list) and each input's, per point."""
        digits = list(np.unravel_index(indices, self.shape))
        accelerator = digits.pop(0) if self.accelerators else None
        model = digits.pop(0) if self.models else None
        return accelerator, model, tuple(digits)

    def digits(self, indices: np.ndarray) -> tuple[np.ndarray | None, tuple[np.ndarray, ...]]:
        """Accelerator positions (None without a list) and each input's position, per point."""
        accelerator, _, digits = self.positions(indices)
        return accelerator, digits

    def bases(self, indices: np.ndarray) -> np.ndarray:
        """Which of the scenario's requests (one per accelerator × model) each point uses."""
        accelerator, model, _ = self.positions(indices)
        base = np.zeros(np.shape(indices), dtype=np.int64)
        if accelerator is not None:
            base = base + accelerator * max(len(self.models), 1)
        return base if model is None else base + model

    def input_columns(self, indices: np.ndarray) -> dict[str, np.ndarray]:
        """The varied inputs' values at each point, by request path."""
        _, digits = self.digits(indices)
        return {item.spec.path: item.values[d] for item, d in zip(self.inputs, digits, strict=True)}

    def point(self, index: int) -> dict:
        """One point's configuration: its accelerator (when listed) and its inputs' values."""
        accelerator, digits = self.digits(np.asarray(index))
        point = {"accelerator": self.accelerators[int(accelerator)]} if self.accelerators else {}
        if self.models:
            point["model"] = self.models[int(self.positions(np.asarray(index))[1])]
        for item, digit in zip(self.inputs, digits, strict=True):
            point[item.spec.path] = float(item.values[int(digit)])
        return point

    def as_dict(self) -> dict:
        """The normalised definition, as stored and as the API returns it."""
        data = {
            "inputs": [_item_dict(item) for item in self.inputs],
            "accelerators": list(self.accelerators),
            "accelerator_sections": list(self.accelerator_sections),
        }
        return {**data, "models": list(self.models)} if self.models else data


def _item_dict(item: VariedInput) -> dict:
    data = {"field": item.spec.path, "kind": item.kind}
    if item.kind == "list":
        return {**data, "values": item.values.tolist()}
    return {
        **data,
        "start": float(item.values[0]),
        "stop": float(item.values[-1]),
        "steps": len(item.values),
    }


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def _whole(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return int(value) if float(value).is_integer() else None


def axis_length(item: object) -> int | None:
    """How many values one varied input gives, or None while that cannot be told yet."""
    if not isinstance(item, dict):
        return None
    if item.get("kind") == "list":
        values = item.get("values")
        return len(values) if isinstance(values, list) and values else None
    steps = _whole(item.get("steps"))
    return steps if steps is not None and steps >= 1 else None


def _whole_text(number: float) -> str:
    """A whole number as the active language writes it: "1,000,000"; "1 000 000" in French."""
    return decimal_text(Decimal(number))


def points_text(lengths: list[int]) -> str:
    """ "5 × 200 = 1,000 points", or "200 points" for one axis, in the active language."""
    total = math.prod(lengths)
    points = ngettext("%(count)s point", "%(count)s points", total) % {"count": _whole_text(total)}
    if len(lengths) < 2:
        return points
    return f"{' × '.join(map(_whole_text, lengths))} = {points}"


def over_limit_message(lengths: list[int]) -> str:
    return gettext(
        "This sweep has %(points)s; a sweep can have at most %(most)s. "
        "Use fewer steps or values, or fewer accelerators."
    ) % {"points": points_text(lengths), "most": _whole_text(MAX_POINTS)}


class _Errors:
    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def add(self, key: str, message: str) -> None:
        self.errors.setdefault(key, []).append(message)


def _range_values(key: str, item: dict, errors: _Errors) -> np.ndarray:
    kind = item["kind"]
    start, stop, steps = _number(item.get("start")), _number(item.get("stop")), item.get("steps")
    if start is None:
        errors.add(f"{key}.start", gettext("Give the start of the range as a number."))
    if stop is None:
        errors.add(f"{key}.stop", gettext("Give the stop of the range as a number."))
    steps = _whole(steps)
    if steps is None or not 1 <= steps <= MAX_POINTS:
        errors.add(
            f"{key}.steps",
            gettext("Give the number of values, a whole number from 1 to %(most)s.")
            % {"most": _whole_text(MAX_POINTS)},
        )
    if start is None or stop is None or steps is None or not 1 <= steps <= MAX_POINTS:
        return np.empty(0)
    if steps > 1 and start == stop:
        errors.add(
            f"{key}.stop",
            gettext("Start and stop are the same: give a different stop, or 1 step."),
        )
        return np.empty(0)
    if kind == "log" and (start <= 0 or stop <= 0):
        key_name = "start" if start <= 0 else "stop"
        errors.add(
            f"{key}.{key_name}", gettext("A logarithmic range needs a start and stop above 0.")
        )
        return np.empty(0)
    return range_values(kind, start, stop, steps)


def range_values(kind: str, start: float, stop: float, steps: int) -> np.ndarray:
    """The values of a linear or log range, start and stop exactly as given."""
    if kind == "log":
        return np.geomspace(start, stop, steps)
    return np.linspace(start, stop, steps)


def _list_values(key: str, item: dict, errors: _Errors) -> np.ndarray:
    values = item.get("values")
    if not isinstance(values, list) or not values:
        errors.add(f"{key}.values", gettext("Give at least one value."))
        return np.empty(0)
    if len(values) > MAX_POINTS:
        errors.add(
            f"{key}.values",
            gettext("Give at most %(most)s values.") % {"most": _whole_text(MAX_POINTS)},
        )
        return np.empty(0)
    numbers = [_number(value) for value in values]
    if any(number is None for number in numbers):
        errors.add(f"{key}.values", gettext("Every value must be a finite number."))
        return np.empty(0)
    if len(set(numbers)) != len(numbers):
        errors.add(f"{key}.values", gettext("Give each value once."))
        return np.empty(0)
    return np.asarray(numbers, dtype=np.float64)


def _check_rule(key: str, kind: str, spec: SweepableInput, values: np.ndarray, errors: _Errors):
    rule = spec.rule
    if rule.accepts(values):
        return
    if kind == "list":
        errors.add(f"{key}.values", message_text(rule.message))
    elif not rule.accepts(values[:1]):
        errors.add(f"{key}.start", message_text(rule.message))
    elif not rule.accepts(values[-1:]):
        errors.add(f"{key}.stop", message_text(rule.message))
    else:
        bad = next(value for value in values if not rule.accepts(np.asarray([value])))
        shown = decimal_text(Decimal(f"{bad:g}"))  # six significant figures, as typed
        errors.add(
            f"{key}.steps",
            gettext("%(rule)s These steps give %(value)s.")
            % {"rule": message_text(rule.message), "value": shown},
        )


def _varied_input(index: int, item: object, request: dict, seen: set, errors: _Errors):
    key = f"inputs.{index}"
    if not isinstance(item, dict):
        errors.add(key, gettext("Give the input to vary, the kind of range and its values."))
        return None
    spec = SWEEPABLE.get(item.get("field"))
    if spec is None:
        errors.add(f"{key}.field", gettext("Choose one of the inputs a sweep can vary."))
        return None
    if spec.path in seen:
        errors.add(f"{key}.field", gettext("This input is varied twice; vary each input once."))
        return None
    seen.add(spec.path)
    unused = spec.unused_by(request)
    if unused:
        errors.add(f"{key}.field", unused)
        return None
    kind = item.get("kind")
    if kind not in KINDS:
        errors.add(f"{key}.kind", gettext("Choose linear, log or list."))
        return None
    before = len(errors.errors)
    values = _list_values(key, item, errors) if kind == "list" else _range_values(key, item, errors)
    if len(errors.errors) > before:
        return None
    _check_rule(key, kind, spec, values, errors)
    values.flags.writeable = False
    return VariedInput(spec=spec, kind=kind, values=values)


def _accelerators(data: dict, request: dict, errors: _Errors) -> tuple[tuple, tuple]:
    accelerators = data.get("accelerators") or []
    if not isinstance(accelerators, list) or not all(isinstance(a, str) for a in accelerators):
        errors.add("accelerators", gettext("Give a list of accelerator slugs."))
        return (), ()
    if len(set(accelerators)) != len(accelerators):
        errors.add("accelerators", gettext("Choose each accelerator once."))
    if len(accelerators) > MAX_ACCELERATORS:
        errors.add(
            "accelerators",
            gettext("Choose at most %(most)s accelerators.") % {"most": MAX_ACCELERATORS},
        )
    present = tuple(section for section in SECTIONS if request.get(section))
    sections = data.get("accelerator_sections")
    if not accelerators:
        return (), ()
    if sections is None:
        sections = list(present)
    if not isinstance(sections, list) or not sections or set(sections) - set(present):
        errors.add(
            "accelerator_sections",
            # The sections by their names in the API: "training", "inference".
            gettext("Choose where the accelerators are used, among: %(sections)s.")
            % {"sections": ", ".join(present)},
        )
        return tuple(accelerators), ()
    return tuple(accelerators), tuple(section for section in SECTIONS if section in sections)


def _models(data: dict, request: dict, errors: _Errors) -> tuple[str, ...]:
    models = data.get("models") or []
    if not isinstance(models, list) or not all(isinstance(m, str) for m in models):
        errors.add("models", gettext("Give a list of language model slugs."))
        return ()
    if len(set(models)) != len(models):
        errors.add("models", gettext("Choose each model once."))
    if len(models) > MAX_MODELS:
        errors.add("models", gettext("Choose at most %(most)s models.") % {"most": MAX_MODELS})
    inference = request.get("inference") or {}
    if models and inference.get("method") != "tokens":
        errors.add(
            "models",
            gettext(
                "Only a scenario whose inference is given by tokens serves a language model; "
                "change its method to vary the model."
            ),
        )
    return tuple(models)


def definition_parse(data: object, request: dict) -> Definition:
    """Check a definition against the scenario's inputs (`request`); raise DefinitionError."""
    errors = _Errors()
    if not isinstance(data, dict):
        raise DefinitionError({"non_field_errors": [gettext("Give the inputs to vary.")]})
    items = data.get("inputs") or []
    if not isinstance(items, list):
        errors.add("inputs", gettext("Give a list of inputs to vary."))
        items = []
    seen: set[str] = set()
    inputs = [_varied_input(index, item, request, seen, errors) for index, item in enumerate(items)]
    accelerators, sections = _accelerators(data, request, errors)
    models = _models(data, request, errors)
    if not items and not accelerators and not models:
        serves_model = (request.get("inference") or {}).get("method") == "tokens"
        errors.add(
            "non_field_errors",
            gettext("Choose at least one input to vary, accelerators or models.")
            if serves_model
            else gettext("Choose at least one input to vary, or accelerators."),
        )
    lengths = [len(accelerators)] if accelerators else []
    lengths += [len(models)] if models else []
    lengths += [axis_length(item) or 0 for item in items]
    if lengths and all(lengths) and math.prod(lengths) > MAX_POINTS:
        errors.add("non_field_errors", over_limit_message(lengths))
    if errors.errors:
        raise DefinitionError(errors.errors)
    return Definition(
        inputs=tuple(inputs),
        accelerators=accelerators,
        accelerator_sections=sections,
        models=models,
    )


def definition_load(stored: dict) -> Definition:
    """A stored definition as it was checked when the sweep was made, to read its results.

    Not checked again: limits or inputs that changed since must not hide existing results (a
    new computation checks again, with definition_parse, and fails with the reason).
    """
    inputs = []
    for item in stored["inputs"]:
        spec = SWEEPABLE.get(item["field"]) or SweepableInput(item["field"], item["field"], "")
        if item["kind"] == "list":
            values = np.asarray(item["values"], dtype=np.float64)
        else:
            values = range_values(item["kind"], item["start"], item["stop"], item["steps"])
        values.flags.writeable = False
        inputs.append(VariedInput(spec=spec, kind=item["kind"], values=values))
    return Definition(
        inputs=tuple(inputs),
        accelerators=tuple(stored["accelerators"]),
        accelerator_sections=tuple(stored["accelerator_sections"]),
        models=tuple(stored.get("models", ())),
    )
