"""The decision page describes its chart in words, from the chart's own figures."""

import datetime
import re

import pytest

from tests.factories import TRANSLATION_INFERENCE, make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db


def test_the_chart_is_described_from_its_figures(client):
    owner = make_manager()
    project = make_project(
        owner, period_start=datetime.date(2027, 1, 1), period_end=datetime.date(2028, 12, 31)
    )
    scenario = make_scenario(project, inputs={"inference": TRANSLATION_INFERENCE})
    client.force_login(owner)
    html = client.get(f"/scenarios/{scenario.pk}/options/").content.decode()
    section = re.search(r'<section class="chart-description".*?</section>', html, re.S).group()
    assert "The chart in words" in section
    # The cheapest at the smallest volume drawn is the cheapest in the chart's first data row.
    table = re.search(r'id="chart-table-caption".*?</table>', html, re.S).group()
    headers = re.findall(r'<th scope="col">([^<]+)</th>', table)[1:]
    first_row = re.search(r"<tbody><tr>(.*?)</tr>", table, re.S).group(1)
    costs = [float(v) for v in re.findall(r'<data value="([^"]+)"', first_row)[1:]]
    cheapest = headers[costs.index(min(costs))]
    assert re.search(
        r"At [\d,.]+ requests a month the cheapest is “" + re.escape(cheapest), section
    )
    assert "the cheapest changes from" in section


def test_the_chart_and_its_words_are_in_french(client):
    owner = make_manager()
    project = make_project(
        owner, period_start=datetime.date(2027, 1, 1), period_end=datetime.date(2028, 12, 31)
    )
    scenario = make_scenario(project, inputs={"inference": TRANSLATION_INFERENCE})
    client.force_login(owner)
    html = client.get(
        f"/scenarios/{scenario.pk}/options/", HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    if 'lang="fr' not in html:
        pytest.skip("French is chosen otherwise on this site")
    assert "Le graphique en mots" in html
    legend = re.search(r'<ul class="chart-legend">.*?</ul>', html, re.S).group()
    assert "External model API" not in legend
