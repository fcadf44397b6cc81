"""The read-only catalogue API and the OpenAPI schema and docs, served by the app itself."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db


def test_accelerators_list_has_the_contract_fields(api_client):
    response = api_client.get("/api/v1/accelerators/")
    assert response.status_code == 200
    rows = response.json()
    assert len(rows) >= 15
    h100 = next(row for row in rows if row["slug"] == "nvidia-h100-sxm")
    assert set(h100) >= {
        "slug",
        "name",
        "vendor",
        "memory_gb",
        "memory_bandwidth_tbps",
        "power_watts",
        "peak_tflops",
        "sources",
    }
    assert h100["peak_tflops"] == {
        "fp32": 67,
        "tf32": 494.7,
        "bf16": 989.4,
        "fp16": 989.4,
        "fp8": 1978.9,
        "int8": 1978.9,
    }
    assert h100["sources"][0]["source"] and h100["sources"][0]["as_of"]


def test_accelerator_detail_by_slug_and_404_for_an_unknown_one(api_client):
    assert api_client.get("/api/v1/accelerators/amd-mi300x/").json()["memory_gb"] == 192
    response = api_client.get("/api/v1/accelerators/no-such-chip/")
    assert response.status_code == 404
    assert response.json() == {"detail": "No Accelerator matches the given query."}


def test_accelerator_list_runs_a_constant_number_of_queries(api_client):
    with CaptureQueriesContext(connection) as queries:
        api_client.get("/api/v1/accelerators/")
    assert len(queries) <= 2  # accelerators, and their price offers in one prefetch


def test_thresholds_and_energy_profiles_are_listed(api_client):
    thresholds = api_client.get("/api/v1/thresholds/").json()
    assert any(t["flop"] == 1e25 and t["status"] == "in_force" for t in thresholds)
    profiles = api_client.get("/api/v1/energy-profiles/").json()
    assert all(p["pue"] >= 1 and p["sources"] for p in profiles)


def test_catalogue_api_is_read_only(api_client):
    assert api_client.post("/api/v1/accelerators/", {}, format="json").status_code == 405
    assert api_client.delete("/api/v1/thresholds/eu-ai-act-art-51/").status_code == 405


def test_openapi_schema_describes_every_route(api_client):
    response = api_client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert {
        "/api/v1/estimate/",
        "/api/v1/accelerators/",
        "/api/v1/accelerators/{slug}/",
        "/api/v1/thresholds/",
        "/api/v1/energy-profiles/",
    } <= set(schema["paths"])
    request_body = schema["components"]["schemas"]["EstimateRequestRequest"]["properties"]
    assert {"training", "inference", "energy_profile"} <= set(request_body)


def test_api_docs_load_their_assets_from_this_app_only(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert not re.search(r"""(src|href)=["']https?://""", html)
    assets = re.findall(r"""(?:src|href)=["'](/static/[^"']+)["']""", html)
    assert assets
    for asset in assets:
        response = client.get(asset)
        assert response.status_code == 200, asset
        response.close()
