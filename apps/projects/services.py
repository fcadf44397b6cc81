"""Writes to projects and scenarios: each one a transaction, validated before it is saved."""

from django.db import transaction

from apps.projects.models import Project, Scenario
from apps.projects.presets import Preset


@transaction.atomic
def project_create(*, owner, fields: dict, collaborators: list, preset: Preset) -> Project:
    """A new draft project with a first scenario, the baseline, started from a preset."""
    project = Project(owner=owner, **fields)
    project.full_clean()
    project.save()
    project.collaborators.set(collaborators)
    scenario_create(project=project, name=preset.name, inputs=preset.inputs, is_baseline=True)
    return project


@transaction.atomic
def project_update(*, project: Project, fields: dict, collaborators: list) -> Project:
    for name, value in fields.items():
        setattr(project, name, value)
    project.full_clean()
    project.save()
    project.collaborators.set(collaborators)
    return project


@transaction.atomic
def project_delete(*, project: Project) -> None:
    """Delete a project and, with it, every one of its scenarios."""
    project.delete()


@transaction.atomic
def scenario_create(
    *, project: Project, name: str, inputs: dict, is_baseline: bool = False
) -> Scenario:
    if is_baseline:
        project.scenarios.filter(is_baseline=True).update(is_baseline=False)
    scenario = Scenario(project=project, name=name, inputs=inputs, is_baseline=is_baseline)
    scenario.full_clean()
    scenario.save()
    project.save(update_fields=["updated_at"])
    return scenario


@transaction.atomic
def scenario_update(*, scenario: Scenario, name: str, inputs: dict) -> Scenario:
    scenario.name = name
    scenario.inputs = inputs
    scenario.full_clean()
    scenario.save(update_fields=["name", "inputs", "updated_at"])
    scenario.project.save(update_fields=["updated_at"])
    return scenario


def scenario_duplicate(*, scenario: Scenario) -> Scenario:
    return scenario_create(
        project=scenario.project, name=f"Copy of {scenario.name}"[:200], inputs=scenario.inputs
    )


@transaction.atomic
def scenario_set_baseline(*, scenario: Scenario) -> Scenario:
    scenario.project.scenarios.filter(is_baseline=True).update(is_baseline=False)
    scenario.is_baseline = True
    scenario.save(update_fields=["is_baseline", "updated_at"])
    return scenario


@transaction.atomic
def scenario_delete(*, scenario: Scenario) -> None:
    scenario.delete()
