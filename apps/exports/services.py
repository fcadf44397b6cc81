"""Importing a project from its JSON export."""

from django.db import transaction

from apps.projects.models import Project
from apps.projects.services import scenario_create


@transaction.atomic
def project_import(*, owner, details: dict) -> Project:
    """A new draft project owned by `owner`, with the exported details and scenarios.

    `details` is the validated "project" of a ProjectDocumentSerializer. Each scenario is saved
    as its version 1 and its results are recomputed; collaborators are not carried over, so an
    import never gives anyone access on the importer's behalf. A project with scenarios has one
    baseline: when the document names none, its first scenario becomes it (the serializer
    refuses a document naming several).
    """
    fields = {key: value for key, value in details.items() if key != "scenarios"}
    project = Project(owner=owner, **fields)
    project.full_clean()
    project.save()
    scenarios = details["scenarios"]
    named = any(scenario["is_baseline"] for scenario in scenarios)
    for index, scenario in enumerate(scenarios):
        scenario_create(
            project=project,
            name=scenario["name"],
            inputs=scenario["inputs"],
            is_baseline=scenario["is_baseline"] or (index == 0 and not named),
            user=owner,
        )
    return project
