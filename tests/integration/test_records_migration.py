"""Migration 0009: estimates and budgets kept as the API's JSON (as `main` wrote them until
then) become records of the codec, and every page that reads them reads the same figures and
words, in English and in French."""

import importlib
import re

import pytest
from django.apps import apps as registry
from django.utils import translation

from apps.api.estimate import estimate_response
from apps.budget.kept import drawn_up_from_record
from apps.budget.services import cost_line_create
from apps.estimates.record import is_record
from apps.projects.models import ProjectSnapshot, ScenarioVersion
from apps.projects.services import scenario_update
from apps.projects.versions import version_estimate
from apps.reviews.services import project_submit
from apps.sharing import services as sharing
from tests.factories import (
    SEED_000_TRAINING,
    make_front_office,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)
from tests.integration.test_budget_models import STAFF
from tests.integration.test_scenario_page_ranges import RANGED_INPUTS

pytestmark = pytest.mark.django_db
MIGRATION = importlib.import_module("apps.projects.migrations.0009_records_through_the_codec")


def _money(values) -> list[str]:
    return [f"{value:.2f}" for value in values]


def _day(value) -> str | None:
    return value.isoformat() if value else None


def _range_figures(ranges) -> dict:
    def value(quantile):
        return None if quantile is None else f"{quantile:.2f}"

    return {
        path: {
            "p5": value(figure.p5),
            "p50": value(figure.p50),
            "p95": value(figure.p95),
            "mean": value(figure.mean),
        }
        for path, figure in ranges.figures.items()
    }


def budget_as_main_kept_it(record: dict) -> dict:
    """A budget record as `main`'s apps.projects.frozen_budget.budget_record wrote it."""
    drawn_up = drawn_up_from_record(record)
    budget, ranges = drawn_up.budget, drawn_up.ranges
    totals = ("capex", "opex", "contingency_capex", "contingency_opex", "contingency", "indirect")
    kept = {
        "currency": drawn_up.currency,
        "period_start": _day(drawn_up.period_start),
        "period_end": _day(drawn_up.period_end),
        "period_is_default": drawn_up.period_is_default,
        "fiscal_years": [
            {"label": y.label, "start": _day(y.start), "end": _day(y.end), "months": y.months}
            for y in budget.fiscal_years
        ],
        "lines": [
            {
                "name": str(line.name),
                "kind": line.kind,
                "budget_class": line.budget_class,
                "category": line.category,
                "basis": str(line.basis),
                "amounts": _money(line.amounts),
                "total": f"{line.total:.2f}",
                "share": line.share,
                "computed": line.computed,
            }
            for line in budget.lines
        ],
        "totals": {
            **{name: _money(getattr(budget.totals, name)) for name in totals},
            "total": _money(budget.totals.total),
        },
        "memo": {
            "depreciation": _money(budget.memo.depreciation),
            "energy_kwh": None if budget.memo.energy_kwh is None else list(budget.memo.energy_kwh),
            "emissions_kg_co2e": (
                None
                if budget.memo.emissions_kg_co2e is None
                else list(budget.memo.emissions_kg_co2e)
            ),
        },
        "summary": {
            "upfront": f"{budget.summary.upfront:.2f}",
            "annual_run_rate": f"{budget.summary.annual_run_rate:.2f}",
            "total": f"{budget.summary.total:.2f}",
            "npv": f"{budget.summary.npv:.2f}",
            "discount_rate": budget.summary.discount_rate,
            "prices_as_of": _day(budget.summary.prices_as_of),
        },
        "notes": [str(note) for note in budget.notes],
    }
    if ranges is not None:
        kept["uncertainty"] = {
            "samples": ranges.samples,
            "seed": ranges.seed,
            "figures": _range_figures(ranges),
            "clipped": dict(ranges.clipped),
            "shared": [list(paths) for paths in ranges.shared],
        }
    return kept


def as_main_kept_them() -> None:
    """Every stored estimate and budget put back in the form `main` wrote them (saved by
    someone reading English: the catalogue's notes are worded while resolving)."""
    translation.activate("en")
    for version in ScenarioVersion.objects.all():
        ranges = version_estimate(version).ranges
        version.results = estimate_response(version.inputs)
        if ranges is not None:  # main kept the fan of the cumulative cost too, one list a column
            version.results["uncertainty"]["fan"] = {
                "months": [row.month for row in ranges.fan],
                **{
                    name: [f"{getattr(row, name):.2f}" for row in ranges.fan]
                    for name in ("p5", "p50", "p95")
                },
            }
        if version.budget.get("drawn_up"):
            version.budget["drawn_up"] = budget_as_main_kept_it(version.budget["drawn_up"])
        version.save(update_fields=["results", "budget"])
    for snapshot in ProjectSnapshot.objects.exclude(budget__isnull=True):
        snapshot.budget = budget_as_main_kept_it(snapshot.budget)
        snapshot.save(update_fields=["budget"])


FOOTPRINT_MEMO = re.compile(
    r'<tr><th scope="row" colspan="4">[^<]*<a class="term-link" href="/(?:[a-z-]+/)?glossary/'
    r'(?:embodied-emissions|water)/".*?</tr>',
    flags=re.S,
)


def without_footprint_memo(html: str) -> str:
    return FOOTPRINT_MEMO.sub("", html)


def stable(html: str) -> str:
    """A page without what changes from one request to the next (nonces, CSRF tokens)."""
    html = re.sub(r'<form class="language-switcher".*?</form>', "", html, flags=re.S)
    html = re.sub(r'nonce="[^"]*"', "", html)
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


@pytest.fixture
def world(client):
    """A submitted project: a baseline with a cost line and ranges, saved twice; an owned
    alternative; share links to a version and to the submission; a reviewer."""
    owner = make_manager("owner")
    project = make_project(owner, "Board plan")
    baseline = make_scenario(project, "Rented", inputs=RANGED_INPUTS, is_baseline=True)
    cost_line_create(scenario=baseline, fields=STAFF, user=owner)
    baseline.refresh_from_db()
    scenario_update(
        scenario=baseline,
        name="Rented",
        inputs={**RANGED_INPUTS, "inference": seed_000_inference(30_000)},
        user=owner,
        expected_version=baseline.version,
    )
    baseline.refresh_from_db()
    make_scenario(
        project,
        "Owned",
        inputs={
            "training": {**SEED_000_TRAINING, "pricing_mode": "own"},
            "inference": seed_000_inference(15_000, pricing_mode="own"),
        },
    )
    snapshot = project_submit(project=project, user=owner)
    version = baseline.versions.get(number=baseline.version)
    _, version_token = sharing.share_link_create(subject=version, user=owner, label="Board")
    _, snapshot_token = sharing.share_link_create(subject=snapshot, user=owner, label="Board")
    reviewer = make_front_office("reviewer")
    return {
        "anonymous": [f"/s/{version_token}/", f"/s/{snapshot_token}/", f"/s/{snapshot_token}/2/"],
        owner: [f"/scenarios/{baseline.pk}/versions/compare/?old=1&new={baseline.version}"],
        reviewer: [f"/reviews/{project.pk}/", "/portfolio/", "/portfolio/export.csv"],
    }


def pages(client, world) -> dict[tuple[str, str], str]:
    seen = {}
    for who, urls in world.items():
        client.logout()
        if who != "anonymous":
            client.force_login(who)
        for url in urls:
            for language in ("en", "fr"):
                response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
                assert response.status_code == 200, url
                seen[url, language] = stable(response.content.decode())
    return seen


def first_difference(a: str, b: str) -> str:
    """Where two pages part, for the failure's message."""
    pairs = enumerate(zip(a, b, strict=False))
    at = next((i for i, (x, y) in pairs if x != y), min(len(a), len(b)))
    return f"{a[at - 200 : at + 300]!r}\n---\n{b[at - 200 : at + 300]!r}"


def test_pages_share_links_and_exports_read_the_same_after_the_migration(client, world):
    written_now = pages(client, world)
    as_main_kept_them()
    version = ScenarioVersion.objects.order_by("pk").first()
    assert not is_record(version.results) and "training" in version.results
    assert "uncertainty" in ProjectSnapshot.objects.get().budget
    MIGRATION.records_through_the_codec(registry, None)
    assert all(is_record(v.results) for v in ScenarioVersion.objects.all())
    assert all(is_record(v.budget["drawn_up"]) for v in ScenarioVersion.objects.all())
    assert is_record(ProjectSnapshot.objects.get().budget)
    migrated = pages(client, world)
    assert migrated.keys() == written_now.keys()
    for key, html in written_now.items():
        # The budget's embodied-emissions and water memo rows came after main's records, which
        # never held them: a migrated budget says "not published" there.
        html, after = without_footprint_memo(html), without_footprint_memo(migrated[key])
        assert after == html, (key, first_difference(html, after))
    shared = world["anonymous"][0]
    assert migrated[shared, "fr"] != migrated[shared, "en"]


def test_the_migration_leaves_records_already_written_as_they_are(client, world):
    before = {v.pk: (v.results, v.budget) for v in ScenarioVersion.objects.all()}
    MIGRATION.records_through_the_codec(registry, None)
    assert {v.pk: (v.results, v.budget) for v in ScenarioVersion.objects.all()} == before
