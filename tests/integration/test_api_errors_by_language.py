"""The API's error messages follow Accept-Language: ours (authentication, parsing, the request
contract, projects, scenarios, options, budget, reviews, share links, import) and DRF's own
(required fields, throttling), in English and in French. The engine's own messages are tested
with the engine (apps/estimates).

Each case is a request that fails, with the words the answer must hold in each language."""

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from rest_framework.test import APIClient

from apps.accounts.services import api_token_create
from apps.exports.json_export import FORMAT
from tests.factories import (
    SEED_000_TRAINING,
    make_front_office,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"


@dataclass(frozen=True)
class Case:
    status: int
    english: str
    french: str
    call: Callable[[APIClient, dict], object]


def _post(path: str, body) -> Callable:
    def call(client: APIClient, world: dict):
        return client.post(path, json.dumps(body), content_type="application/json")

    return call


def _as(who: str, call: Callable) -> Callable:
    def signed_in(client: APIClient, world: dict):
        client.force_authenticate(world[who])
        return call(client, world)

    return signed_in


def _with_header(name: str, value: str) -> Callable:
    def call(client: APIClient, world: dict):
        return client.get("/api/v1/projects/", headers={name: value})

    return call


def _raw(path: str, body: str) -> Callable:
    return lambda client, world: client.post(path, body, content_type="application/json")


def _get(path: str) -> Callable:
    return lambda client, world: client.get(path.format(**world))


def _put_scenario_without_if_match(client: APIClient, world: dict):
    scenario = world["scenario"]
    return client.patch(
        f"/api/v1/projects/{scenario.project_id}/scenarios/{scenario.pk}/",
        {"name": "Renamed"},
        format="json",
    )


def _import_another_version(client: APIClient, world: dict):
    return client.post(
        "/api/v1/projects/import/",
        {"format": FORMAT, "format_version": 999, "project": {}},
        format="json",
    )


def _share_project(client: APIClient, world: dict):
    project_id = world["scenario"].project_id
    return client.post(f"/api/v1/projects/{project_id}/share-links/", {"label": "Board"})


def _share_for_a_year(client: APIClient, world: dict):
    return client.post(
        f"/api/v1/scenarios/{world['scenario'].pk}/share-links/",
        {"label": "Board", "expires_in_days": 365},
        format="json",
    )


def _token(client: APIClient, world: dict):
    return client.post(
        "/api/v1/auth/token/", {"username": "amina", "password": "wrong"}, format="json"
    )


CASES = {
    "unknown token": Case(
        401,
        "The API token is not valid or was revoked.",
        "Le jeton d’API n’est pas valide ou a été révoqué.",
        _with_header("Authorization", "Bearer cp_nope"),
    ),
    "malformed header": Case(
        401,
        "The Authorization header must be 'Bearer' followed by one API token.",
        "L’en-tête Authorization doit contenir",
        _with_header("Authorization", "Bearer one two"),
    ),
    "no credentials (DRF's own)": Case(
        401,
        "Authentication credentials were not provided.",
        "Informations d'authentification non fournies.",
        _get("/api/v1/projects/"),
    ),
    "wrong password": Case(
        400,
        "Unable to sign in with this username and password.",
        "Impossible de se connecter avec ce nom d’utilisateur et ce mot de passe.",
        _token,
    ),
    "empty estimate": Case(
        400,
        "Give a training section, an inference section or both.",
        "Donnez une section d’entraînement, une section d’inférence ou les deux.",
        _post("/api/v1/estimate/", {}),
    ),
    "unknown field": Case(
        400,
        "Unknown field.",
        "Champ inconnu.",
        _post("/api/v1/estimate/", {"training": {**SEED_000_TRAINING, "mfu ": 0.4}}),
    ),
    "a string for a number": Case(
        400,
        "Enter a number.",
        "Saisissez un nombre.",
        _post("/api/v1/estimate/", {"training": {**SEED_000_TRAINING, "mfu": "0.4"}}),
    ),
    "NaN in the body": Case(
        400,
        "NaN is not a number JSON allows",
        "NaN n’est pas un nombre admis en JSON",
        _raw("/api/v1/estimate/", '{"training": {"accelerator_hours": NaN}}'),
    ),
    "a range of no input": Case(
        400,
        "Unknown input: no number of the request has this path.",
        "Entrée inconnue\u00a0: aucun nombre de la requête n’a ce chemin.",
        _post(
            "/api/v1/estimate/",
            {"training": SEED_000_TRAINING, "ranges": {"training.nothing": {"low": 1, "high": 2}}},
        ),
    ),
    "no accelerator to turn FLOP into hours": Case(
        400,
        "Choose an accelerator: it turns FLOP into accelerator-hours.",
        "Choisissez un accélérateur\u00a0: c’est lui qui convertit les FLOP en heures-accélérateur.",
        _post("/api/v1/estimate/", {"training": {"method": "total_flop", "total_flop": 1e21}}),
    ),
    "options without demand": Case(
        400,
        "Give the demand to serve: an inference section.",
        "Donnez la demande à servir\u00a0: une section d’inférence.",
        _post("/api/v1/options/", {"training": SEED_000_TRAINING}),
    ),
    "options given twice": Case(
        400,
        "Give each option once.",
        "Donnez chaque option une seule fois.",
        _post(
            "/api/v1/options/",
            {"inference": seed_000_inference(15_000), "options": [{"key": "own"}, {"key": "own"}]},
        ),
    ),
    "unknown options in the query": Case(
        400,
        "Give distinct keys among",
        "Donnez des clés distinctes parmi",
        _as("owner", _get("/api/v1/scenarios/{scenario_id}/options/?options=moon")),
    ),
    "another's scenario": Case(
        404,
        "No scenario of yours has this number.",
        "Aucun de vos scénarios ne porte ce numéro.",
        _as("owner", _get("/api/v1/scenarios/999999/budget/")),
    ),
    "a front office user plans no project": Case(
        403,
        "Only managers plan projects.",
        "Seuls les gestionnaires planifient des projets.",
        _as("reviewer", _post("/api/v1/projects/", {"title": "Mine"})),
    ),
    "a required field (DRF's own)": Case(
        400,
        "This field is required.",
        "Ce champ est obligatoire.",
        _as("owner", _post("/api/v1/projects/", {})),
    ),
    "a write without If-Match": Case(
        428,
        "Send If-Match with the ETag of what you change",
        "Envoyez If-Match avec l’ETag de ce que vous modifiez",
        _as("owner", _put_scenario_without_if_match),
    ),
    "a sort the queue does not know": Case(
        400,
        "Sort by one of",
        "Triez selon l’un de ces critères",
        _as("reviewer", _get("/api/v1/reviews/?sort=colour")),
    ),
    "sharing a project not submitted": Case(
        409,
        "Only a submitted project can be shared: submit it for review first.",
        "Seul un projet soumis peut être partagé\u00a0: soumettez-le d’abord à l’examen.",
        _as("owner", _share_project),
    ),
    "a link that lasts too long": Case(
        400,
        "A link lasts at most 90 days; share a new one when it runs out.",
        "Un lien dure au plus 90 jours\u202f; partagez-en un nouveau quand il expire.",
        _as("owner", _share_for_a_year),
    ),
    "an import of another format version": Case(
        400,
        "This site reads format version",
        "Ce site lit les versions",
        _as("owner", _import_another_version),
    ),
}


@pytest.fixture
def world():
    owner = make_manager("amina", PASSWORD)
    scenario = make_scenario(make_project(owner))
    api_token_create(user=owner, name="CI")
    return {
        "owner": owner,
        "reviewer": make_front_office("ines"),
        "scenario": scenario,
        "scenario_id": scenario.pk,
    }


@pytest.mark.parametrize("name", CASES)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_an_api_error_is_in_the_language_of_accept_language(world, name, language):
    case = CASES[name]
    client = APIClient(headers={"accept-language": language})
    response = case.call(client, world)
    assert response.status_code == case.status, response.content
    text = json.dumps(response.json(), ensure_ascii=False)
    expected, other = (
        (case.english, case.french) if language == "en" else (case.french, case.english)
    )
    assert expected in text
    assert other not in text


def test_throttling_is_said_in_the_readers_language(settings, world):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "1/minute", "user": "1/minute"},
    }
    body = json.dumps({"training": SEED_000_TRAINING})
    client = APIClient(headers={"accept-language": "fr"})
    for _ in range(2):
        response = client.post("/api/v1/estimate/", body, content_type="application/json")
    assert response.status_code == 429
    assert response.json()["detail"].startswith("Requête ralentie.")


def test_too_many_failed_sign_ins_are_said_in_the_readers_language(settings, world):
    settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS = 1
    client = APIClient(headers={"accept-language": "fr"})
    first = _token(client, world)
    assert first.status_code == 400
    refused = _token(client, world)
    assert refused.status_code == 429
    assert refused.json()["detail"].startswith("Trop de tentatives de connexion échouées.")
