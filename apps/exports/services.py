"""Importing a project from its JSON export."""

from django.db import transaction

from apps.audit.context import one_action
from apps.audit.services import Action, audit_event_create
from apps.budget.services import scenario_create_with_lines
from apps.projects.models import Project


@transaction.atomic
def project_import(*, owner, details: dict) -> Project:
    """A new draft project owned by `owner`, with the exported details, budget settings and
    scenarios, each with its timing and cost lines.

    `details` is the validated "project" of a ProjectDocumentSerializer; what it leaves out (a
    file of format version 1) takes the model's defaults. Each scenario is saved as its version
    1 with its cost lines, and its results are worked out again; collaborators are not carried
    over, so an import never gives anyone access on the importer's behalf. A project with
    scenarios has one baseline: when the document names none, its first scenario becomes it
    (the serializer refuses a document naming several). All of it or nothing is saved.
    """
    fields = {key: value for key, value in details.items() if key != "scenarios"}
    project = Project(owner=owner, **fields)
    project.full_clean()
    project.save()
    scenarios = details["scenarios"]
    named = any(scenario["is_baseline"] for scenario in scenarios)
    with one_action():  # the import is one event, whatever it holds
        for index, scenario in enumerate(scenarios):
            scenario_create_with_lines(
                project=project,
                name=scenario["name"],
                inputs=scenario["inputs"],
                lines=scenario.get("cost_lines", []),
                is_baseline=scenario["is_baseline"] or (index == 0 and not named),
                user=owner,
                timing=scenario,
            )
    audit_event_create(
        action=Action.DATA_IMPORTED,
        actor=owner,
        subject=project,
        project_id=project.pk,
        changes={
            "title": [None, project.title],
            "scenarios": [None, [scenario["name"] for scenario in scenarios]],
        },
    )
    return project
