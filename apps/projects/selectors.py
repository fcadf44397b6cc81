"""Reads of projects and scenarios for one user: theirs or shared with them, or a 404."""

from django.shortcuts import get_object_or_404

from apps.projects.models import Project, Scenario


def project_for_user(user, project_id: int) -> Project:
    return get_object_or_404(Project.objects.for_user(user).select_related("owner"), pk=project_id)


def scenario_for_user(user, scenario_id: int) -> Scenario:
    return get_object_or_404(
        Scenario.objects.select_related("project", "project__owner").filter(
            project__in=Project.objects.for_user(user)
        ),
        pk=scenario_id,
    )


def can_create_projects(user) -> bool:
    """Managers (and staff) plan projects; front offices and catalogue editors do not."""
    return user.is_authenticated and (
        user.is_staff or any(group.name == "manager" for group in user.groups.all())
    )
