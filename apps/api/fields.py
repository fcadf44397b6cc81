"""Serializer fields that accept JSON numbers only, and only finite ones."""

import math

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
