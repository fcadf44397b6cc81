"""What the review workflow does, turned into deliveries: receivers of post_save on StatusChange
and ReviewComment (connected in apps.notifications.wiring), in the transaction that saved them."""

from django.contrib.auth import get_user_model

from apps.notifications.deliveries import deliveries_create
from apps.notifications.models import Delivery
from apps.notifications.tasks import send_on_commit
from apps.projects.models import Project, ReviewComment, StatusChange
from apps.projects.roles import FRONT_OFFICE


def project_members(project: Project) -> list:
    """The owner and collaborators of a project."""
    return [project.owner, *project.collaborators.all()]


def front_office() -> list:
    return list(get_user_model().objects.filter(groups__name=FRONT_OFFICE, is_active=True))


def review_participants(project: Project) -> list:
    """Those who took part in a project's review: commented on it or moved its status."""
    User = get_user_model()
    return list(
        User.objects.filter(pk__in=project.comments.values("author"))
        | User.objects.filter(pk__in=project.status_changes.values("changed_by"))
    )


STATUS_KINDS = {
    Project.Status.SUBMITTED: Delivery.Kind.SUBMITTED,
    Project.Status.RETURNED: Delivery.Kind.RETURNED,
    Project.Status.CLEARED: Delivery.Kind.CLEARED,
}


def status_changed(sender, instance: StatusChange, created: bool, raw: bool = False, **kwargs):
    """A submitted workplan to the front office; a returned or cleared one to its owner and
    collaborators. Not to whoever made the change."""
    kind = STATUS_KINDS.get(instance.to_status)
    if not created or raw or kind is None:
        return
    project = instance.project
    if kind == Delivery.Kind.SUBMITTED:
        recipients, choice = front_office(), "email_submitted"
    else:
        recipients, choice = project_members(project), "email_reviewed"
    send_on_commit(
        deliveries_create(
            kind=kind,
            event=f"status-change:{instance.pk}",
            object_id=instance.pk,
            recipients=[user for user in recipients if user.pk != instance.changed_by_id],
            choice=choice,
        )
    )


def comment_added(sender, instance: ReviewComment, created: bool, raw: bool = False, **kwargs):
    """A comment to the others on the project: its owner and collaborators, and those who took
    part in its review; not to its author."""
    if not created or raw:
        return
    project = instance.project
    recipients = project_members(project) + review_participants(project)
    send_on_commit(
        deliveries_create(
            kind=Delivery.Kind.COMMENTED,
            event=f"comment:{instance.pk}",
            object_id=instance.pk,
            recipients=[user for user in recipients if user.pk != instance.author_id],
            choice="email_commented",
        )
    )
