"""The OpenAPI schema says what the API does: every status an operation answers is documented,
and a body is refused exactly when the schema refuses it, for the constraints one field carries
(ranges, patterns, enums); a method a path does not take is 405, and a format asked for in the
URL is the answer's format whatever Accept says."""

from datetime import date

import jsonschema
import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from apps.exports.json_export import project_document
from apps.exports.report import project_report
from tests.factories import (
    SEED_000_TRAINING,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)

pytestmark = pytest.mark.django_db
User = get_user_model()
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
ESTIMATE = {"training": SEED_000_TRAINING, "inference": seed_000_inference(15_000)}


@pytest.fixture
def manager():
    return make_manager()


@pytest.fixture
def api(manager) -> APIClient:
    client = APIClient()
    client.force_authenticate(manager)
    return client


@pytest.fixture
def document(api) -> dict:
    return api.get("/api/schema/?format=json").json()


def draft4(schema):
    """An OpenAPI 3.0 schema as JSON Schema draft 4, whose boolean exclusiveMinimum it keeps:
    `nullable` becomes a null type."""
    if isinstance(schema, list):
        return [draft4(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    schema = {key: draft4(value) for key, value in schema.items()}
    if schema.pop("nullable", False) and "type" in schema:
        schema["type"] = [schema["type"], "null"]
    return schema


def accepts(document: dict, component: str, body: dict) -> bool:
    """Whether the schema's request component takes `body`."""
    schema = {
        "allOf": [{"$ref": f"#/components/schemas/{component}"}],
        "components": draft4(document["components"]),
    }
    return jsonschema.Draft4Validator(schema).is_valid(body)


def test_a_method_a_path_does_not_take_is_405_whatever_accept_and_format_say(api, manager):
    project = make_project(manager)
    url = f"/api/v1/projects/{project.pk}/export/?format=xlsx"
    response = api.generic("TRACE", url, HTTP_ACCEPT="application/json")
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD, OPTIONS"
    assert response["Content-Type"] == "application/json"
    assert api.generic("TRACE", "/api/v1/estimate/", HTTP_ACCEPT="text/csv").status_code == 405


def test_a_format_in_the_url_wins_over_accept(api, manager):
    scenario = make_scenario(make_project(manager))
    url = f"/api/v1/scenarios/{scenario.pk}/export/?format=xlsx"
    response = api.get(url, HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert response["Content-Type"] == XLSX
    # Without a format in the URL, an Accept naming nothing the operation writes is the 406
    # the schema documents, in JSON.
    response = api.get(f"/api/v1/scenarios/{scenario.pk}/export/", HTTP_ACCEPT="image/png")
    assert response.status_code == 406
    assert response["Content-Type"] == "application/json"


def test_errors_of_a_download_are_json_even_when_its_format_was_chosen(manager):
    response = APIClient().get(
        "/api/v1/sweeps/1/results.csv?format=csv", HTTP_AUTHORIZATION="Bearer not-a-token"
    )
    assert response.status_code == 401
    assert response["Content-Type"] == "application/json"


def test_every_operation_documents_406_and_those_with_if_match_412_and_428(document):
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            assert "406" in responses, (method, path)
            headers = {p["name"]: p for p in operation.get("parameters", []) if p["in"] == "header"}
            if "If-Match" in headers:
                assert "412" in responses, (method, path)
                assert ("428" in responses) is headers["If-Match"].get("required", False)
            for code in ("429", "503"):
                if code in responses:
                    assert "Retry-After" in responses[code]["headers"], (method, path, code)


BOUNDS = [
    # (component, body the validators refuse, the field the 400 names)
    ("ProjectCreateRequest", {"title": "Plan", "capitalisation_threshold": ""}, "capitalisation_threshold"),
    ("ProjectCreateRequest", {"title": "Plan", "capitalisation_threshold": "1e3"}, "capitalisation_threshold"),
    ("EstimateRequestRequest", {**ESTIMATE, "ranges": {"training.parameters": {"low": 0, "high": 0}}}, "ranges"),
    ("EstimateRequestRequest", {**ESTIMATE, "ranges": {"inference.monthly_growth": {"low": -1, "high": 0}}}, "ranges"),
    ("EstimateRequestRequest", {**ESTIMATE, "inference": {**ESTIMATE["inference"], "utilization": 5}}, "inference"),
    ("EstimateRequestRequest", {**ESTIMATE, "inference": {**ESTIMATE["inference"], "months": 0}}, "inference"),
    ("EstimateRequestRequest", {**ESTIMATE, "inference": {**ESTIMATE["inference"], "revenue_per_request": 1e-9}}, "inference"),
    ("EstimateRequestRequest", {**ESTIMATE, "pue": 0.5}, "pue"),
    ("ProjectCreateRequest", {"title": "Plan", "period_end": "2101-01-01"}, "period_end"),
    # An exchange rate is more than 0: a decimal string of zeros is refused.
    ("ProjectCreateRequest", {"title": "Plan", "rate_low": "0", "rate_high": "1"}, "rate_low"),
    ("ProjectCreateRequest", {"title": "Plan", "rate_low": "0.5", "rate_high": "00.000"}, "rate_high"),
    ("ProjectCreateRequest", {"title": "Plan", "fiscal_year_rates": {"FY2028": ".0"}}, "fiscal_year_rates"),
    ("ProjectCreateRequest", {"title": "Plan", "period_start": "1989-12-31"}, "period_start"),
    ("OptionsRequestRequest", {"training": SEED_000_TRAINING}, "inference"),
    ("OptionsRequestRequest", {**ESTIMATE, "options": [{"key": "own"}] * 8}, "options"),
    ("OptionsRequestRequest", {**ESTIMATE, "options": [{"key": "own", "staff_fte": 1}]}, "options"),
    ("OptionsRequestRequest", {**ESTIMATE, "options": [{"key": "own", "staff_cost_per_fte_year": 1}]}, "options"),
    ("OptionsRequestRequest", {**ESTIMATE, "options": [{"key": "own", "staff_fte": -1, "staff_cost_per_fte_year": 1}]}, "options"),
    ("OptionsRequestRequest", {**ESTIMATE, "options": [{"key": "own", "staff_fte": 1, "staff_cost_per_fte_year": -1}]}, "options"),
]  # fmt: skip
URLS = {
    "ProjectCreateRequest": "/api/v1/projects/",
    "EstimateRequestRequest": "/api/v1/estimate/",
    "OptionsRequestRequest": "/api/v1/options/",
}


@pytest.mark.parametrize(("component", "body", "field"), BOUNDS)
def test_what_the_validators_refuse_the_schema_refuses_too(api, document, component, body, field):
    response = api.post(URLS[component], body, format="json")
    assert response.status_code == 400 and field in response.json(), response.json()
    assert not accepts(document, component, body)


ACCEPTED = [
    ("ProjectCreateRequest", {"title": "Plan", "capitalisation_threshold": "5000."}),
    ("ProjectCreateRequest", {"title": "Plan", "capitalisation_threshold": ".5"}),
    ("EstimateRequestRequest", {**ESTIMATE, "ranges": {"training.accelerator_hours": {"low": 0.01, "high": 400}}}),
    ("EstimateRequestRequest", {**ESTIMATE, "ranges": {"inference.monthly_growth": {"low": -0.5, "high": 0.1}}}),
    ("EstimateRequestRequest", {**ESTIMATE, "inference": {**ESTIMATE["inference"], "revenue_per_request": 0}}),
    ("EstimateRequestRequest", {**ESTIMATE, "inference": {**ESTIMATE["inference"], "months": 240}}),
    ("ProjectCreateRequest", {"title": "Plan", "period_start": "1990-01-01", "period_end": "2100-12-31"}),
    ("OptionsRequestRequest", {**ESTIMATE, "options": [{"key": "own", "staff_fte": 0, "staff_cost_per_fte_year": 0}]}),
]  # fmt: skip


@pytest.mark.parametrize(("component", "body"), ACCEPTED)
def test_what_the_schema_takes_at_its_bounds_the_api_takes(api, document, component, body):
    assert accepts(document, component, body)
    response = api.post(URLS[component], body, format="json")
    assert response.status_code in {200, 201}, response.json()


def test_an_import_of_another_format_version_is_refused_by_the_schema_too(api, manager):
    scenario = make_scenario(make_project(manager), is_baseline=True)
    document = project_document(project_report(scenario.project, user=manager))
    schema = api.get("/api/schema/?format=json").json()
    assert accepts(schema, "ProjectDocumentRequest", document)
    # `source` is read-only: ignored when sent, so not required either.
    without_source = {key: value for key, value in document.items() if key != "source"}
    assert accepts(schema, "ProjectDocumentRequest", without_source)
    older = {**document, "format_version": 0}
    assert not accepts(schema, "ProjectDocumentRequest", older)
    response = api.post("/api/v1/projects/import/", older, format="json")
    assert response.status_code == 400 and "format_version" in response.json()


@pytest.mark.parametrize(
    ("day", "taken"),
    [("1990-01-01", True), ("2100-12-31", True), ("1989-12-31", False), ("2101-01-01", False)],
)
def test_the_schema_bounds_a_planning_date_where_the_api_does(api, document, day, taken):
    line = {
        "name": "Storage", "kind": "storage", "quantity": 1, "unit": "TB-month",
        "unit_price": "20.00", "recurrence": "one_off", "start": day, "category": 4,
    }  # fmt: skip
    assert accepts(document, "CostLineRequest", line) is taken
    for component in ("ScenarioRequest", "PatchedScenarioRequest"):
        schema = document["components"]["schemas"][component]["properties"]["service_start"]
        assert "pattern" in schema
    scenario = make_scenario(make_project(User.objects.get()), is_baseline=True)
    response = api.post(f"/api/v1/scenarios/{scenario.pk}/cost-lines/", line, format="json")
    assert response.status_code == (201 if taken else 400), response.content


def test_an_id_longer_than_the_schema_allows_is_404_not_a_server_error(api, document):
    parameter = document["paths"]["/api/v1/scenarios/{scenario_id}/budget/"]["get"]["parameters"]
    assert parameter[0]["schema"]["maximum"] == 999_999_999_999_999_999
    assert api.get("/api/v1/scenarios/9223372036854775808/budget/").status_code == 404
    assert api.get("/api/v1/projects/9223372036854775808/").status_code == 404


def test_options_on_a_period_with_no_fiscal_year_are_a_documented_409_not_a_500(api, document):
    scenario = make_scenario(
        make_project(
            User.objects.get(username="manager"),
            period_end=date(2000, 1, 1),  # its start left to default: today
        )
    )
    response = api.get(f"/api/v1/scenarios/{scenario.pk}/options/")
    assert response.status_code == 409
    assert response.json()["detail"].endswith("The planning period must end after it starts.")
    operation = document["paths"]["/api/v1/scenarios/{scenario_id}/options/"]["get"]
    assert "409" in operation["responses"]


def test_a_sweep_naming_an_accelerator_twice_is_refused_by_the_schema_too(api, manager, document):
    scenario = make_scenario(make_project(manager), inputs=ESTIMATE)
    body = {
        "inputs": [{"field": "inference.requests_per_month", "kind": "list", "values": [1e4]}],
        "accelerators": ["nvidia-h100-sxm", "nvidia-h100-sxm"],
    }
    response = api.post(f"/api/v1/scenarios/{scenario.pk}/sweeps/", body, format="json")
    assert response.status_code == 400 and "accelerators" in response.json()
    assert not accepts(document, "SweepCreateRequest", body)
    assert accepts(document, "SweepCreateRequest", {**body, "accelerators": ["nvidia-h100-sxm"]})
    empty = {**body, "accelerators": [], "accelerator_sections": []}
    assert api.post(f"/api/v1/scenarios/{scenario.pk}/sweeps/", empty, format="json").json() == {
        "accelerator_sections": ["Ensure this field has at least 1 elements."]
    }
    assert not accepts(document, "SweepCreateRequest", empty)


def test_a_model_slug_has_its_pattern_in_the_schema(document):
    model = document["components"]["schemas"]["InferenceRequestRequest"]["properties"]["model"]
    assert model["pattern"] == "^[a-z0-9][-a-z0-9_.]*$"


def test_the_schema_takes_an_exchange_rate_from_its_smallest_step_above_zero(document):
    # A string has no exclusiveMinimum: the schema refuses the zeros alone, not a rate above.
    bodies = {
        "ProjectCreateRequest": {"title": "Plan"},
        "PatchedProjectRequest": {},
        "ProjectDetailsRequest": {"title": "Plan", "scenarios": []},
    }
    for component, body in bodies.items():
        for low in ("0.0000000001", ".5", "10", "0.10", None):
            assert accepts(document, component, {**body, "rate_low": low}), (component, low)
        for low in ("0", "0.", ".0", "000.0000000000"):
            assert not accepts(document, component, {**body, "rate_low": low}), (component, low)
