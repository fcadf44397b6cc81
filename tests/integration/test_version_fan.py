"""A saved version keeps the fan of its cumulative cost (monthly P5/P50/P95), so that its share
link draws the same fan and table as the scenario page did, frozen as saved."""

import re
from dataclasses import replace

import pytest

from apps.catalogue.uncertainty import uncertainty_from_request
from apps.estimates.record import dump
from apps.projects import services as projects
from apps.projects.versions import version_estimate
from apps.sharing import services as sharing
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_scenario_page_ranges import RANGED_INPUTS

pytestmark = pytest.mark.django_db
GROWING = {  # demand growth ranged too: each month has percentiles of its own
    **RANGED_INPUTS,
    "inference": {**RANGED_INPUTS["inference"], "monthly_growth": 0.03},
    "ranges": {
        **RANGED_INPUTS["ranges"],
        "inference.monthly_growth": {"low": -0.01, "high": 0.08},
    },
}


@pytest.fixture
def owner():
    return make_manager("owner")


@pytest.fixture
def scenario(owner):
    return make_scenario(make_project(owner, "Ranged"), "Pilot", inputs=GROWING)


def fan_table(html: str) -> list[list[str]]:
    """The rows of the fan's table: month, then the 5th, 50th and 95th percentiles' text."""
    table = re.search(r'<table class="cumulative fan-table">.*?</table>', html, re.S)
    assert table, "no fan table"
    rows = re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", table.group(), re.S)
    return [[re.sub(r"<[^>]+>|\s+", " ", cell).strip() for cell in re.split("</t[hd]>", row)][:4]
            for row in rows]  # fmt: skip


def test_the_record_keeps_the_fan_and_reads_back_as_sampled(scenario):
    version = scenario.versions.get(number=scenario.version)
    kept = version_estimate(version).ranges
    horizon = GROWING["inference"].get("months", 12)
    assert [month.month for month in kept.fan] == list(range(horizon + 1))
    live = uncertainty_from_request(scenario.inputs, fan=True)
    assert kept.fan == live.fan
    # The last month is the horizon's cost as the figures give it.
    total = kept.figures["inference.total.cost"]
    last = kept.fan[-1]
    assert (last.p5, last.p50, last.p95) == (total.p5, total.p50, total.p95)


def test_a_share_link_shows_the_frozen_fan_after_the_inputs_change(client, owner, scenario):
    version = scenario.versions.get(number=scenario.version)
    _, token = sharing.share_link_create(subject=version, user=owner, label="Board")
    before = fan_table(client.get(f"/s/{token}/").content.decode())
    assert [row[0] for row in before] == [str(month) for month in range(13)]
    assert before[-1][1:] != before[1][1:]
    changed = {
        **GROWING,
        "ranges": {**GROWING["ranges"], "inference.requests_per_month": {"low": 1, "high": 9}},
    }
    projects.scenario_update(
        scenario=scenario,
        name=scenario.name,
        inputs=changed,
        user=owner,
        expected_version=scenario.version,
    )
    scenario.refresh_from_db()
    page = client.get(f"/s/{token}/").content.decode()
    assert fan_table(page) == before  # as saved, not as the inputs now give it
    assert 'id="chart-fan"' in page and 'id="fan-data"' in page
    # The scenario's own page follows the new inputs.
    client.force_login(owner)
    assert fan_table(client.get(f"/scenarios/{scenario.pk}/").content.decode()) != before


def test_a_version_saved_before_the_fan_was_kept_still_shows_without_one(client, owner, scenario):
    version = scenario.versions.get(number=scenario.version)
    kept = version_estimate(version)
    version.results = dump(replace(kept, ranges=replace(kept.ranges, fan=())))
    version.save(update_fields=["results"])
    _, token = sharing.share_link_create(subject=version, user=owner, label="Board")
    response = client.get(f"/s/{token}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "9 in 10 chance between" in html  # its percentiles as before
    assert "fan-table" not in html and 'id="chart-fan"' not in html
