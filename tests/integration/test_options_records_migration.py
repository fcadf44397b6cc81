"""Migration 0010: the options kept with each version as the options API's JSON (as versions
kept them until now) become records of the codec (KeptOptions), and the share links that show
them and the project's exports read the same figures and words after it, in English and in
French."""

import importlib
import math
import re
from dataclasses import replace
from datetime import date

import pytest
from django.apps import apps as registry

from apps.estimates.kept import KeptOptions
from apps.estimates.record import is_record
from apps.options.kept import version_options
from apps.options.representation import options_representation
from apps.projects.models import ScenarioVersion
from apps.sharing import services as sharing
from tests.factories import (
    TRANSLATION_INFERENCE,
    make_manager,
    make_project,
    make_scenario,
)
from tests.integration.test_records_migration import first_difference, stable
from tests.unit.estimates.test_record_codec import same_words

pytestmark = pytest.mark.django_db
MIGRATION = importlib.import_module("apps.projects.migrations.0010_options_through_the_codec")
EXPORTED_AT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(\+00:00|Z)?")


@pytest.fixture
def world(client):
    """A project on October fiscal years (in dollars, as every record written before the
    migration was): a scenario compared with ranges (an API
    option at the catalogue's price), one on L4s (which no catalogue price lets anyone own),
    and a share link to each one's version."""
    owner = make_manager("owner")
    project = make_project(
        owner,
        "Translation assistant",
        fiscal_year_start_month=10,
        fiscal_year_label="start_end",
        period_start=date(2027, 1, 1),
        period_end=date(2028, 12, 31),
    )
    ranged = make_scenario(
        project,
        "Ranged",
        inputs={
            "inference": TRANSLATION_INFERENCE,
            "ranges": {"inference.requests_per_month": {"low": 50_000, "high": 3_000_000}},
            "uncertainty": {"samples": 2_000, "seed": 3},
        },
        is_baseline=True,
    )
    on_l4 = make_scenario(
        project,
        "On L4",
        inputs={"inference": {**TRANSLATION_INFERENCE, "accelerator": "nvidia-l4"}},
    )
    links = []
    for scenario in (ranged, on_l4):
        version = scenario.versions.get(number=scenario.version)
        _link, token = sharing.share_link_create(subject=version, user=owner, label="Board")
        links.append(f"/s/{token}/")
    return {"owner": owner, "links": links, "exports": [f"/projects/{project.pk}/export.csv"]}


def read(client, world) -> dict[tuple[str, str], str]:
    """Every share page and export, in English and French, without what changes each time."""
    seen = {}
    client.force_login(world["owner"])
    for url in world["links"] + world["exports"]:
        for language in ("en", "fr"):
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, url
            seen[url, language] = EXPORTED_AT.sub("", stable(response.content.decode()))
    return seen


def as_kept_before() -> None:
    """Every version's options put back as the options API's JSON, as versions kept them."""
    for version in ScenarioVersion.objects.all():
        version.budget["options"] = options_representation(version_options(version))
        version.save(update_fields=["budget"])


def without_what_was_not_kept(kept: KeptOptions) -> KeptOptions:
    """The options but the figures the API's JSON never held: the unrounded monthly costs the
    crossovers are worked from, and the month the options' service starts."""
    options = tuple(
        replace(option, monthly_fixed_cost=0.0, per_use_cost_per_request=0.0)
        for option in kept.comparison.options
    )
    return replace(kept, comparison=replace(kept.comparison, options=options, service_start=None))


def test_share_links_and_exports_read_the_same_after_the_migration(client, world):
    written_now = read(client, world)
    kept_now = {version.pk: version_options(version) for version in ScenarioVersion.objects.all()}
    assert any(kept.unavailable for kept in kept_now.values()), "no unavailable option kept"
    assert any(kept.ranges for kept in kept_now.values()), "no ranges kept"
    assert any(kept.api_prices for kept in kept_now.values()), "no catalogue price kept"
    as_kept_before()
    assert not any(is_record(v.budget["options"]) for v in ScenarioVersion.objects.all())

    MIGRATION.options_through_the_codec(registry, None)

    for version in ScenarioVersion.objects.all():
        assert is_record(version.budget["options"])
        migrated, kept = version_options(version), kept_now[version.pk]
        # Every figure, fiscal year (drawn again on the project's calendar), price, range and
        # reason as it was kept, each reason the Message it was (worded in any language).
        assert without_what_was_not_kept(migrated) == without_what_was_not_kept(kept)
        assert same_words(migrated.unavailable, kept.unavailable)
        assert all(math.isnan(option.monthly_fixed_cost) for option in migrated.comparison.options)
    migrated_pages = read(client, world)
    assert migrated_pages.keys() == written_now.keys()
    for key, page in written_now.items():
        assert migrated_pages[key] == page, (key, first_difference(page, migrated_pages[key]))
    shared = world["links"][0]
    assert migrated_pages[shared, "fr"] != migrated_pages[shared, "en"]


def test_the_migration_leaves_records_already_written_as_they_are(world):
    before = {v.pk: v.budget for v in ScenarioVersion.objects.all()}
    MIGRATION.options_through_the_codec(registry, None)
    assert {v.pk: v.budget for v in ScenarioVersion.objects.all()} == before
