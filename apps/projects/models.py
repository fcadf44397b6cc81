"""A project is a workplan; a scenario is one set of assumptions inside it."""

from django.conf import settings
from django.db import models


class Classification(models.TextChoices):
    PUBLIC = "public", "Public"
    INTERNAL = "internal", "Internal"
    CONFIDENTIAL = "confidential", "Confidential"
    STRICTLY_CONFIDENTIAL = "strictly_confidential", "Strictly confidential"


class ProjectQuerySet(models.QuerySet):
    def for_user(self, user) -> "ProjectQuerySet":
        """Projects this user owns or collaborates on; nobody else's."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(models.Q(owner=user) | models.Q(collaborators=user)).distinct()


class Project(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"

    title = models.CharField(max_length=200)
    unit = models.CharField("organisational unit", max_length=200, blank=True)
    description = models.TextField(blank=True)
    currency = models.CharField(max_length=3, default="USD")
    period_start = models.DateField(null=True, blank=True)
    period_end = models.DateField(null=True, blank=True)
    classification = models.CharField(
        "data classification", max_length=30, choices=Classification, default=Classification.PUBLIC
    )
    status = models.CharField(max_length=20, choices=Status, default=Status.DRAFT)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_projects"
    )
    collaborators = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="shared_projects"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ProjectQuerySet.as_manager()

    class Meta:
        ordering = ["-updated_at"]

    def __str__(self) -> str:
        return self.title


class Scenario(models.Model):
    """Inputs are stored in the estimate API's request shape, so page and API share one format."""

    project = models.ForeignKey(Project, on_delete=models.CASCADE, related_name="scenarios")
    name = models.CharField(max_length=200)
    inputs = models.JSONField(help_text="An estimate request: training, inference, energy_profile.")
    is_baseline = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["project", "-is_baseline", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["project"],
                condition=models.Q(is_baseline=True),
                name="one_baseline_per_project",
            )
        ]

    def __str__(self) -> str:
        return f"{self.project}: {self.name}"
