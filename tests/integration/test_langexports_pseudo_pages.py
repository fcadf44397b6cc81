"""A pseudo-locale render of the front office's, the board's and the sweep pages: the review
queue, a review, the portfolio, share links, a page opened by a share link, the sweep form and a
finished sweep, the import page and the catalogue pages. Any visible English left outside the
⟦brackets⟧ bypassed gettext (tests/integration/test_pseudo_locale.py explains the check)."""

import pytest
from babel import Locale
from django.test import Client

from apps.apiprices.models import ApiModel
from apps.catalogue.language_models import LanguageModel
from apps.reviews.services import project_submit
from apps.sharing import services as sharing
from apps.sweeps import runs, services, tasks
from apps.words import numbers
from tests.factories import (
    DEMAND_SWEEP,
    make_front_office,
    make_manager,
    make_project,
    make_scenario,
)
from tests.integration.test_pseudo_locale import (  # noqa: F401 (a fixture)
    PSEUDO,
    catalogue_data,
    pseudo_locale,
    untranslated,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pseudo_locale")]


@pytest.fixture(autouse=True)
def queued(monkeypatch):
    monkeypatch.setattr(tasks.sweep_run_chunk, "delay", lambda *args: None)


@pytest.fixture(autouse=True)
def pseudo_numbers(monkeypatch):
    """CLDR knows no "xx": the pseudo-locale writes its numbers as British English does."""
    monkeypatch.setattr(numbers, "language_locale", lambda language: Locale.parse("en_GB"))


def catalogue_words() -> list[str]:
    """Catalogue data of every page: hardware, language models and API prices."""
    words = set(catalogue_data())
    for model in (LanguageModel, ApiModel):
        for row in model.objects.values():
            words |= {
                " ".join(value.split())
                for value in row.values()
                if isinstance(value, str) and len(value) > 1
            }
    words |= {f"{m.name} ({m.developer})" for m in LanguageModel.objects.all()}
    return sorted(words, key=len, reverse=True)


@pytest.fixture
def world():
    """A submitted project with a baseline scenario, a share link and a finished sweep."""
    owner = make_manager("amina")
    project = make_project(owner, "Translation assistant")
    scenario = make_scenario(project, "Pilot", is_baseline=True)
    project_submit(project=project, user=owner)
    version = scenario.versions.get(number=scenario.version)
    _, token = sharing.share_link_create(subject=version, user=owner, label="Board meeting")
    sweep = services.sweep_create(
        scenario=scenario,
        created_by=owner,
        definition={"inputs": [DEMAND_SWEEP]},
        name="Demand sweep",
    )
    sweep.refresh_from_db()
    for index in range(sweep.total_chunks):
        runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=index)
    return {
        "owner": owner,
        "reviewer": make_front_office("kofi"),
        "project": project,
        "scenario": scenario,
        "token": token,
        "sweep": sweep,
        "data": [
            "Translation assistant",
            "Pilot",
            "Board meeting",
            "Demand sweep",
            "amina",
            "kofi",
        ],
    }


def page(client: Client, path: str) -> str:
    response = client.get(path, headers={"accept-language": PSEUDO})
    assert response.status_code == 200, path
    assert response["Content-Language"] == PSEUDO
    return response.content.decode()


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    "path",
    [
        "/reviews/",
        "/reviews/{project}/",
        "/portfolio/",
    ],
)
def test_every_word_of_a_front_office_page_goes_through_gettext(world, path):
    html = page(signed_in(world["reviewer"]), path.format(project=world["project"].pk))
    assert untranslated(html, world["data"]) == []


@pytest.mark.parametrize(
    "path",
    [
        "/share-links/",
        "/scenarios/{scenario}/share/",
        "/scenarios/{scenario}/sweeps/new/",
        "/sweeps/{sweep}/",
        "/projects/import/",
    ],
)
def test_every_word_of_a_managers_page_goes_through_gettext(world, path):
    path = path.format(scenario=world["scenario"].pk, sweep=world["sweep"].pk)
    html = page(signed_in(world["owner"]), path)
    # the sweep form offers the catalogue's accelerators by name
    assert untranslated(html, [*world["data"], *catalogue_words()]) == []


def test_every_word_of_a_page_opened_by_a_share_link_goes_through_gettext(world):
    """Every word, the estimate engine's notes and budget lines kept with the version included;
    the catalogue's own names are data."""
    html = page(Client(), f"/s/{world['token']}/")
    assert untranslated(html, [*world["data"], *catalogue_words()]) == []


def test_a_link_that_does_not_open_is_in_the_readers_language(world):
    response = Client().get("/s/not-a-token/", headers={"accept-language": PSEUDO})
    assert response.status_code == 404
    assert untranslated(response.content.decode()) == []


@pytest.mark.parametrize(
    "path",
    ["/catalogue/", "/catalogue/models/", "/catalogue/api-prices/"],
)
def test_every_word_of_a_catalogue_page_goes_through_gettext(world, path):
    html = page(signed_in(world["owner"]), path)
    assert untranslated(html, catalogue_words()) == []
