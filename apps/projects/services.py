"""Writes to projects and scenarios: each one a transaction, validated before it is saved.

Every write first checks that the project may change (`Project.check_can_edit`): submitted and
cleared projects are frozen, whichever page or API call tries to change them.
"""

from collections.abc import Callable

from django.db import transaction
from django.utils.translation import gettext

from apps.audit.context import one_action
from apps.audit.services import Action, audit_event_create, field_changes
from apps.catalogue.uncertainty import with_seed
from apps.projects.models import BaselineNeeded, Project, Scenario, ScenarioVersion
from apps.projects.presets import Preset
from apps.projects.versions import Estimated, version_record


class ScenarioConflict(Exception):
    """The scenario was saved by someone else since the form or request was based on it."""

    def __init__(self, latest: ScenarioVersion) -> None:
        self.latest = latest
        super().__init__(
            gettext("Version %(number)s was saved in the meantime.") % {"number": latest.number}
        )


TIMING_FIELDS = ("training_start", "service_start")


def _timing(timing: dict | None) -> dict:
    return {field: value for field, value in (timing or {}).items() if field in TIMING_FIELDS}


def project_lock(project: Project) -> None:
    """Lock the project's row until the transaction ends and read its status afresh, so that a
    status change and a write to the project, or two status changes, cannot interleave."""
    project.status = (
        Project.objects.select_for_update().values_list("status", flat=True).get(pk=project.pk)
    )


def _check_can_edit(project: Project) -> None:
    """Refuse a write to a frozen project (ProjectFrozen), with its row locked until the write
    commits, so a submission cannot slip in between this check and the write."""
    project_lock(project)
    project.check_can_edit()


def _check_version(scenario: Scenario, expected_version: int | None) -> int:
    """The latest version number, with the scenario's row locked until the write commits;
    ScenarioConflict if `expected_version` is given and no longer the latest."""
    latest = Scenario.objects.select_for_update().only("version").get(pk=scenario.pk).version
    if expected_version is not None and expected_version != latest:
        raise ScenarioConflict(scenario.versions.select_related("created_by").get(number=latest))
    return latest


def _collaborator_names(project: Project) -> list[str]:
    return sorted(user.get_username() for user in project.collaborators.all())


def _audit_project(action: Action, project: Project, changes: dict, user=None) -> None:
    audit_event_create(
        action=action, actor=user, subject=project, project_id=project.pk, changes=changes
    )


def _audit_scenario(action: Action, scenario: Scenario, changes: dict, user=None) -> None:
    audit_event_create(
        action=action,
        actor=user,
        subject=scenario,
        project_id=scenario.project_id,
        changes=changes,
    )


@transaction.atomic
def project_create(
    *, owner, fields: dict, collaborators: list, preset: Preset, inputs: dict | None = None
) -> Project:
    """A new draft project with a first scenario, the baseline, started from a preset (with
    `inputs` in place of the preset's when given: the quick start's answers)."""
    with one_action():
        project = Project(owner=owner, **fields)
        project.full_clean()
        project.save()
        project.collaborators.set(collaborators)
        scenario_create(
            project=project,
            name=preset.name,
            inputs=preset.inputs if inputs is None else inputs,
            is_baseline=True,
            user=owner,
        )
    created = {**fields, "collaborators": _collaborator_names(project), "preset": preset.name}
    _audit_project(Action.PROJECT_CREATED, project, field_changes({}, created), owner)
    return project


@transaction.atomic
def project_update(*, project: Project, fields: dict, collaborators: list) -> Project:
    """Change the project's details and collaborators: two actions for the audit log, each
    recorded when it changed something (by the signed-in user of the request)."""
    _check_can_edit(project)
    before = {name: getattr(project, name) for name in fields}
    collaborators_before = _collaborator_names(project)
    for name, value in fields.items():
        setattr(project, name, value)
    project.full_clean()
    project.save()
    project.collaborators.set(collaborators)
    changes = field_changes(before, {name: getattr(project, name) for name in fields})
    if changes:
        _audit_project(Action.PROJECT_CHANGED, project, changes)
    collaborators_after = _collaborator_names(project)
    if collaborators_after != collaborators_before:
        changes = {"collaborators": [collaborators_before, collaborators_after]}
        _audit_project(Action.COLLABORATORS_CHANGED, project, changes)
    return project


@transaction.atomic
def project_delete(*, project: Project) -> None:
    """Delete a project and, with it, every one of its scenarios."""
    _check_can_edit(project)
    _audit_project(Action.PROJECT_DELETED, project, {"title": [project.title, None]})
    project.delete()


@transaction.atomic
def scenario_create(
    *,
    project: Project,
    name: str,
    inputs: dict,
    is_baseline: bool = False,
    user=None,
    timing: dict | None = None,
    parts: Callable[[Scenario], object] | None = None,
    origin: dict | None = None,
) -> Scenario:
    """A new scenario, saved as its version 1. `timing`: training_start, service_start;
    `origin`: where its figures came from (apps.projects.origin), when an app made it.

    `parts` makes what belongs to the new scenario (its cost lines: apps.budget.services)
    before version 1 is recorded, so that the version holds them too."""
    _check_can_edit(project)
    if is_baseline:
        project.scenarios.filter(is_baseline=True).update(is_baseline=False)
    scenario = Scenario(
        project=project,
        name=name,
        inputs=with_seed(inputs),
        is_baseline=is_baseline,
        version=1,
        origin=origin or {},
        **_timing(timing),
    )
    scenario.full_clean()
    scenario.save()
    if parts is not None:
        parts(scenario)
        # Its cost lines marked it changed (apps.budget.wiring): version 1's key says when.
        scenario.refresh_from_db(fields=["updated_at"])
    version_record(scenario=scenario, user=user)
    project.save(update_fields=["updated_at"])
    _audit_scenario(
        Action.SCENARIO_SAVED, scenario, field_changes({}, {"name": name, "version": 1}), user
    )
    return scenario


@transaction.atomic
def scenario_update(
    *,
    scenario: Scenario,
    name: str,
    inputs: dict,
    user=None,
    expected_version: int | None = None,
    timing: dict | None = None,
    estimated: Estimated | None = None,
) -> Scenario:
    """Save a new version; raise ScenarioConflict if `expected_version` is no longer the latest.

    The row is locked while it is checked and written, so two saves based on the same version
    cannot both succeed. `timing` (training_start, service_start) changes only what it names.
    `estimated`: the estimate of `inputs` the caller worked out already (the scenario form's),
    which the version keeps rather than estimating them again.
    """
    _check_can_edit(scenario.project)
    latest = _check_version(scenario, expected_version)
    before = {"name": scenario.name, "version": latest, **_timing_of(scenario)}
    inputs_before = scenario.inputs
    scenario.name = name
    scenario.inputs = with_seed(inputs, previous=scenario.inputs)
    for field, value in _timing(timing).items():
        setattr(scenario, field, value)
    scenario.version = latest + 1
    scenario.full_clean()
    scenario.save(update_fields=["name", "inputs", *TIMING_FIELDS, "version", "updated_at"])
    version_record(scenario=scenario, user=user, estimated=estimated)
    scenario.project.save(update_fields=["updated_at"])
    after = {"name": scenario.name, "version": scenario.version, **_timing_of(scenario)}
    changes = field_changes(before, after) | _input_changes(inputs_before, scenario.inputs)
    _audit_scenario(Action.SCENARIO_SAVED, scenario, changes, user)
    return scenario


def _timing_of(scenario: Scenario) -> dict:
    return {field: getattr(scenario, field) for field in TIMING_FIELDS}


def _input_changes(before: dict, after: dict) -> dict:
    """The inputs that changed, each named `inputs.<name>` (the seed of draws aside)."""
    before = {f"inputs.{name}": value for name, value in before.items() if name != "seed"}
    after = {f"inputs.{name}": value for name, value in after.items() if name != "seed"}
    return field_changes(before, after)


@transaction.atomic
def scenario_part_change[T](
    *, scenario: Scenario, change: Callable[[], T], user=None, expected_version: int | None = None
) -> T:
    """Make `change` to something that belongs to the scenario (a cost line) and save the
    scenario as a new version with it, under `scenario_update`'s checks: a frozen project
    refuses it (ProjectFrozen), a stale `expected_version` too (ScenarioConflict)."""
    _check_can_edit(scenario.project)
    latest = _check_version(scenario, expected_version)
    result = change()
    scenario.version = latest + 1
    scenario.save(update_fields=["version", "updated_at"])
    version_record(scenario=scenario, user=user)
    scenario.project.save(update_fields=["updated_at"])
    _audit_scenario(Action.SCENARIO_SAVED, scenario, {"version": [latest, scenario.version]}, user)
    return result


@transaction.atomic
def scenario_duplicate(*, scenario: Scenario, user=None) -> Scenario:
    """A copy of the scenario, its timing and its cost lines, as a new scenario's version 1."""
    copy = Scenario(
        project=scenario.project,
        # Named in the language of the person who copies it, as a name they would have typed.
        name=(gettext("Copy of %(name)s") % {"name": scenario.name})[:200],
        inputs=scenario.inputs,
        version=1,
        **{field: getattr(scenario, field) for field in TIMING_FIELDS},
    )
    _check_can_edit(scenario.project)
    copy.full_clean()
    copy.save()
    lines = list(scenario.cost_lines.all())
    for line in lines:
        line.pk, line.scenario = None, copy
    copy.cost_lines.model.objects.bulk_create(lines)
    version_record(scenario=copy, user=user)
    scenario.project.save(update_fields=["updated_at"])
    changes = {
        "name": [None, copy.name],
        "version": [None, 1],
        "copied_from": [None, scenario.name],
    }
    _audit_scenario(Action.SCENARIO_SAVED, copy, changes, user)
    return copy


@transaction.atomic
def scenario_set_baseline(*, scenario: Scenario) -> Scenario:
    _check_can_edit(scenario.project)
    scenario.project.scenarios.filter(is_baseline=True).update(is_baseline=False)
    scenario.is_baseline = True
    scenario.save(update_fields=["is_baseline", "updated_at"])
    _audit_scenario(Action.SCENARIO_SAVED, scenario, {"is_baseline": [False, True]})
    return scenario


@transaction.atomic
def scenario_delete(
    *,
    scenario: Scenario,
    expected_version: int | None = None,
    new_baseline: Scenario | None = None,
) -> None:
    """Delete a scenario; raise ScenarioConflict if `expected_version` is no longer the latest.

    Deleting the baseline of a project with other scenarios needs `new_baseline`, one of them,
    which takes its place (BaselineNeeded otherwise): a project with scenarios always has one.
    """
    _check_can_edit(scenario.project)
    _check_version(scenario, expected_version)
    if scenario.is_baseline:
        others = scenario.project.scenarios.exclude(pk=scenario.pk)
        if others.exists() and (
            new_baseline is None or not others.filter(pk=new_baseline.pk).exists()
        ):
            raise BaselineNeeded(
                gettext(
                    "“%(name)s” is the project’s baseline: choose which of its other scenarios "
                    "becomes the baseline, then delete it."
                )
                % {"name": scenario.name}
            )
    _audit_scenario(Action.SCENARIO_DELETED, scenario, {"name": [scenario.name, None]})
    scenario.delete()
    if scenario.is_baseline and new_baseline is not None:
        new_baseline.is_baseline = True
        new_baseline.save(update_fields=["is_baseline", "updated_at"])
