"""The API takes JSON values of the types its schema gives and refuses others, never converting
them (DRF would take 0 as "0", "true" as true, "7" as 7): one rule for every request body, which
`StrictTypes` brings to each serializer of one (the last test checks that every one has it)."""

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers
from rest_framework.test import APIClient

from apps.api.strict import StrictTypes
from apps.projects.models import Scenario
from apps.projects.presets import PRESETS_BY_SLUG
from apps.reviews.services import project_submit
from tests.factories import make_front_office, make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def manager():
    return make_manager()


@pytest.fixture
def scenario(manager):
    project = make_project(manager)
    return make_scenario(project, inputs=PRESETS_BY_SLUG["fine-tune-7b"].inputs, is_baseline=True)


def test_a_review_comment_that_is_a_number_is_a_400_and_the_project_stays_submitted(
    manager, scenario
):
    project = scenario.project
    project_submit(project=project, user=manager)
    reviewer = as_user(make_front_office())

    for action in ("return", "clear"):
        response = reviewer.post(
            f"/api/v1/projects/{project.pk}/{action}/", {"comment": 0}, format="json"
        )
        assert response.status_code == 400, action
        assert response.json() == {"comment": ["Not a valid string."]}
    project.refresh_from_db()
    assert project.status == "submitted"


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        ({"name": 5}, {"name": ["Not a valid string."]}),
        ({"name": "Bigger", "is_baseline": "true"}, {"is_baseline": ["Must be a valid boolean."]}),
        ({"name": "Bigger", "is_baseline": 1}, {"is_baseline": ["Must be a valid boolean."]}),
    ],
)
def test_a_scenario_with_a_value_of_the_wrong_type_is_refused_and_not_saved(
    manager, scenario, body, errors
):
    response = as_user(manager).post(
        f"/api/v1/projects/{scenario.project_id}/scenarios/",
        {"inputs": scenario.inputs, **body},
        format="json",
    )
    assert response.status_code == 400
    assert response.json() == errors
    assert Scenario.objects.count() == 1


@pytest.mark.parametrize(
    ("path", "body", "field", "message"),
    [
        ("/api/v1/projects/", {"title": 2026}, "title", "Not a valid string."),
        (
            "/api/v1/projects/",
            {"title": "P", "currency": 0},
            "currency",
            '"0" is not a valid choice.',
        ),
        (
            "/api/v1/projects/",
            {"title": "P", "collaborators": [7]},
            "collaborators",
            "Invalid value.",
        ),
        (
            "/api/v1/projects/",
            {"title": "P", "collaborators": {}},
            "collaborators",
            'Expected a list of items but got type "dict".',
        ),
        (
            "/api/v1/auth/token/",
            {"username": 1, "password": "x"},
            "username",
            "Not a valid string.",
        ),
        (
            "SCENARIO/share-links/",
            {"label": "B", "expires_in_days": "7"},
            "expires_in_days",
            "A valid integer is required.",
        ),
        (
            "SCENARIO/sweeps/",
            {"inputs": [{"field": "inference.months", "kind": "list", "values": ["6"]}]},
            "inputs",
            None,
        ),
    ],
)
def test_every_endpoint_refuses_a_value_of_the_wrong_type(
    manager, scenario, path, body, field, message
):
    path = path.replace("SCENARIO", f"/api/v1/scenarios/{scenario.pk}")
    response = as_user(manager).post(path, body, format="json")
    assert response.status_code == 400, response.content
    assert field in response.json()
    if message:
        assert response.json()[field] == [message]


def test_a_format_given_empty_is_no_format_not_the_default_one(manager, scenario):
    client = as_user(manager)
    assert client.get(f"/api/v1/scenarios/{scenario.pk}/export/?format=").status_code == 404
    assert client.get(f"/api/v1/scenarios/{scenario.pk}/export/").status_code == 200


def test_numbers_still_take_whole_numbers_and_floats_alike(manager, scenario):
    inputs = {**scenario.inputs, "inference": {**scenario.inputs["inference"], "months": 24.0}}
    response = as_user(manager).post(
        f"/api/v1/projects/{scenario.project_id}/scenarios/",
        {"name": "Two years", "inputs": inputs},
        format="json",
    )
    assert response.status_code == 201, response.content


def serializers_within(serializer: serializers.BaseSerializer) -> list:
    """The serializer and every serializer nested in it that takes input, as instances."""
    if isinstance(serializer, serializers.ListSerializer):
        return serializers_within(serializer.child)
    found = [serializer]
    for field in serializer.fields.values():
        if isinstance(field, serializers.ListField):
            field = field.child
        if isinstance(field, serializers.BaseSerializer) and not field.read_only:
            found += serializers_within(field)
    return found


def all_subclasses(cls: type) -> set[type]:
    return {cls, *(sub for child in cls.__subclasses__() for sub in all_subclasses(child))}


def request_body_serializers() -> dict[str, list]:
    """Per operation of the API schema that takes a JSON body, the serializers of that body,
    found by their components' names (drf-spectacular names one after its serializer)."""
    schema = SchemaGenerator().get_schema(request=None, public=True)  # imports every API module
    by_component = {}
    for cls in all_subclasses(serializers.Serializer):
        if cls.__module__.startswith("apps."):
            name = cls.__name__.removesuffix("Serializer")
            by_component[f"{name}Request"] = by_component[f"Patched{name}Request"] = cls
    found = {}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json")
            if body and "$ref" in body["schema"]:
                component = body["schema"]["$ref"].rsplit("/", 1)[-1]
                found[f"{method.upper()} {path}"] = serializers_within(by_component[component]())
    return found


def test_every_serializer_of_a_request_body_checks_json_types():
    bodies = request_body_serializers()
    assert len(bodies) >= 15  # the schema was read
    lax = {
        f"{operation}: {type(serializer).__name__}"
        for operation, found in bodies.items()
        for serializer in found
        if not isinstance(serializer, StrictTypes)
    }
    assert not lax, "Base these on apps.api.strict.StrictTypes (or StrictSerializer)"
