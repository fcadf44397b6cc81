"""Serializers of ranges: 90 % intervals on a request's numbers in, percentiles of figures out."""

from django.utils.translation import gettext
from rest_framework import serializers

from apps.api.fields import FiniteFloatField, MoneyFigureField, StrictIntegerField
from apps.api.strict import StrictSerializer, StrictTypes
from apps.catalogue import uncertainty
from apps.estimates.limits import RULES
from apps.estimates.uncertainty import BREAK_EVEN, FIGURES, MONEY_FIGURES
from apps.estimates.uncertainty_draws import range_errors
from apps.words.messages import message_texts

RANGE_PATH_SET = frozenset(uncertainty.RANGE_PATHS)
LOW_HIGH = {"low", "high"}
NUMBER_TYPES = (int, float)  # exact types: a boolean is not a number here


class RangeSerializer(StrictSerializer):
    low = FiniteFloatField(help_text="The 5th percentile: 90 % sure the value is above it.")
    high = FiniteFloatField(help_text="The 95th percentile: 90 % sure it is below; = low: fixed.")


def _messages(detail) -> list[str]:
    """A range's errors as one list of messages ("low: Enter a number.")."""
    if isinstance(detail, dict):
        return [
            message if key == "non_field_errors" else f"{key}: {message}"
            for key, messages in detail.items()
            for message in _messages(messages)
        ]
    return [str(message) for message in detail]


class RangesSerializer(StrictTypes, serializers.Serializer):
    """Ranges keyed by the dotted path of the request's number ("training.mfu", "pue"). Each is
    sampled as a lognormal with those 5th and 95th percentiles (monthly growth: 1 + g is), and
    clipped to the input's valid range. Errors are a list of messages at the range's path."""

    def get_fields(self):
        return {path: RangeSerializer(required=False) for path in uncertainty.RANGE_PATHS}

    def _range_field(self, path: str) -> RangeSerializer:
        """The field of the range at `path`, as `fields` holds it, built for a path the request
        gives only: building all of them (a serializer and two fields for each input that takes
        a range) cost more than the rest of a refused request's validation."""
        field = RangeSerializer(required=False)
        field.bind(field_name=path, parent=self)
        return field

    @staticmethod
    def fast_value(data) -> dict | None:
        """What validation gives for `data`, without building a field per path, when every
        range is two JSON numbers at a known path that make a valid range; else None (ask
        the serializer, whose errors are the response)."""
        if type(data) is not dict:
            return None
        ranges = {}
        for path, interval in data.items():
            if (
                path not in RANGE_PATH_SET
                or type(interval) is not dict
                or interval.keys() != LOW_HIGH
            ):
                return None
            low, high = interval["low"], interval["high"]
            if type(low) not in NUMBER_TYPES or type(high) not in NUMBER_TYPES:
                return None
            try:
                low, high = float(low), float(high)
            except OverflowError:
                return None
            if range_errors(path.rpartition(".")[2], low, high):
                return None
            ranges[path] = {"low": low, "high": high}
        return ranges

    def to_internal_value(self, data):
        if not isinstance(data, dict):
            raise serializers.ValidationError(
                {
                    "non_field_errors": [
                        gettext('Give an object: {"training.mfu": {"low": …, "high": …}}.')
                    ]
                }
            )
        errors, ranges = {}, {}
        for path, value in data.items():
            if path not in RANGE_PATH_SET:
                rule = RULES.get(str(path).rpartition(".")[2])
                errors[path] = (
                    message_texts(range_errors(str(path).rpartition(".")[2], 0, 0))
                    if rule is not None and rule.whole
                    else [gettext("Unknown input: no number of the request has this path.")]
                )
                continue
            try:
                interval = self._range_field(path).run_validation(value)
            except serializers.ValidationError as error:
                errors[path] = _messages(error.detail)
                continue
            messages = message_texts(
                range_errors(path.rpartition(".")[2], interval["low"], interval["high"])
            )
            if messages:
                errors[path] = messages
            else:
                ranges[path] = interval
        if errors:
            raise serializers.ValidationError(errors)
        return ranges


class UncertaintySettingsSerializer(StrictSerializer):
    samples = StrictIntegerField(
        help_text="Monte Carlo samples, 1,000–1,000,000 [100,000].",
        default=uncertainty.DEFAULT_SAMPLES,
        min_value=uncertainty.MIN_SAMPLES,
        max_value=uncertainty.MAX_SAMPLES,
    )
    seed = StrictIntegerField(
        help_text="Seed of the random draws: the same seed gives the same figures [0].",
        default=0,
        min_value=0,
        max_value=uncertainty.MAX_SEED,
    )


# Responses: read from the engine's UncertaintyResult by attribute.


class FigureRangeSerializer(serializers.Serializer):
    p5 = serializers.FloatField()
    p50 = serializers.FloatField()
    p95 = serializers.FloatField()
    mean = serializers.FloatField()


class MoneyRangeSerializer(serializers.Serializer):
    p5 = MoneyFigureField()
    p50 = MoneyFigureField()
    p95 = MoneyFigureField()
    mean = MoneyFigureField()


class BreakEvenRangeSerializer(serializers.Serializer):
    p5 = serializers.FloatField(allow_null=True, help_text="null: never within the horizon.")
    p50 = serializers.FloatField(allow_null=True, help_text="null: never within the horizon.")
    p95 = serializers.FloatField(allow_null=True, help_text="null: never within the horizon.")
    mean = serializers.FloatField(allow_null=True, help_text="null: some samples never do.")
    probability_never = serializers.FloatField(
        help_text="Share of samples with no break-even within the horizon (counted as +inf)."
    )


class UncertaintyFiguresSerializer(serializers.Serializer):
    """Percentiles of each figure's samples, by its path in this response; a figure that cannot
    be computed (no power figure, a section missing) is absent."""

    def get_fields(self):
        def kind(path: str) -> serializers.Serializer:
            if path == BREAK_EVEN:
                return BreakEvenRangeSerializer(required=False)
            if path in MONEY_FIGURES:
                return MoneyRangeSerializer(required=False)
            return FigureRangeSerializer(required=False)

        return {path: kind(path) for path in FIGURES}

    def to_representation(self, instance):
        # Keyed by dotted path, which DRF would read as nested attributes.
        return {
            path: field.to_representation(instance[path])
            for path, field in self.fields.items()
            if path in instance
        }


class UncertaintyResultSerializer(serializers.Serializer):
    samples = serializers.IntegerField()
    seed = serializers.IntegerField()
    figures = UncertaintyFiguresSerializer()
    clipped = serializers.DictField(
        child=serializers.FloatField(),
        help_text="Share of each ranged input's samples clipped to its valid bounds, by path.",
    )
    shared = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Inputs sampled as one driver: the same price for training and inference.",
    )
