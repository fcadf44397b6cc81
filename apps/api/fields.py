"""Serializer fields: JSON numbers only (and only finite ones) in, money as decimal strings out;
slugs of related objects looked up safely."""

import math

from django.utils.encoding import smart_str
from rest_framework import serializers


class FiniteFloatField(serializers.FloatField):
    """A JSON number (not a string, not a boolean) that is finite and fits in a float."""

    default_error_messages = {
        "invalid": "Enter a number.",
        "not_finite": "Enter a finite number (not NaN or infinity).",
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


class SafeSlugRelatedField(serializers.SlugRelatedField):
    """A SlugRelatedField whose lookups never carry a NUL character, which PostgreSQL refuses
    with an error (a 500): no object has such a slug, so it is not found, as any other."""

    def to_internal_value(self, data):
        if isinstance(data, str) and "\x00" in data:
            self.fail("does_not_exist", slug_name=self.slug_field, value=smart_str(data))
        return super().to_internal_value(data)
