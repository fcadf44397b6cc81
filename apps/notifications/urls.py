"""Routes: a project's invitations, an invitation's link, and Django's password reset pages
(whose email a Celery task sends: PasswordResetRequestForm)."""

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.urls import path
from django.views.decorators.http import require_http_methods

from apps.notifications import views
from apps.notifications.forms import PasswordResetRequestForm

# Django's form views answer PUT as if it were POST; these pages take GET and POST only.
FORM_METHODS = ["get", "post", "head", "options"]

urlpatterns = [
    path(
        "projects/<int:project_id>/invitations/",
        views.project_invitations,
        name="project-invitations",
    ),
    path("invitations/<str:token>/", views.invitation_accept, name="invitation-accept"),
    path(
        "accounts/password/reset/",
        auth_views.PasswordResetView.as_view(
            form_class=PasswordResetRequestForm, http_method_names=FORM_METHODS
        ),
        name="password_reset",
    ),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(
            extra_context={"days": settings.PASSWORD_RESET_TIMEOUT // (24 * 60 * 60)}
        ),
        name="password_reset_done",
    ),
    path(
        "accounts/reset/<uidb64>/<token>/",
        # Django's view reads the link before the method: a bad link answered PUT with its page.
        require_http_methods(["GET", "POST"])(auth_views.PasswordResetConfirmView.as_view()),
        name="password_reset_confirm",
    ),
    path(
        "accounts/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
]
