"""The base of the API's request serializers: unknown fields are errors, not silently dropped."""

from rest_framework import serializers


class StrictSerializer(serializers.Serializer):
    """Rejects fields it does not know, so a typo is an error instead of a silent default."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({key: ["Unknown field."] for key in unknown})
        return super().to_internal_value(data)
