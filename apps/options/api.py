"""API of the decision view: options compared for a saved scenario, or for a request."""

from django.utils import timezone
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api.schema import error_response
from apps.api.throttling import AnonOrUserRateThrottle
from apps.apiprices.models import PriceTier
from apps.catalogue.models import CommitmentDiscount
from apps.estimates.budget import BudgetRules
from apps.estimates.budget.fiscal import CalendarError
from apps.estimates.options import OPTION_KEYS
from apps.options.representation import options_representation
from apps.options.serializers import OptionsRequestSerializer, OptionsResponseSerializer
from apps.options.services import (
    COMMITMENT,
    BudgetSettings,
    chosen_options,
    kept_options,
    options_compare,
    scenario_options_compare,
)
from apps.projects.selectors import scenario_for_user
from apps.words.messages import error_line


def _settings(budget: dict | None) -> BudgetSettings:
    budget = budget or {}
    return BudgetSettings(
        fiscal_year_start_month=budget.get("fiscal_year_start_month", 1),
        fiscal_year_label=budget.get("fiscal_year_label", "end_year"),
        period_start=budget.get("period_start"),
        period_end=budget.get("period_end"),
        rules=BudgetRules(discount_rate=budget.get("discount_rate", BudgetRules.discount_rate)),
        training_start=budget.get("training_start"),
        service_start=budget.get("service_start"),
    )


@extend_schema(
    request=OptionsRequestSerializer,
    responses={200: OptionsResponseSerializer},
    summary="Compare the ways to serve a demand: an external API, rented or owned "
    "accelerators, fine-tuning or building a model",
)
@api_view(["POST"])
@permission_classes([AllowAny])
@throttle_classes([AnonOrUserRateThrottle])
def options_view(request: Request) -> Response:
    serializer = OptionsRequestSerializer(data=request.data)
    serializer.is_valid(raise_exception=True)
    data = dict(serializer.validated_data)
    choices, budget = data.pop("options", None), data.pop("budget", None)
    compared = options_compare(data, choices, _settings(budget), today=timezone.localdate())
    return Response(options_representation(kept_options(compared)))


class ScenarioOptionsQuerySerializer(serializers.Serializer):
    options = serializers.CharField(
        required=False,
        help_text=f"Comma-separated keys among {', '.join(OPTION_KEYS)} (default: all that apply).",
    )
    api_model = serializers.SlugField(required=False, help_text="external_api: catalogue slug.")
    accelerator = serializers.SlugField(
        required=False, help_text="Self-hosting options: accelerator catalogue slug."
    )
    api_price_tier = serializers.ChoiceField(
        choices=PriceTier.values,
        required=False,
        help_text="external_api: the API model's price tier (default: the scenario's, else "
        "standard).",
    )
    commitment_years = serializers.ChoiceField(
        choices=("1", "3"),
        required=False,
        help_text="rent_committed: the term in years (default: the scenario's, else 1).",
    )
    upfront_share = serializers.FloatField(
        required=False,
        min_value=0,
        max_value=1,
        help_text="rent_committed: the share of each term paid at its start [0].",
    )
    commitment_discount = serializers.FloatField(
        required=False,
        min_value=0,
        max_value=0.99,
        help_text="rent_committed: the share off the on-demand price (default: the provider's "
        "published one, else the median of the providers').",
    )
    commitment_provider = serializers.ChoiceField(
        choices=CommitmentDiscount.Provider.values,
        required=False,
        help_text="rent_committed: whose published discount to use.",
    )

    def validate_options(self, value: str) -> list[str]:
        keys = [key.strip() for key in value.split(",") if key.strip()]
        unknown = sorted(set(keys) - set(OPTION_KEYS))
        if unknown or not keys or len(set(keys)) != len(keys):
            raise serializers.ValidationError(
                gettext("Give distinct keys among %(keys)s, separated by commas.")
                % {"keys": ", ".join(OPTION_KEYS)}
            )
        return keys


@extend_schema(
    parameters=[
        ScenarioOptionsQuerySerializer,
        OpenApiParameter("scenario_id", OpenApiTypes.INT, OpenApiParameter.PATH),
    ],
    responses={
        200: OptionsResponseSerializer,
        409: error_response("The project's planning period makes no fiscal year to compare on."),
    },
    summary="Compare the options for a saved scenario, on its project's budget calendar",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def scenario_options(request: Request, scenario_id: int) -> Response:
    scenario = scenario_for_user(request.user, scenario_id)
    # A plain dict: a parameter given empty is refused as its schema says, not taken as left out.
    query = ScenarioOptionsQuerySerializer(data=request.query_params.dict())
    query.is_valid(raise_exception=True)
    given = query.validated_data
    commitment = {name: given.get(name) for name in COMMITMENT if name in given}
    if "commitment_years" in commitment:
        commitment["commitment_years"] = int(commitment["commitment_years"])
    choices = chosen_options(
        given.get("options"),
        given.get("api_model"),
        given.get("accelerator"),
        given.get("api_price_tier"),
        commitment,
    )
    try:
        compared = scenario_options_compare(scenario, choices, today=timezone.localdate())
    except CalendarError as error:
        return Response({"detail": error_line(error.errors)}, status=409)
    return Response(options_representation(kept_options(compared, scenario.project.currency)))
