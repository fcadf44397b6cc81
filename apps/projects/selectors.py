"""Reads of projects and scenarios for one user: theirs or shared with them, or a 404."""

from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from apps.projects.models import Project, Scenario
from apps.projects.roles import MANAGER, can_review


def project_for_user(user, project_id: int) -> Project:
    return get_object_or_404(Project.objects.for_user(user).select_related("owner"), pk=project_id)


def scenario_for_user(user, scenario_id: int) -> Scenario:
    """The scenario if the user owns or collaborates on its project, else a 404 (as for one that
    does not exist). One query for the owner, two for a collaborator: no subquery to plan."""
    try:
        scenario = Scenario.objects.select_related("project").get(pk=scenario_id)
    except Scenario.DoesNotExist:
        scenario = None
    if scenario is None or not is_member(user, scenario.project):
        raise Http404(gettext("No scenario of yours has this number."))
    return scenario


def is_member(user, project: Project) -> bool:
    """Whether the user owns or collaborates on the project (Project.objects.for_user's rule)."""
    return is_member_of(user, owner_id=project.owner_id, project_id=project.pk)


def is_member_of(user, *, owner_id: int, project_id: int) -> bool:
    """`is_member` from the project's owner and id alone, for a caller that read them without
    the row (the budget API's stamp query): no query for the owner, one for anyone else."""
    return user.is_authenticated and (
        owner_id == user.pk
        or Project.collaborators.through.objects.filter(
            project_id=project_id, user_id=user.pk
        ).exists()
    )


def can_create_projects(user) -> bool:
    """Managers (and superusers) plan projects; front offices and catalogue editors do not.

    Not every staff member: catalogue editors are staff, since the admin lets in staff only."""
    return user.is_authenticated and (
        user.is_superuser or any(group.name == MANAGER for group in user.groups.all())
    )


def project_for_audit(user, project_id: int) -> Project:
    """The project whose audit log the user may read, else a 404: its owner and collaborators,
    the front office once it is in their queue (submitted at least once), administrators."""
    projects = Project.objects.all()
    if not user.is_superuser:
        visible = Q(pk__in=Project.objects.for_user(user).values("pk"))
        if can_review(user):
            visible |= Q(pk__in=Project.objects.reviewable().values("pk"))
        projects = projects.filter(visible)
    return get_object_or_404(projects, pk=project_id)
