"""Account pages: sign in, sign out, password change, preferences, language, API tokens."""

from django.contrib.auth import views as auth_views
from django.urls import path

from apps.accounts import oidc, views

# Django's form views answer PUT as if it were POST; these pages take GET and POST only.
FORM_METHODS = ["get", "post", "head", "options"]

urlpatterns = [
    path("login/", views.SignInView.as_view(http_method_names=FORM_METHODS), name="login"),
    path("oidc/sign-in/", oidc.OrganisationSignInView.as_view(), name="oidc-sign-in"),
    path("oidc/callback/", oidc.OrganisationCallbackView.as_view(), name="oidc-callback"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "password/",
        auth_views.PasswordChangeView.as_view(http_method_names=FORM_METHODS),
        name="password_change",
    ),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("preferences/", views.preferences, name="preferences"),
    path("language/", views.language_switch, name="language-switch"),
    path("tokens/", views.api_token_list, name="api-tokens"),
    path("tokens/<int:token_id>/revoke/", views.api_token_revoke, name="api-token-revoke"),
]
