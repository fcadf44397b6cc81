"""API for personal tokens: exchange a username and password for one, list and revoke them."""

from django.contrib.auth import authenticate
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from apps.accounts.models import ApiToken
from apps.accounts.services import api_token_create, api_token_revoke
from apps.api.schema import error_response, validation_error_response
from apps.api.strict import StrictTypes
from apps.api.throttling import ClientAddressThrottle


class AuthTokenRequestSerializer(StrictTypes, serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(
        max_length=4096, trim_whitespace=False, write_only=True, style={"input_type": "password"}
    )
    name = serializers.CharField(
        max_length=100,
        default="API token",
        help_text="What the token is for, for example the script that uses it.",
    )

    def validate(self, attrs: dict) -> dict:
        user = authenticate(
            self.context["request"], username=attrs["username"], password=attrs["password"]
        )
        if user is None:
            # The same words whether the account is missing, disabled or the password wrong.
            raise serializers.ValidationError(
                gettext("Unable to sign in with this username and password."),
                code="authorization",
            )
        return {**attrs, "user": user}


class ApiTokenCreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    token = serializers.CharField(
        help_text="The key, shown in this response only: store it now. Send it as "
        "`Authorization: Bearer <token>`."
    )
    prefix = serializers.CharField(help_text="The first characters of the key, to recognise it.")
    created_at = serializers.DateTimeField()


class ApiTokenSerializer(serializers.ModelSerializer):
    is_active = serializers.BooleanField(read_only=True, help_text="False once revoked.")

    class Meta:
        model = ApiToken
        fields = ("id", "name", "prefix", "created_at", "last_used_at", "revoked_at", "is_active")


class AuthTokenThrottle(ClientAddressThrottle, ScopedRateThrottle):
    """Limits password guessing per client address; REST_FRAMEWORK's rate for the scope wins."""

    rate = "10/minute"

    def get_rate(self) -> str:
        return self.THROTTLE_RATES.get(self.scope, self.rate)


class AuthTokenView(APIView):
    # No session: the credentials are in the body, and the throttle counts per address.
    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_classes = (AuthTokenThrottle,)
    throttle_scope = "auth-token"

    @extend_schema(
        request=AuthTokenRequestSerializer,
        responses={
            201: ApiTokenCreatedSerializer,
            400: validation_error_response("Missing fields, or a wrong username or password."),
            429: error_response("Too many attempts; retry after Retry-After seconds."),
        },
        summary="Create a personal API token with a username and password",
        tags=["auth"],
    )
    def post(self, request: Request) -> Response:
        serializer = AuthTokenRequestSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        token, key = api_token_create(
            user=serializer.validated_data["user"], name=serializer.validated_data["name"]
        )
        created = {
            "id": token.pk,
            "name": token.name,
            "token": key,
            "prefix": token.prefix,
            "created_at": token.created_at,
        }
        return Response(ApiTokenCreatedSerializer(created).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    list=extend_schema(summary="List your API tokens (without their keys)", tags=["auth"]),
    destroy=extend_schema(summary="Revoke one of your API tokens", tags=["auth"]),
)
class ApiTokenViewSet(mixins.ListModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet):
    """The signed-in user's own tokens; anyone else's are 404."""

    queryset = ApiToken.objects.all()
    serializer_class = ApiTokenSerializer
    permission_classes = (IsAuthenticated,)
    pagination_class = None
    lookup_value_regex = r"\d+"

    def get_queryset(self):
        return super().get_queryset().for_user(self.request.user)

    def perform_destroy(self, instance: ApiToken) -> None:
        api_token_revoke(token=instance, user=self.request.user)
