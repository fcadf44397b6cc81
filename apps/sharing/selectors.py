"""Reads for share links: what a link may show, and the link a token opens (or none)."""

import re

from apps.projects.models import Project, ProjectSnapshot, Scenario, ScenarioVersion
from apps.sharing.models import ShareLink, share_token_hash

# token_urlsafe(TOKEN_BYTES) writes 43 characters of the URL-safe base64 alphabet.
TOKEN_PATTERN = re.compile(r"[A-Za-z0-9_-]{43}")
SHAREABLE_PROJECT_STATUSES = {Project.Status.SUBMITTED, Project.Status.CLEARED}


def latest_version(scenario: Scenario) -> ScenarioVersion | None:
    """The scenario as it was last saved; None if it has never been saved as a version."""
    return scenario.versions.filter(number=scenario.version).first()


def latest_snapshot(project: Project) -> ProjectSnapshot | None:
    """The snapshot taken when the project was submitted; None unless it is submitted or cleared."""
    if project.status not in SHAREABLE_PROJECT_STATUSES:
        return None
    return project.snapshots.order_by("-number").first()


def active_link(token: str) -> ShareLink | None:
    """The link this token opens right now; None if unknown, expired or revoked."""
    if not TOKEN_PATTERN.fullmatch(token):
        return None
    return (
        ShareLink.objects.active()
        .select_related("project", "scenario_version", "snapshot")
        .filter(token_hash=share_token_hash(token))
        .first()
    )


def shared_versions(link: ShareLink) -> list[ScenarioVersion]:
    """The scenario versions a link shows: one, or each of its snapshot's, the baseline first."""
    if link.snapshot is None:
        return [link.scenario_version]
    return list(link.snapshot.scenario_versions.order_by("-scenario__is_baseline", "name", "pk"))
