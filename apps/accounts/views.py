"""Account pages: sign-in, preferences, personal API tokens, and the language switcher that
remembers the choice."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from django.views.i18n import set_language

from apps.accounts import services
from apps.accounts.forms import ApiTokenForm, PreferencesForm
from apps.accounts.language import (
    SESSION_LANGUAGE,
    language_preference_set,
    supported_language,
)
from apps.accounts.models import ApiToken, Preferences


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    """The user's language and the emails they receive."""
    instance = Preferences.objects.filter(user=request.user).first() or Preferences(
        user=request.user
    )
    form = PreferencesForm(request.POST or None, instance=instance)
    if request.method == "POST" and form.is_valid():
        saved = services.preferences_save(form=form)
        if saved.language:
            request.session[SESSION_LANGUAGE] = saved.language
        else:
            request.session.pop(SESSION_LANGUAGE, None)
        with translation.override(saved.language or request.LANGUAGE_CODE):  # as shown next
            messages.success(request, gettext("Your preferences are saved."))
        response = redirect("preferences")
        if saved.language:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                saved.language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
    return TemplateResponse(request, "accounts/preferences.html", {"form": form})


class SignInView(LoginView):
    """Django's sign-in page, with the organisation's provider's button when one is configured."""

    def get_context_data(self, **kwargs) -> dict:
        context = super().get_context_data(**kwargs)
        context["organisation_provider"] = (
            settings.OIDC_PROVIDER_NAME if settings.OIDC_ENABLED else None
        )
        return context


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def api_token_list(request: HttpRequest) -> TemplateResponse:
    """GET lists the tokens; POST creates one and shows its key in this response only."""
    form = ApiTokenForm(request.POST if request.method == "POST" else None)
    new_token = new_key = None
    if request.method == "POST" and form.is_valid():
        new_token, new_key = services.api_token_create(
            user=request.user, name=form.cleaned_data["name"]
        )
        form = ApiTokenForm()
    return TemplateResponse(
        request,
        "accounts/api_token_list.html",
        {
            "form": form,
            "tokens": ApiToken.objects.for_user(request.user),
            "new_token": new_token,
            "new_key": new_key,
        },
    )


@login_required
@require_POST
def api_token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    token = get_object_or_404(ApiToken.objects.for_user(request.user), pk=token_id)
    services.api_token_revoke(token=token, user=request.user)
    messages.success(
        request,
        gettext("The token “%(name)s” is revoked and no longer works.") % {"name": token.name},
    )
    return redirect("api-tokens")


@require_POST
def language_switch(request: HttpRequest) -> HttpResponse:
    """Django's set_language (the cookie, and back to `next`), and for a signed-in user the
    choice stored on their account and held by their session. Only the interface's languages."""
    language = supported_language(request.POST.get("language"))
    if language is None:
        return HttpResponseBadRequest(gettext("Choose one of the languages offered."))
    response = set_language(request)
    if request.user.is_authenticated:
        language_preference_set(user=request.user, language=language)
        request.session[SESSION_LANGUAGE] = language
    return response
