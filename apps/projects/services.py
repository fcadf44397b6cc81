"""Writes to projects and scenarios: each one a transaction, validated before it is saved."""

from django.db import transaction

from apps.projects.models import Project, Scenario, ScenarioVersion
from apps.projects.presets import Preset
from apps.projects.versions import version_record


class ScenarioConflict(Exception):
    """The scenario was saved by someone else since the form or request was based on it."""

    def __init__(self, latest: ScenarioVersion) -> None:
        self.latest = latest
        super().__init__(f"Version {latest.number} was saved in the meantime.")


@transaction.atomic
def project_create(*, owner, fields: dict, collaborators: list, preset: Preset) -> Project:
    """A new draft project with a first scenario, the baseline, started from a preset."""
    project = Project(owner=owner, **fields)
    project.full_clean()
    project.save()
    project.collaborators.set(collaborators)
    scenario_create(
        project=project, name=preset.name, inputs=preset.inputs, is_baseline=True, user=owner
    )
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
    *, project: Project, name: str, inputs: dict, is_baseline: bool = False, user=None
) -> Scenario:
    """A new scenario, saved as its version 1."""
    if is_baseline:
        project.scenarios.filter(is_baseline=True).update(is_baseline=False)
    scenario = Scenario(
        project=project, name=name, inputs=inputs, is_baseline=is_baseline, version=1
    )
    scenario.full_clean()
    scenario.save()
    version_record(scenario=scenario, user=user)
    project.save(update_fields=["updated_at"])
    return scenario


@transaction.atomic
def scenario_update(
    *,
    scenario: Scenario,
    name: str,
    inputs: dict,
    user=None,
    expected_version: int | None = None,
) -> Scenario:
    """Save a new version; raise ScenarioConflict if `expected_version` is no longer the latest.

    The row is locked while it is checked and written, so two saves based on the same version
    cannot both succeed.
    """
    latest = Scenario.objects.select_for_update().only("version").get(pk=scenario.pk).version
    if expected_version is not None and expected_version != latest:
        raise ScenarioConflict(scenario.versions.get(number=latest))
    scenario.name = name
    scenario.inputs = inputs
    scenario.version = latest + 1
    scenario.full_clean()
    scenario.save(update_fields=["name", "inputs", "version", "updated_at"])
    version_record(scenario=scenario, user=user)
    scenario.project.save(update_fields=["updated_at"])
    return scenario


def scenario_duplicate(*, scenario: Scenario, user=None) -> Scenario:
    return scenario_create(
        project=scenario.project,
        name=f"Copy of {scenario.name}"[:200],
        inputs=scenario.inputs,
        user=user,
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
