"""The base of the API's request serializers: unknown fields and wrong JSON types are errors."""

from collections.abc import Mapping

from django.utils.translation import gettext
from rest_framework import serializers
from rest_framework.utils import html

from apps.api.fields import check_json_type


class StrictTypes:
    """For every serializer of a JSON request body (a test checks that each one is): a value of
    the wrong JSON type is refused with the field's own message, never converted."""

    def to_internal_value(self, data):
        if isinstance(data, Mapping) and not html.is_html_input(data):
            errors = {}
            for field in self._writable_fields:
                try:
                    check_json_type(field, field.get_value(data))
                except serializers.ValidationError as error:
                    errors[field.field_name] = error.detail
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


class KnownFieldsOnly:
    """For a serializer: rejects fields it does not know, so a typo is an error instead of a
    silent default."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError(
                    {key: [gettext("Unknown field.")] for key in unknown}
                )
        return super().to_internal_value(data)


class StrictSerializer(KnownFieldsOnly, StrictTypes, serializers.Serializer):
    """Rejects fields it does not know and values of the wrong JSON type."""
