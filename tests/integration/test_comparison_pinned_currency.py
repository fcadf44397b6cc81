"""A share of a version saved before its project's currency changed shows the version's figures
in the currency its prices were converted into (its pinned rate's), not the project's new one
(issue 23)."""

from datetime import date

import pytest

from apps.projects.models import Project
from apps.sharing.services import share_link_create
from tests.factories import make_project, make_scenario
from tests.integration.test_exchange_rates import load_ecb

pytestmark = pytest.mark.django_db


def _comparison(page: str) -> str:
    start = page.index('id="comparison"')
    return page[start : page.index("</section>", start)]


def test_a_dollar_version_shared_after_the_project_moved_to_euros_stays_in_dollars(owner, client):
    load_ecb()
    project = make_project(owner, "Translation", rate_date=date(2025, 6, 2))
    scenario = make_scenario(project, is_baseline=True)
    version = scenario.versions.get(number=scenario.version)
    _link, token = share_link_create(subject=version, user=owner, label="Board")
    Project.objects.filter(pk=project.pk).update(currency="EUR")
    comparison = _comparison(client.get(f"/s/{token}/").content.decode())
    assert "$" in comparison
    assert "€" not in comparison and "EUR" not in comparison


def test_a_euro_version_shared_after_the_project_moved_to_dollars_stays_in_euros(owner, client):
    load_ecb()
    project = make_project(owner, "Traduction", currency="EUR", rate_date=date(2025, 6, 2))
    scenario = make_scenario(project, is_baseline=True)
    version = scenario.versions.get(number=scenario.version)
    _link, token = share_link_create(subject=version, user=owner, label="Board")
    Project.objects.filter(pk=project.pk).update(currency="USD")
    comparison = _comparison(client.get(f"/s/{token}/").content.decode())
    assert "€" in comparison and "$" not in comparison
