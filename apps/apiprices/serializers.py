"""API shapes of the price catalogue: the query and each model's price in force."""

import datetime

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from apps.apiprices.models import PriceTier


class DayQuerySerializer(serializers.Serializer):
    at = serializers.DateField(
        required=False, help_text="The day whose prices are wanted (YYYY-MM-DD); default today."
    )

    def day(self) -> datetime.date:
        return self.validated_data.get("at") or datetime.date.today()


class PriceQuerySerializer(DayQuerySerializer):
    provider = serializers.CharField(
        required=False, allow_blank=True, max_length=60, help_text="e.g. openai"
    )
    model = serializers.CharField(
        required=False, allow_blank=True, max_length=160, help_text="e.g. gpt-4o"
    )


def _price(**kwargs) -> serializers.DecimalField:
    return serializers.DecimalField(
        max_digits=14,
        decimal_places=6,
        normalize_output=True,
        help_text="USD per million tokens.",
        **kwargs,
    )


class TierPriceSerializer(serializers.Serializer):
    tier = serializers.CharField(help_text="off_peak or long_prompt (the value of api_price_tier).")
    above_input_tokens = serializers.IntegerField(
        allow_null=True, help_text="long_prompt: the prompt length above which it applies."
    )
    input = _price()
    cached_input = _price(allow_null=True)
    output = _price()
    valid_from = serializers.DateField(
        allow_null=True,
        help_text="The day this tier's price came into force; null: before the catalogue's "
        "history.",
    )


class ApiPriceSerializer(serializers.Serializer):
    provider = serializers.CharField(source="api_model.provider")
    model = serializers.CharField(source="api_model.model")
    slug = serializers.SlugField(source="api_model.slug")
    input = _price(source="price.input")
    cached_input = _price(source="price.cached_input", allow_null=True)
    output = _price(source="price.output")
    valid_from = serializers.DateField(
        source="price.valid_from",
        allow_null=True,
        help_text="The day this price came into force; null: before the catalogue's history.",
    )
    tiers = serializers.SerializerMethodField(
        help_text="The price tiers other than the standard price offered that day, which "
        "inference.api_price_tier may choose."
    )
    checked_on = serializers.DateField(source="api_model.as_of")
    source_url = serializers.CharField(source="api_model.source")
    catalogue_version = serializers.CharField(source="api_model.catalogue_version")

    @extend_schema_field(TierPriceSerializer(many=True))
    def get_tiers(self, row) -> list:
        others = [price for tier, price in row.tiers.items() if tier != PriceTier.STANDARD]
        return TierPriceSerializer(others, many=True).data
