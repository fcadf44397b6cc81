"""The sweep pages: define a sweep (with the point count as people type), follow its progress by
polling until it ends, read the summary, chart and table; permissions and plain-HTML fallbacks."""

import re

import pytest
from django.test import Client

from apps.sweeps import runs, services
from apps.sweeps.models import Sweep
from tests.factories import DEMAND_SWEEP, make_manager

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("queued")]
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def client(owner) -> Client:
    client = Client()
    client.force_login(owner)
    return client


def form_data(**rows) -> dict:
    """The sweep form as posted: management form, up to three input rows, accelerators."""
    data = {
        "inputs-TOTAL_FORMS": "3",
        "inputs-INITIAL_FORMS": "0",
        "inputs-MIN_NUM_FORMS": "0",
        "inputs-MAX_NUM_FORMS": "3",
        "name": "",
    }
    for row in range(3):
        data |= {f"inputs-{row}-{k}": "" for k in ("field", "start", "stop", "steps", "values")}
        data[f"inputs-{row}-kind"] = "linear"
    for key, value in rows.items():
        data[key.replace("__", "-")] = value
    return data


DEMAND = {
    "inputs__0__field": "inference.requests_per_month",
    "inputs__0__kind": "log",
    "inputs__0__start": "1,000",
    "inputs__0__stop": "1e7",
    "inputs__0__steps": "5",
}
UTILISATION = {
    "inputs__1__field": "inference.target_utilization",
    "inputs__1__kind": "list",
    "inputs__1__values": "50; 70; 90",
}


def run_chunks(sweep: Sweep) -> Sweep:
    sweep.refresh_from_db()
    for index in range(sweep.total_chunks):
        runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=index)
    sweep.refresh_from_db()
    return sweep


def test_the_scenario_page_links_to_a_new_sweep(client, scenario):
    page = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert f'href="/scenarios/{scenario.pk}/sweeps/new/"' in page


def test_the_form_offers_only_the_inputs_the_scenario_uses(client, scenario):
    page = client.get(f"/scenarios/{scenario.pk}/sweeps/new/").content.decode()
    assert (
        '<option value="inference.requests_per_month">Requests in the first month</option>' in page
    )
    assert 'value="training.accelerator_hours"' in page
    assert 'value="training.parameters"' not in page  # accelerator-hours given directly
    assert 'value="inference.purchase_price"' not in page  # rented
    assert "NVIDIA H100 SXM" in page and 'name="accelerators"' in page
    assert "Choose an input to vary, or accelerators to compare" in page


def test_the_point_count_follows_the_form_as_people_type(client, scenario):
    url = f"/scenarios/{scenario.pk}/sweeps/count/"
    answer = client.post(url, form_data(**DEMAND, **UTILISATION), **HTMX).content.decode()
    assert "This sweep computes <strong>5 × 3 = 15 points</strong>." in answer
    halfway = form_data(**{**DEMAND, "inputs__0__steps": ""})
    assert "Give the steps of each range" in client.post(url, halfway, **HTMX).content.decode()
    huge = form_data(
        **{**DEMAND, "inputs__0__steps": "400,000"},
        accelerators=["nvidia-h100-sxm", "nvidia-l4", "nvidia-a10g"],
    )
    answer = client.post(url, huge, **HTMX).content.decode()
    assert "Too many points." in answer
    assert "3 × 400,000 = 1,200,000 points; a sweep can have at most 1,000,000" in answer


def test_without_javascript_the_count_button_counts_without_running(client, scenario):
    data = form_data(**DEMAND, action="count")
    page = client.post(f"/scenarios/{scenario.pk}/sweeps/new/", data).content.decode()
    assert "This sweep computes <strong>5 points</strong>." in page
    assert not Sweep.objects.exists()


def test_bad_values_are_shown_beside_their_fields_and_nothing_runs(client, scenario, queued):
    data = form_data(**{**DEMAND, "inputs__0__start": "0"}, **UTILISATION)
    response = client.post(f"/scenarios/{scenario.pk}/sweeps/new/", data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "<title>Error: New sweep" in page
    assert (
        'href="#id_inputs-0-start">Start: A logarithmic range needs a start and stop above 0.'
        in page
    )
    assert re.search(r'id="id_inputs-0-start_error".*A logarithmic range needs', page, re.S)
    big = form_data(**{**DEMAND, "inputs__0__steps": "1,000,001"})
    page = client.post(f"/scenarios/{scenario.pk}/sweeps/new/", big).content.decode()
    assert "a sweep can have at most 1,000,000" in page
    assert not Sweep.objects.exists() and not queued


def test_a_valid_form_queues_the_sweep_and_opens_its_page(
    client, scenario, queued, django_capture_on_commit_callbacks
):
    data = form_data(
        **DEMAND,
        **UTILISATION,
        accelerators=["nvidia-h100-sxm", "nvidia-l4"],
        accelerator_sections=["inference"],
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/scenarios/{scenario.pk}/sweeps/new/", data)
    sweep = Sweep.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/sweeps/{sweep.pk}/"
    assert sweep.total_points == 2 * 5 * 3
    # Percentages on the page, shares in the definition.
    assert sweep.definition["inputs"][1]["values"] == [0.5, 0.7, 0.9]
    assert sweep.definition["inputs"][0]["start"] == 1000.0
    assert queued == [(sweep.pk, 1, 0, "en-gb")]  # the language of the words a run stores


def test_progress_is_polled_until_the_sweep_ends_and_announced_by_tenths(client, scenario, owner):
    sweep = services.sweep_create(
        scenario=scenario,
        created_by=owner,
        definition={
            "inputs": [
                {
                    "field": "inference.requests_per_month",
                    "kind": "log",
                    "start": 1,
                    "stop": 1e6,
                    "steps": 100,
                }
            ]
        },
        chunk_size=30,
    )
    url = f"/sweeps/{sweep.pk}/"
    page = client.get(url).content.decode()
    assert f'hx-get="{url}?announced=queued" hx-trigger="every 1s"' in page
    assert '<progress id="sweep-progress" max="100" value="0"' in page
    assert 'id="sweep-announcer" class="visually-hidden" role="status"' in page
    assert "The results appear here once every point is computed." in page

    runs.sweep_chunk_store(sweep_id=sweep.pk, run=1, chunk_index=0)
    poll = client.get(f"{url}?announced=queued", **HTMX)
    assert poll["Vary"] == "HX-Request" or "HX-Request" in poll["Vary"]
    poll = poll.content.decode()
    assert f'hx-get="{url}?announced=running-30"' in poll
    assert "30 of 100 points (30%); 1 of 4 chunks." in poll
    assert (
        '<div id="sweep-announcer" hx-swap-oob="innerHTML">Sweep running: 30% of the points computed.</div>'
        in poll
    )
    assert (
        "sweep-announcer" not in client.get(f"{url}?announced=running-30", **HTMX).content.decode()
    )

    run_chunks(sweep)
    poll = client.get(f"{url}?announced=running-30", **HTMX).content.decode()
    assert "hx-trigger" not in poll  # the sweep has ended: polling stops
    assert "Sweep completed: all 100 points computed." in poll
    assert (
        '<section id="sweep-results" aria-labelledby="results-heading" hx-swap-oob="true">' in poll
    )
    assert "Download every point as CSV" in poll


def test_a_completed_sweep_shows_summary_best_configurations_line_chart_and_pages(
    client, scenario, owner
):
    sweep = services.sweep_create(
        scenario=scenario,
        created_by=owner,
        chunk_size=40,
        definition={
            "inputs": [
                {
                    "field": "inference.requests_per_month",
                    "kind": "log",
                    "start": 1e3,
                    "stop": 1e7,
                    "steps": 60,
                }
            ],
            "accelerators": ["nvidia-h100-sxm", "nvidia-l4"],
            "accelerator_sections": ["inference"],
        },
    )
    run_chunks(sweep)
    page = client.get(f"/sweeps/{sweep.pk}/?page=2").content.decode()
    assert '<caption id="sweep-summary-caption">Each figure over all 120 points</caption>' in page
    assert (
        "Cheapest configurations (total cost)" in page
        and "Fastest answers (latency per request)" in page
    )
    assert '<canvas id="sweep-chart"' in page and 'id="sweep-chart-data"' in page
    assert "one line per accelerator" in page
    assert "Points 50 to 99 of 120 (numbered from 0)" in page
    assert "Page 2 of 3" in page and "?page=3&amp;metric=total_cost#points-heading" in page
    assert "<td>NVIDIA L4</td><td>1,000</td>" in page  # point 60: the second accelerator's first
    assert f'href="/api/v1/sweeps/{sweep.pk}/results.csv"' in page


def test_two_varied_inputs_make_a_heatmap_table(client, scenario, owner):
    sweep = services.sweep_create(
        scenario=scenario,
        created_by=owner,
        definition={
            "inputs": [
                DEMAND_SWEEP,
                {"field": "inference.target_utilization", "kind": "list", "values": [0.5, 0.9]},
            ]
        },
    )
    run_chunks(sweep)
    page = client.get(f"/sweeps/{sweep.pk}/?metric=peak_accelerators").content.decode()
    assert '<table class="heatmap">' in page
    assert (
        "Accelerators needed at peak: Inference: Requests in the first month down, Inference: Planned busy share of each accelerator (%) across"
        in page
    )
    assert '<th scope="col">50%</th><th scope="col">90%</th>' in page
    assert '<th scope="row">1,000,000</th>' in page
    assert len(re.findall(r'<td class="shade-\d">', page)) == 8


def test_cancel_from_the_page(client, scenario, owner):
    sweep = services.sweep_create(
        scenario=scenario,
        created_by=owner,
        definition={"inputs": [{"field": "pue", "kind": "list", "values": [1.1, 1.2]}]},
    )
    response = client.post(f"/sweeps/{sweep.pk}/cancel/", follow=True)
    assert (
        "Sweep cancelled: its remaining points will not be computed." in response.content.decode()
    )
    sweep.refresh_from_db()
    assert sweep.status == "cancelled"
    page = client.get(f"/sweeps/{sweep.pk}/").content.decode()
    assert "hx-trigger" not in page and "Cancel the sweep" not in page


def test_a_failed_sweep_says_why(client, scenario, owner):
    sweep = services.sweep_create(
        scenario=scenario,
        created_by=owner,
        definition={"inputs": [{"field": "pue", "kind": "list", "values": [1.1, 1.2]}]},
    )
    runs.sweep_fail(sweep_id=sweep.pk, run=1, reason="The sweep cannot run: no price.")
    page = client.get(f"/sweeps/{sweep.pk}/").content.decode()
    assert (
        '<div class="error-summary" role="alert"><h3>The sweep failed</h3><p>The sweep cannot run: no price.</p></div>'
        in page
    )


def test_strangers_get_404_and_visitors_are_asked_to_sign_in(scenario, owner):
    sweep = services.sweep_create(
        scenario=scenario,
        created_by=owner,
        definition={"inputs": [{"field": "pue", "kind": "list", "values": [1.1, 1.2]}]},
    )
    stranger = Client()
    stranger.force_login(make_manager("stranger"))
    for url in (f"/scenarios/{scenario.pk}/sweeps/new/", f"/sweeps/{sweep.pk}/"):
        assert stranger.get(url).status_code == 404
        assert Client().get(url).status_code == 302
    assert stranger.post(f"/sweeps/{sweep.pk}/cancel/").status_code == 404
    assert stranger.post(f"/scenarios/{scenario.pk}/sweeps/count/", form_data()).status_code == 404


def test_results_stay_readable_when_todays_rules_would_refuse_the_definition(
    client, scenario, owner
):
    sweep = services.sweep_create(
        scenario=scenario,
        created_by=owner,
        definition={"inputs": [{"field": "pue", "kind": "list", "values": [1.1, 1.2]}]},
    )
    run_chunks(sweep)
    stored = {
        **sweep.definition,
        "inputs": [{"field": "pue", "kind": "list", "values": [0.5, 1.2]}],
    }
    Sweep.objects.filter(pk=sweep.pk).update(definition=stored)
    page = client.get(f"/sweeps/{sweep.pk}/").content.decode()
    assert "<td>0.5</td>" in page and "Each figure over all 2 points" in page


def test_a_sweep_of_three_inputs_has_no_chart_but_every_point_in_the_table(client, scenario, owner):
    inputs = [
        {"field": "pue", "kind": "list", "values": [1.1, 1.5]},
        {"field": "inference.months", "kind": "list", "values": [12, 24]},
        {"field": "inference.peak_to_average", "kind": "list", "values": [1, 3]},
    ]
    sweep = services.sweep_create(
        scenario=scenario, created_by=owner, definition={"inputs": inputs}
    )
    run_chunks(sweep)
    page = client.get(f"/sweeps/{sweep.pk}/").content.decode()
    assert "this sweep varies 3. The table below and the CSV have every point." in page
    assert "Points 0 to 7 of 8 (numbered from 0)" in page
