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
        "accelerators_per_node",
        "interconnect_gb_per_second",
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
        "fp4": None,  # Hopper has no FP4
    }
    assert (h100["accelerators_per_node"], h100["interconnect_gb_per_second"]) == (8, 900)
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


@pytest.mark.parametrize("kind", ["accelerators", "thresholds", "energy-profiles"])
def test_a_slug_that_is_no_slug_is_a_404_before_any_lookup(api_client, kind):
    """Found by the API fuzz test: PostgreSQL refuses a NUL in a lookup, which answered 500."""
    for slug in ("%00", "nvidia%00h100", "a.b"):
        response = api_client.get(f"/api/v1/{kind}/{slug}/")
        assert response.status_code == 404, slug
        assert response.json() == {"detail": "Not found."}


def test_openapi_schema_documents_the_errors_drf_answers_with(api_client):
    """Found by the API fuzz test: 400, 401, 403, 404, 415 and 429 were undocumented."""
    schema = api_client.get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]

    def documented(path: str, method: str) -> dict:
        return paths[path][method]["responses"]

    error = {"$ref": "#/components/schemas/Error"}
    catalogue = documented("/api/v1/accelerators/{slug}/", "get")
    assert set(catalogue) == {"200", "401", "404", "406", "429"}
    assert catalogue["404"]["content"]["application/json"]["schema"] == error
    assert catalogue["429"]["headers"]["Retry-After"]["schema"] == {"type": "integer"}
    estimate = documented("/api/v1/estimate/", "post")
    assert set(estimate) == {"200", "400", "401", "403", "415", "429", "406"}
    assert estimate["400"]["content"]["application/json"]["schema"]["type"] == "object"
    assert set(documented("/api/v1/projects/", "get")) == {"200", "401", "429", "406"}
    assert set(documented("/api/v1/projects/", "post")) == {
        "201",
        "400",
        "401",
        "403",
        "415",
        "429",
        "406",
    }
    assert set(documented("/api/v1/sweeps/{sweep_id}/", "get")) == {
        "200",
        "401",
        "404",
        "406",
        "429",
    }
    # What a view documents itself stays as it is.
    token = documented("/api/v1/auth/token/", "post")
    assert token["400"]["description"] == "Missing fields, or a wrong username or password."
    assert "401" not in token  # the token endpoint reads no credentials but those in its body
    for operations in paths.values():
        for operation in operations.values():
            for code, response in operation["responses"].items():
                assert code == "204" or "content" in response, (operation["operationId"], code)


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
