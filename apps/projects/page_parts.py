"""The parts of the project and scenario pages that apps above projects draw (the budget).

An app registers its part when Django starts it (its wiring module, which its AppConfig.ready
runs), so the pages show the part while projects imports nothing of that app: the floors stay one
way.
"""

from collections.abc import Callable
from dataclasses import dataclass

from apps.projects.models import Scenario, ScenarioVersion


@dataclass(frozen=True)
class PagePart:
    """One app's part of the pages: the scenario page's context (given the catalogue the page
    read, and the scenario's latest version when its figures are current, to read them from),
    what the scenario page's cache key digests of it (read without a query), the
    project page's context for its scenarios (with their related rows prefetched), and the
    context of the page comparing two versions."""

    scenario_context: Callable[..., dict]
    scenario_stamp: Callable[[Scenario], list]
    project_context: Callable[[list[Scenario]], dict]
    versions_context: Callable[[ScenarioVersion, ScenarioVersion], dict]


_PARTS: list[PagePart] = []


def register(part: PagePart) -> None:
    if part not in _PARTS:
        _PARTS.append(part)


def scenario_context(
    scenario: Scenario, *, catalogue, version: ScenarioVersion | None = None
) -> dict:
    context: dict = {}
    for part in _PARTS:
        context.update(part.scenario_context(scenario, catalogue=catalogue, version=version))
    return context


def scenario_stamp(scenario: Scenario) -> list:
    return [stamp for part in _PARTS for stamp in part.scenario_stamp(scenario)]


def project_context(scenarios: list[Scenario]) -> dict:
    context: dict = {}
    for part in _PARTS:
        context.update(part.project_context(scenarios))
    return context


def versions_context(old: ScenarioVersion, new: ScenarioVersion) -> dict:
    context: dict = {}
    for part in _PARTS:
        context.update(part.versions_context(old, new))
    return context
