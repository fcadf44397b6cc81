"""A fast path through a request serializer's checks, compiled once from its own field declarations.

DRF deep-copies every declared field, nested ones and their validators included, each time a
serializer is instantiated, which cost more than the estimate itself. `FastValidator` reads the same
declarations once: names, kinds, defaults, required, bounds, choices. It accepts a body only when
the serializer would, and then returns the same validated data; for any other body it returns None
and the caller runs the serializer, whose errors are the response. Compiling refuses a field or
option it does not know, so a new kind of field fails at import instead of going unchecked.
"""

import math
import re
from collections.abc import Callable
from typing import Any

from django.core.validators import (
    MaxValueValidator,
    MinValueValidator,
    ProhibitNullCharactersValidator,
    RegexValidator,
)
from rest_framework import serializers
from rest_framework.fields import ProhibitSurrogateCharactersValidator, empty

from apps.api.fields import ChoiceField, FiniteFloatField, StrictIntegerField
from apps.api.serializers import StrictSerializer

type Check = Callable[[Any], Any]


class _Rejected(Exception):
    """The fast path does not accept this value; the serializer will say why."""


def _bounds(field: serializers.Field) -> tuple[float, float]:
    expected = {MinValueValidator: field.min_value, MaxValueValidator: field.max_value}
    present = {type(v): v.limit_value for v in field.validators}
    if present != {kind: limit for kind, limit in expected.items() if limit is not None}:
        raise TypeError(f"{field.field_name}: validators other than min_value/max_value")
    low = -math.inf if field.min_value is None else field.min_value
    high = math.inf if field.max_value is None else field.max_value
    return low, high


def _finite_float(field: FiniteFloatField) -> Check:
    low, high = _bounds(field)

    def check(value: Any) -> float:
        kind = type(value)
        if kind is float:
            if not math.isfinite(value):
                raise _Rejected
        elif kind is int:
            try:
                value = float(value)
            except OverflowError:
                raise _Rejected from None
        else:
            raise _Rejected
        if not low <= value <= high:
            raise _Rejected
        return value

    return check


def _strict_integer(field: StrictIntegerField) -> Check:
    low, high = _bounds(field)
    if not (math.isfinite(low) and math.isfinite(high)):
        # Unbounded, a huge whole number would fail DRF's int(str(value)) here but not there.
        raise TypeError(f"{field.field_name}: an integer field needs min_value and max_value")

    def check(value: Any) -> int:
        kind = type(value)
        if kind is float:
            if not (math.isfinite(value) and value.is_integer()):
                raise _Rejected
            value = int(value)
        elif kind is not int:
            raise _Rejected
        if not low <= value <= high:
            raise _Rejected
        return value

    return check


def _choice(field: serializers.ChoiceField) -> Check:
    if field.allow_blank or field.validators:
        raise TypeError(f"{field.field_name}: allow_blank or validators on a choice")
    choices = dict(field.choice_strings_to_values)

    def check(value: Any) -> Any:
        if type(value) is not str or value not in choices:
            raise _Rejected
        return choices[value]

    return check


def _pattern(field: serializers.SlugField | serializers.RegexField) -> Check:
    kinds = [type(v) for v in field.validators]
    expected = [
        ProhibitNullCharactersValidator,
        ProhibitSurrogateCharactersValidator,
        RegexValidator,
    ]
    regex = field.validators[-1]
    if (
        kinds != expected
        or regex.inverse_match
        or not field.trim_whitespace
        or field.allow_blank
        or field.max_length is not None
        or field.min_length is not None
    ):
        raise TypeError(f"{field.field_name}: options a slug or pattern lacks by default")
    # A match has no null or surrogate character, so the other two validators pass as well.
    pattern: re.Pattern = regex.regex

    def check(value: Any) -> str:
        if type(value) is not str:
            raise _Rejected
        value = value.strip()
        if not pattern.search(value):
            raise _Rejected
        return value

    return check


def _own_check(field: serializers.Field) -> Check:
    # A field with checks of its own (ranges against each input's rule) says quickly what it
    # validates a value to, or None for any value it would refuse or convert otherwise.
    fast_value = field.fast_value

    def check(value: Any) -> Any:
        validated = fast_value(value)
        if validated is None:
            raise _Rejected
        return validated

    return check


def _field_check(field: serializers.Field) -> Check:
    if hasattr(field, "fast_value"):
        return _own_check(field)
    # Exact types: a subclass may change what it accepts.
    kind = type(field)
    if kind is FiniteFloatField:
        return _finite_float(field)
    if kind is StrictIntegerField:
        return _strict_integer(field)
    if kind is serializers.ChoiceField or kind is ChoiceField:  # the latter words errors only
        return _choice(field)
    if kind is serializers.SlugField or kind is serializers.RegexField:
        return _pattern(field)
    if isinstance(field, serializers.Serializer):
        return _serializer_check(field)
    raise TypeError(f"{field.field_name}: no fast check for {kind.__name__}")


def _serializer_check(serializer: serializers.Serializer) -> Check:
    if serializer.validators or getattr(serializer, "many", False):
        raise TypeError(f"{type(serializer).__name__}: serializer validators or many=True")
    plan = []
    for name, field in serializer.fields.items():
        default = field.default
        if (
            field.read_only
            or field.allow_null
            or field.source != name
            or (default is not empty and callable(default))
        ):
            raise TypeError(f"{name}: read_only, allow_null, source or a callable default")
        if hasattr(serializer, f"validate_{name}"):
            raise TypeError(f"{name}: a validate_{name} method")
        plan.append((name, _field_check(field), field.required, default))
    names = frozenset(serializer.fields)
    strict = isinstance(serializer, StrictSerializer)
    validate = serializer.validate

    def check(data: Any) -> dict:
        if type(data) is not dict or (strict and not names.issuperset(data)):
            raise _Rejected
        validated = {}
        for name, field_check, required, default in plan:
            value = data.get(name, empty)
            if value is not empty:
                validated[name] = field_check(value)
            elif required:
                raise _Rejected
            elif default is not empty:
                validated[name] = default
        return validate(validated)

    return check


class FastValidator:
    """The checks of a serializer class (`StrictSerializer`s of the kinds of field above)."""

    def __init__(self, serializer_class: type[serializers.Serializer]) -> None:
        self._check = _serializer_check(serializer_class())

    def validated_data(self, data: Any) -> dict | None:
        """What `serializer_class(data=data)` validates `data` to, or None: ask the serializer."""
        try:
            return self._check(data)
        except (_Rejected, serializers.ValidationError):
            return None
