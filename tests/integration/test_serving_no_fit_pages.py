"""A model that fits no replica: the API gives no accelerators or cost, the page says why."""

import pytest

from apps.projects.versions import version_estimate
from tests.factories import make_manager, make_project, make_scenario
from tests.integration.test_scenario_serving import serving_post

pytestmark = pytest.mark.django_db

# 20 trillion parameters in bf16, 40 TB: no copy of up to 16 stages of 8 H100s holds them.
HUGE = {
    "method": "tokens",
    "parameters": 2e13,
    "layers": 120,
    "kv_heads": 8,
    "head_dim": 128,
    "input_tokens": 1000,
    "output_tokens": 500,
    "accelerator": "nvidia-h100-sxm",
    "requests_per_month": 100_000,
    "provisioning": "always_on",
}


def test_the_api_reports_fits_false_and_no_number_that_rests_on_a_replica(api_client):
    response = api_client.post("/api/v1/estimate/", {"inference": HUGE}, format="json")
    assert response.status_code == 200, response.content
    inference = response.json()["inference"]
    serving = inference["serving"]
    assert serving["fits"] is False and serving["limited_by"] == "memory"
    assert serving["weights_gb"] == pytest.approx(40_000)
    assert serving["accelerators_per_replica"] is None and serving["replicas_at_peak"] is None
    assert inference["peak_accelerators"] is None
    assert inference["per_request"]["accelerator_seconds"] is None
    assert inference["per_request"]["cost"] is None
    assert inference["per_request"]["latency_seconds"] is None
    assert inference["total"]["cost"] is None and inference["total"]["always_on_cost"] is None
    assert inference["total"]["energy_kwh"] is None
    assert {month["cost"] for month in inference["monthly"]} == {None}
    assert any("does not fit" in note for note in inference["assumptions"])


def test_a_chosen_replica_the_model_does_not_fit_is_a_400_at_that_field(api_client):
    body = {"inference": {**HUGE, "accelerators_per_replica": 8}}
    response = api_client.post("/api/v1/estimate/", body, format="json")
    assert response.status_code == 400
    (message,) = response.json()["inference"]["accelerators_per_replica"]
    assert "does not fit on 8 accelerator(s)" in message
    assert "does not fit any replica" in message


@pytest.fixture
def manager(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


def _own_huge_model(**overrides):
    return serving_post(
        inference_model="",
        inference_parameters="2e13",
        inference_layers="120",
        inference_kv_heads="8",
        inference_head_dim="128",
        inference_provisioning="always_on",
        **overrides,
    )


def test_the_page_says_plainly_that_it_cannot_run_and_shows_no_cost(client, manager):
    scenario = make_scenario(make_project(manager))
    response = client.post(f"/scenarios/{scenario.pk}/", _own_huge_model())
    assert response.status_code == 302
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "The model does not fit this accelerator" in html
    assert "Not possible" in html
    assert "lower bound" not in html
    preview = client.post(
        f"/scenarios/{scenario.pk}/preview/", _own_huge_model(), HTTP_HX_REQUEST="true"
    )
    assert preview.status_code == 200
    assert "The model does not fit this accelerator" in preview.content.decode()


@pytest.mark.parametrize("export_format", ["csv", "xlsx", "pdf", "json"])
def test_every_export_of_a_model_that_fits_no_replica_works(client, manager, export_format):
    project = make_project(manager)
    scenario = make_scenario(project)
    client.post(f"/scenarios/{scenario.pk}/", _own_huge_model())
    for url in (
        f"/scenarios/{scenario.pk}/export.{export_format}",
        f"/projects/{project.pk}/export.{export_format}",
    ):
        response = client.get(url)
        assert response.status_code == 200, url


def test_the_saved_version_reads_back_without_a_cost(client, manager):
    scenario = make_scenario(make_project(manager))
    client.post(f"/scenarios/{scenario.pk}/", _own_huge_model())
    version = scenario.versions.order_by("-number").first()
    assert version_estimate(version).result.inference.total.cost is None
    # Another save reads the stored version back (the diff between versions).
    client.post(f"/scenarios/{scenario.pk}/", _own_huge_model(inference_output_tokens="400"))
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "The model does not fit this accelerator" in html


def test_the_options_leave_out_self_hosting_a_model_that_fits_no_replica(api_client):
    """Self-hosting a model no copy can hold is not an option with a cost: it is listed as
    unavailable with the reason, and what can serve (the external API) is still compared."""
    response = api_client.post("/api/v1/options/", {"inference": HUGE}, format="json")
    assert response.status_code == 200
    body = response.json()
    keys = {option["key"] for option in body["options"]}
    assert {"rent_pay_per_use", "rent_always_on", "own"} <= set(body["unavailable"])
    assert not keys & set(body["unavailable"])
    (reason,) = body["unavailable"]["own"]["inference.accelerator"]
    assert "does not fit" in reason
