"""Serializer fields: JSON numbers only (and only finite ones) in, money as decimal strings out;
slugs of related objects looked up safely; every field's JSON type checked (`check_json_type`)."""

import math
import re
from typing import Any

from django.utils.encoding import smart_str
from django.utils.translation import gettext_lazy
from rest_framework import relations, serializers
from rest_framework.fields import empty
from rest_framework.settings import api_settings


class FiniteFloatField(serializers.FloatField):
    """A JSON number (not a string, not a boolean) that is finite and fits in a float."""

    default_error_messages = {
        "invalid": gettext_lazy("Enter a number."),
        "not_finite": gettext_lazy("Enter a finite number (not NaN or infinity)."),
    }

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        try:
            value = float(data)
        except OverflowError:
            self.fail("not_finite")
        if not math.isfinite(value):
            self.fail("not_finite")
        return super().to_internal_value(value)


class StrictIntegerField(serializers.IntegerField):
    """A JSON whole number (not a string, not a boolean)."""

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        if isinstance(data, float) and not (math.isfinite(data) and data.is_integer()):
            self.fail("invalid")
        return super().to_internal_value(int(data))


class MoneyField(serializers.DecimalField):
    """An amount rounded to the cent, as a decimal string ("1234.50"), however large.

    Valid input can cost up to about 1e293; the largest float has 309 digits before the point.
    """

    def __init__(self, **kwargs):
        super().__init__(max_digits=309 + 2, decimal_places=2, **kwargs)


class MoneyFigureField(serializers.DecimalField):
    """An amount as an estimate reports it, as a decimal string: to the cent from one cent up
    ("1234.50"), four significant figures below a cent ("0.001664")."""

    def __init__(self, **kwargs):
        super().__init__(max_digits=None, decimal_places=None, **kwargs)


class ChoiceField(serializers.ChoiceField):
    """A choice whose error lists the valid ones, as they are written in a request."""

    default_error_messages = {
        "invalid_choice": gettext_lazy('"{input}" is not a valid choice; choose one of: {choices}.')
    }

    def fail(self, key, **kwargs):
        if key == "invalid_choice":
            kwargs.setdefault("choices", ", ".join(str(choice) for choice in self.choices))
        super().fail(key, **kwargs)


class SafeSlugRelatedField(serializers.SlugRelatedField):
    """A SlugRelatedField whose lookups never carry a NUL character, which PostgreSQL refuses
    with an error (a 500): no object has such a slug, so it is not found, as any other."""

    def to_internal_value(self, data):
        if isinstance(data, str) and "\x00" in data:
            self.fail("does_not_exist", slug_name=self.slug_field, value=smart_str(data))
        return super().to_internal_value(data)


def _is_number(value: Any) -> bool:
    return type(value) in (int, float)


def _is_whole_number(value: Any) -> bool:
    return type(value) is int or (type(value) is float and value.is_integer())


def _is_string(value: Any) -> bool:
    return type(value) is str


def _is_decimal(field: serializers.DecimalField) -> Any:
    """A decimal is a string in the schema unless the field gives it as a number."""
    # A model serializer's DecimalField may not have set it (DRF sets it in __init__ only
    # when given); absent means the project-wide setting.
    as_string = getattr(field, "coerce_to_string", None)
    if as_string is None:
        as_string = api_settings.COERCE_DECIMAL_TO_STRING
    return _is_string if as_string else _is_number


def decimal_pattern(field: serializers.DecimalField) -> str:
    """The pattern of a decimal string, which the schema states and `check_json_type` applies:
    at least one digit, no more whole digits or decimals than the field keeps, no exponent, no
    spaces, and a minus sign only where the field takes a negative value."""
    sign = "-?" if field.min_value is None or field.min_value < 0 else ""
    whole = field.max_whole_digits
    digits = r"\d+" if whole is None else rf"\d{{1,{whole}}}"
    places = field.decimal_places
    if places == 0:
        return rf"^{sign}(?:{digits})$"
    decimals = r"\d" + ("*" if places is None else f"{{0,{places}}}")
    first = r"\d" + ("+" if places is None else f"{{1,{places}}}")
    if sign == "" and field.max_value == 1:
        # A fraction (a rate from 0 to 1): the pattern states the bound, which no JSON Schema
        # keyword can for a string.
        zeros = "0" + ("*" if places is None else f"{{0,{places}}}")
        return rf"^(?:0(?:\.{decimals})?|1(?:\.{zeros})?|\.{first})$"
    return rf"^{sign}(?:{digits}(?:\.{decimals})?|\.{first})$"


def check_json_type(field: serializers.Field, value: Any) -> None:
    """Raise the field's own ValidationError when `value` is not of the JSON type the field's
    schema gives (a number where a string is expected, a string where a boolean or a number is),
    instead of letting DRF convert it: DRF takes 0 as "0", "true" as true and "12" as 12.

    Fields of other kinds check their own types: nested serializers (which are `StrictTypes` in
    their turn), dates (strings), JSON and the app's own fields. Null is for `allow_null`.
    """
    if value is empty or value is None:
        return
    lists = serializers.ListField | serializers.MultipleChoiceField | relations.ManyRelatedField
    if isinstance(field, lists):
        # DRF takes any iterable but a string, so an object would pass as the list of its keys.
        if type(value) is not list:
            field.fail("not_a_list", input_type=type(value).__name__)
        child = getattr(field, "child", None) or getattr(field, "child_relation", None)
        for item in value if child is not None else ():
            check_json_type(child, item)
        if isinstance(field, serializers.MultipleChoiceField):
            for item in value:
                _check_choice(field, item)
        return
    if isinstance(field, serializers.DictField):
        if isinstance(value, dict) and field.child is not None:
            for item in value.values():
                check_json_type(field.child, item)
        return
    if isinstance(field, serializers.ChoiceField):
        _check_choice(field, value)
        return
    if isinstance(field, relations.PrimaryKeyRelatedField):
        if not _is_whole_number(value) or type(value) is bool:
            field.fail("incorrect_type", data_type=type(value).__name__)
        return
    fits = None
    if isinstance(field, serializers.BooleanField):
        fits = type(value) is bool
    elif isinstance(field, serializers.IntegerField):
        fits = _is_whole_number(value)
    elif isinstance(field, serializers.FloatField):
        fits = _is_number(value)
    elif isinstance(field, serializers.DecimalField):
        fits = _is_decimal(field)(value)
        if fits and type(value) is str:
            fits = re.fullmatch(decimal_pattern(field), value) is not None
    elif isinstance(field, serializers.CharField | relations.SlugRelatedField):
        fits = _is_string(value)
    if fits is False:
        field.fail("invalid")


def _check_choice(field: serializers.ChoiceField, value: Any) -> None:
    """A choice is one of the choices' own values, of their type: not 1 for "1"."""
    if value == "" and field.allow_blank:
        return
    if not any(type(value) is type(choice) and value == choice for choice in field.choices):
        field.fail("invalid_choice", input=value)


def rate(help_text: str, **kwargs) -> serializers.DecimalField:
    """A rate as a JSON number, a fraction from 0 to 1 (0.035 for 3.5 %)."""
    return serializers.DecimalField(
        max_digits=7,
        decimal_places=6,
        min_value=0,
        max_value=1,
        coerce_to_string=False,
        help_text=help_text,
        **kwargs,
    )
