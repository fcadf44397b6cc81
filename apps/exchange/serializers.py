"""The API's shapes of exchange rates: a rate used (in every money answer of a project in
another currency) and the query of GET /api/v1/exchange-rates/."""

import datetime

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from apps.estimates.currency import ExchangeRate
from apps.exchange.models import RateTable
from apps.words.currencies import active_currencies


class ExchangeRateSerializer(serializers.Serializer):
    """1 `from` = `rate` `to`, the rate in force on `date` (the newest on or before the day
    asked for), from `source`: "ecb" (the ECB's euro reference rates) or a rate table's name."""

    from_ = serializers.CharField(help_text="ISO 4217 code of the prices' currency: USD.")
    to = serializers.CharField(help_text="ISO 4217 code the figures are in.")
    rate = serializers.DecimalField(max_digits=30, decimal_places=10, coerce_to_string=True)
    date = serializers.DateField(allow_null=True)
    asked = serializers.DateField(allow_null=True, help_text="The day a rate was asked for.")
    source = serializers.CharField()
    pegged = serializers.ListField(
        child=serializers.CharField(),
        help_text="Currencies fixed to the euro by treaty whose parity the rate includes.",
    )
    low = serializers.DecimalField(
        max_digits=30,
        decimal_places=10,
        coerce_to_string=True,
        required=False,
        help_text="Only when the project gives the rate a range: the low end of its 90 % range, "
        "which the ranges' percentiles sample.",
    )
    high = serializers.DecimalField(
        max_digits=30,
        decimal_places=10,
        coerce_to_string=True,
        required=False,
        help_text="Only with `low`: the high end of the rate's 90 % range.",
    )
    fiscal_year = serializers.CharField(
        required=False,
        help_text='Only for a rate the project gives one fiscal year (source "fiscal_year"): '
        'the label of the year it converts ("FY2028").',
    )

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields


def exchange_rate_representation(exchange: ExchangeRate) -> dict:
    """A rate as the API lists it: `from`, `to`, `rate` (a decimal string), `date`, `source`."""
    return {
        "from": exchange.from_currency,
        "to": exchange.to_currency,
        "rate": str(exchange.rate),
        "date": None if exchange.date is None else exchange.date.isoformat(),
        "asked": None if exchange.asked is None else exchange.asked.isoformat(),
        "source": exchange.source,
        "pegged": list(exchange.pegged),
        **(
            {}
            if exchange.low is None or exchange.high is None
            else {"low": str(exchange.low), "high": str(exchange.high)}
        ),
        **({} if exchange.fiscal_year is None else {"fiscal_year": exchange.fiscal_year}),
    }


class RateQuerySerializer(serializers.Serializer):
    from_ = serializers.ChoiceField(
        choices=active_currencies(), help_text="ISO 4217 code of the currency converted: USD."
    )
    to = serializers.ChoiceField(
        choices=active_currencies(), help_text="ISO 4217 code it is converted into: EUR."
    )
    at = serializers.DateField(
        required=False,
        help_text="The day whose rate is wanted (YYYY-MM-DD); default today. A day without a "
        "rate (a weekend) answers the newest earlier one.",
    )

    def get_fields(self):
        fields = super().get_fields()
        fields["from"] = fields.pop("from_")
        return fields

    def day(self) -> datetime.date:
        return self.validated_data.get("at") or datetime.date.today()


class RateTableField(serializers.PrimaryKeyRelatedField):
    """An organisation's rate table by its id (null: the ECB's rates), named when not found."""

    default_error_messages = {
        **serializers.PrimaryKeyRelatedField.default_error_messages,
        "does_not_exist": gettext_lazy("No exchange rate table {pk_value}."),
    }

    def __init__(self, **kwargs) -> None:
        super().__init__(queryset=RateTable.objects.all(), allow_null=True, **kwargs)
