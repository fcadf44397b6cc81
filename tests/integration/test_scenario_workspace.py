"""The scenario form as a workspace: the inputs that matter most open, the rest folded under
"More assumptions" with their values in one line, opened when one of them holds an error or a
range; ranges shown per section."""

import re

import pytest

from tests.factories import make_manager, make_project, make_scenario, seed_000_inference

pytestmark = pytest.mark.django_db


def _section(html: str, key: str) -> str:
    start = html.index(f'data-section="{key}"')
    return html[start : html.index('class="input-section', start)]


def _more(section: str) -> str:
    return re.search(r'<details class="more-assumptions"( open)?>.*', section, re.S).group(0)


def test_main_inputs_are_open_and_the_rest_folded_with_their_values(client):
    owner = make_manager("maria")
    scenario = make_scenario(make_project(owner))
    client.force_login(owner)
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    inference = _section(html, "inference")
    more = _more(inference)
    assert more.startswith('<details class="more-assumptions">')  # folded
    assert 'name="inference_requests_per_month"' not in more  # open, before the fold
    assert 'name="inference_requests_per_month"' in inference
    assert 'name="inference_peak_to_average"' in more
    summary = re.search(r'<span class="more-values">(.*?)</span>', more).group(1)
    assert "Peak-to-average ratio: 1" in summary and summary.endswith("…")
    # No range holds anything: the sections' ranges are off.
    assert 'class="ranges-toggle" id="ranges-inference">' in inference


def test_a_range_or_an_error_in_a_folded_input_opens_its_section(client):
    owner = make_manager("maria")
    inputs = {
        "inference": seed_000_inference(15_000),
        "ranges": {"inference.peak_to_average": {"low": 1, "high": 3}},
    }
    scenario = make_scenario(make_project(owner), inputs=inputs)
    client.force_login(owner)
    inference = _section(client.get(f"/scenarios/{scenario.pk}/").content.decode(), "inference")
    assert _more(inference).startswith('<details class="more-assumptions" open>')
    assert 'id="ranges-inference" checked>' in inference
