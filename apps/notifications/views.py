"""Pages: a project's invitations (its owner invites by email address), and the page an
invitation's link opens, where the invited person sets their first password."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods

from apps.notifications.forms import InvitationForm, InvitationPasswordForm
from apps.notifications.invitations import invitation_accept as accept
from apps.notifications.invitations import invitation_create
from apps.notifications.links import invitation_id_of
from apps.notifications.models import Invitation
from apps.projects.guards import refuses_frozen_projects
from apps.projects.selectors import project_for_user


@login_required
@require_http_methods(["GET", "POST"])
@refuses_frozen_projects
def project_invitations(request: HttpRequest, project_id: int) -> HttpResponse:
    project = project_for_user(request.user, project_id)
    if project.owner_id != request.user.pk:
        raise PermissionDenied(gettext("Only the project's owner invites collaborators."))
    form = InvitationForm(request.POST or None, initial={"language": request.LANGUAGE_CODE})
    if request.method == "POST" and form.is_valid():
        try:
            invitation = invitation_create(
                project=project, invited_by=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request,
                gettext("%(email)s is invited to “%(title)s”; an email is on its way.")
                % {"email": invitation.email, "title": project.title},
            )
            return redirect("project-invitations", project_id=project.pk)
    return TemplateResponse(
        request,
        "notifications/invitations.html",
        {
            "project": project,
            "form": form,
            "invitations": project.invitations.select_related("invited_by"),
        },
    )


@never_cache
@sensitive_post_parameters()
@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """Set a first password and join; an account already in use is sent to sign in."""
    invitation_id = invitation_id_of(token)
    invitation = (
        Invitation.objects.select_related("project", "invited_by", "user")
        .filter(pk=invitation_id)
        .first()
        if invitation_id
        else None
    )
    if invitation is None or not (
        invitation.user.is_active or not invitation.user.has_usable_password()
    ):
        days = settings.INVITATION_TIMEOUT_SECONDS // (24 * 60 * 60)
        return TemplateResponse(
            request, "notifications/invitation_unavailable.html", {"days": days}, status=404
        )
    context = {"invitation": invitation, "project": invitation.project}
    if invitation.user.is_active:  # taken up already, or the account in use: it joins when
        # it signs in (invitations.joined_on_sign_in); a GET changes nothing, as a mail
        # scanner opening the link must not.
        return TemplateResponse(request, "notifications/invitation_joined.html", context)
    form = InvitationPasswordForm(invitation.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        accept(invitation=invitation, password=form.cleaned_data["new_password1"])
        invitation.user.refresh_from_db()
        login(request, invitation.user, backend=settings.AUTHENTICATION_BACKENDS[0])
        messages.success(
            request,
            gettext("Welcome: your password is set and you have joined “%(title)s”.")
            % {"title": invitation.project.title},
        )
        return redirect(invitation.project.get_absolute_url())
    return TemplateResponse(
        request, "notifications/invitation_accept.html", context | {"form": form}
    )
