"""Writes to cost lines: each one a new version of its scenario, refused on a frozen project."""

from apps.budget.models import CostLine
from apps.projects.models import Project, Scenario
from apps.projects.services import scenario_create, scenario_part_change


def _line_saved(scenario: Scenario, fields: dict) -> CostLine:
    line = CostLine(scenario=scenario, **fields)
    line.full_clean()
    line.save()
    return line


def cost_line_create(*, scenario: Scenario, fields: dict, user=None) -> CostLine:
    """A new line on the scenario, validated (`full_clean`), saved with a new version."""
    return scenario_part_change(
        scenario=scenario, change=lambda: _line_saved(scenario, fields), user=user
    )


def scenario_create_with_lines(
    *,
    project: Project,
    name: str,
    inputs: dict,
    lines: list[dict],
    is_baseline: bool = False,
    user=None,
    timing: dict | None = None,
) -> Scenario:
    """A new scenario (`scenario_create`) with its cost lines, each validated as
    `cost_line_create` validates it, all saved together as the scenario's version 1."""

    def add_lines(scenario: Scenario) -> None:
        for fields in lines:
            _line_saved(scenario, fields)

    return scenario_create(
        project=project,
        name=name,
        inputs=inputs,
        is_baseline=is_baseline,
        user=user,
        timing=timing,
        parts=add_lines,
    )


def cost_line_update(
    *, line: CostLine, fields: dict, user=None, expected_version: int | None = None
) -> CostLine:
    """Change the line's fields named in `fields`, validated, saved with a new version; raise
    ScenarioConflict if `expected_version` (the scenario's, when the line was read) is no
    longer the latest, so that two edits made from the same reading cannot both be saved."""

    def update() -> CostLine:
        for name, value in fields.items():
            setattr(line, name, value)
        line.full_clean()
        line.save()
        return line

    return scenario_part_change(
        scenario=line.scenario, change=update, user=user, expected_version=expected_version
    )


def cost_line_delete(*, line: CostLine, user=None, expected_version: int | None = None) -> None:
    """Delete the line, saving a new version; ScenarioConflict as `cost_line_update`."""
    scenario_part_change(
        scenario=line.scenario, change=line.delete, user=user, expected_version=expected_version
    )
