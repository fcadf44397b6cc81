"""The fan on the cumulative cost chart: its data table of percentiles, on the page and preview."""

import re

import pytest

from tests.factories import make_project, make_scenario
from tests.integration.test_project_pages import scenario_post
from tests.integration.test_scenario_page_ranges import RANGED_INPUTS, manager, text  # noqa: F401

pytestmark = pytest.mark.django_db


def fan_rows(html: str) -> list[list[str]]:
    table = re.search(r'<table class="cumulative fan-table">(.*?)</table>', html, re.S).group(1)
    rows = re.findall(r"<tr><th scope=\"row\">(\d+)</th>(.*?)</tr>", table, re.S)
    return [[month, *(text(cell).strip() for cell in re.findall(r"<td>(.*?)</td>", cells))]
            for month, cells in rows]  # fmt: skip


def test_a_scenario_with_ranges_has_a_fan_with_a_table_of_percentiles(client, manager):  # noqa: F811
    scenario = make_scenario(make_project(manager), inputs=RANGED_INPUTS)
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert 'id="chart-fan"' in html and 'id="fan-data"' in html
    words = text(html)
    assert "Cumulative inference cost by month: percentiles of 2,000 samples (seed 7)" in words
    assert "Low: 5th percentile (USD)" in words and "High: 95th percentile (USD)" in words
    rows = fan_rows(html)
    months = RANGED_INPUTS["inference"].get("months", 12)
    assert [int(row[0]) for row in rows] == list(range(months + 1))
    assert rows[0][1:] == ["$0", "$0", "$0"]

    # Low below central below high, each month after the first.
    def amount(cell: str) -> float:
        number = float(re.sub(r"[^\d.]", "", cell))
        return number * {"million": 1e6, "billion": 1e9}.get(cell.split()[-1], 1)

    for row in rows[1:]:
        low, central, high = (amount(cell) for cell in row[1:])
        assert low < central < high
    # The training cost and break-even ranges beside it, in the same words as the figures.
    fan = words[words.index("How sure the cumulative cost is") :]
    assert re.search(r"Training cost : central estimate \$[\d,.]+ .*9 in 10 chance between", fan)
    assert "Break-even :" in fan


def test_the_live_preview_draws_the_fan_while_typing(client, manager):  # noqa: F811
    scenario = make_scenario(make_project(manager))
    html = client.post(
        f"/scenarios/{scenario.pk}/preview/",
        scenario_post(inference_requests_per_month_low="5000", inference_requests_per_month_high="50000"),
        HTTP_HX_REQUEST="true",
    ).content.decode()  # fmt: skip
    assert 'id="fan-data"' in html
    assert fan_rows(html)
    assert "Central estimate: median (USD)" in text(html)  # the preview knows the currency too


def test_without_ranges_there_is_no_fan(client, manager):  # noqa: F811
    scenario = make_scenario(make_project(manager))
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "chart-fan" not in html and "fan-table" not in html
