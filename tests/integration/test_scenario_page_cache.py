"""The scenario page's cached parts are never out of date, and its queries stay few.

The page keeps its rendered form, comparison and header in the cache under a digest of what they
are drawn from (apps.core.fragments), and the whole page per user, language and address
(apps.core.pages); every test here changes one of those things and expects the page to show it
on the next request, with nothing invalidated by hand.
"""

import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from apps.catalogue.models import Accelerator, PriceOffer
from apps.projects import presentation, services
from apps.projects.roles import FRONT_OFFICE
from tests.factories import make_front_office, make_manager, make_project, make_scenario
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db

H100 = "nvidia-h100-sxm"


@pytest.fixture
def manager(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


def page(client, scenario, query: str = "") -> str:
    response = client.get(f"/scenarios/{scenario.pk}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def exact_training_cost(html: str) -> Decimal:
    """The training cost's exact value from the formulas panel ("Cost" under "Wall-clock")."""
    match = re.search(r"<dt>Wall-clock</dt>.*?<dt>Cost</dt><dd>([0-9,.]+) USD</dd>", html, re.S)
    assert match, "no exact training cost on the page"
    return Decimal(match.group(1).replace(",", ""))


@pytest.fixture
def set_rent_price(django_capture_on_commit_callbacks):
    def set_price(slug: str, price: str) -> None:
        """Every rent offer of the accelerator at one price, saved one by one as the admin does
        (and committed: a catalogue change is announced once its transaction commits)."""
        offers = PriceOffer.objects.filter(accelerator__slug=slug, kind=PriceOffer.Kind.RENT)
        assert offers.exists()
        with django_capture_on_commit_callbacks(execute=True):
            for offer in offers:
                offer.price_per_accelerator_hour = Decimal(price)
                offer.save()

    return set_price


def test_a_catalogue_price_change_shows_on_the_next_request(client, manager, set_rent_price):
    scenario = make_scenario(make_project(manager))  # 200 accelerator-hours of training, rented
    set_rent_price(H100, "10.00")
    assert exact_training_cost(page(client, scenario)) == Decimal("2000")
    assert exact_training_cost(page(client, scenario)) == Decimal("2000")  # from the cache
    set_rent_price(H100, "12.50")
    assert exact_training_cost(page(client, scenario)) == Decimal("2500")


def test_saved_inputs_show_at_once_whichever_way_they_were_saved(client, manager, set_rent_price):
    scenario = make_scenario(make_project(manager))
    set_rent_price(H100, "10.00")
    assert exact_training_cost(page(client, scenario)) == Decimal("2000")
    inputs = {**scenario.inputs, "training": {**scenario.inputs["training"]}}
    inputs["training"]["accelerator_hours"] = 300
    services.scenario_update(
        scenario=scenario,
        name="Renamed pilot",
        inputs=inputs,
        user=manager,
        expected_version=scenario.version,
    )
    html = page(client, scenario)
    assert exact_training_cost(html) == Decimal("3000")
    assert "<h1>Renamed pilot" in html and 'value="Renamed pilot"' in html
    assert f'name="version" value="{scenario.version}"' in html


def test_identical_scenarios_never_share_a_page(client, manager):
    project = make_project(manager)
    first, second = make_scenario(project, name="Same"), make_scenario(project, name="Same")
    page(client, first)
    html = page(client, second)
    assert f"/scenarios/{second.pk}/preview/" in html
    assert f"/scenarios/{first.pk}/" not in html


def test_the_header_follows_baseline_and_status_changes(client, manager):
    project = make_project(manager)
    scenario = make_scenario(project)
    html = page(client, scenario)
    assert "Mark as baseline" in html and "Delete scenario" in html
    services.scenario_set_baseline(scenario=scenario)
    scenario.refresh_from_db()
    html = page(client, scenario)
    assert '<span class="badge">Baseline</span>' in html and "Mark as baseline" not in html
    project.status = project.Status.SUBMITTED
    project.save()
    html = page(client, scenario)
    assert "is submitted for review" in html
    assert "Delete scenario" not in html and 'id="scenario-actions"' not in html


def test_a_failed_estimate_is_reported_from_the_cache_too(
    client, manager, django_capture_on_commit_callbacks
):
    scenario = make_scenario(make_project(manager))
    with django_capture_on_commit_callbacks(execute=True):
        for offer in Accelerator.objects.get(slug=H100).price_offers.all():
            offer.delete()
    for _ in range(2):
        html = page(client, scenario)
        assert "The saved figures no longer fit the catalogue" in html
        assert "The figures appear when every value is valid." in html


def test_the_actions_post_through_the_page_form_with_its_csrf_token(client, manager):
    scenario = make_scenario(make_project(manager))
    html = page(client, scenario)
    form = re.search(r'<form id="scenario-actions" method="post" hidden>(.*?)</form>', html, re.S)
    assert form and 'name="csrfmiddlewaretoken"' in form.group(1)
    for action in ("duplicate", "baseline", "delete"):
        assert f'form="scenario-actions" formaction="/scenarios/{scenario.pk}/{action}/"' in html, (
            action
        )


def test_the_review_queue_link_follows_group_changes_at_once(client, manager):
    project = make_project(manager)
    scenario = make_scenario(project)
    front_office = Group.objects.get(name=FRONT_OFFICE)
    assert "Review queue" not in page(client, scenario)
    manager.groups.add(front_office)
    assert "Review queue" in page(client, scenario)
    manager.groups.remove(front_office)
    assert "Review queue" not in page(client, scenario)
    front_office.user_set.add(manager)  # from the group's side
    assert "Review queue" in page(client, scenario)
    front_office.user_set.clear()
    assert "Review queue" not in page(client, scenario)


def test_compare_from_a_scenario_opens_it_beside_the_first_three_others(client, manager):
    project = make_project(manager)
    alone = make_scenario(project, name="Alone")
    html = client.get(f"/projects/{project.pk}/compare/?with={alone.pk}").content.decode()
    assert "This project has one scenario: duplicate it or add another to compare." in html
    others = [make_scenario(project, name=f"Variant {n}") for n in range(4)]
    html = client.get(f"/projects/{project.pk}/compare/?with={others[2].pk}").content.decode()
    table = html[html.index('<table class="compare"') :]
    headers = re.findall(r'<th scope="col">(?:<a [^>]*>)?([^<]+)', table)
    assert headers[1] == "Variant 2" and len(headers) == 5, headers
    assert f'href="/projects/{project.pk}/compare/?with={alone.pk}"' in page(client, alone)


def test_the_page_runs_few_queries_with_a_cold_or_a_warm_cache(client, manager):
    project = make_project(manager)
    scenario = make_scenario(project)
    for index in range(10):
        make_scenario(project, name=f"Variant {index}")
    page(client, scenario)
    with CaptureQueriesContext(connection) as warm:
        page(client, scenario)
    # Warm: the user, and the scenario with its project (when it was last saved stands for its
    # cost lines in the cache key); the session and roles are cached, the page comes whole.
    assert len(warm) == 2, [q["sql"] for q in warm.captured_queries]
    cache.clear()
    with CaptureQueriesContext(connection) as cold:
        page(client, scenario)
    # Cold adds the session, the roles, the catalogue snapshot (five tables: the commitment
    # discounts too) and the latest version, whose figures the page reads instead of computing.
    assert len(cold) <= 12, [q["sql"] for q in cold.captured_queries]


def test_each_signed_in_user_gets_their_own_navigation(client, manager):
    scenario = make_scenario(make_project(manager))
    html = page(client, scenario)
    assert 'Sign out <span class="visually-hidden">(maria)</span>' in html
    sign_out = re.search(
        r'<form id="sign-out" method="post" action="/accounts/logout/" hidden>(.*?)</form>', html
    )
    assert sign_out and 'name="csrfmiddlewaretoken"' in sign_out.group(1)
    other = make_manager("omar")
    client.force_login(other)
    html = page(client, make_scenario(make_project(other)))
    assert "(omar)" in html and "(maria)" not in html
    other.username = "omar.k"
    other.save()
    assert "(omar.k)" in page(client, other.owned_projects.get().scenarios.get())


def test_a_new_release_reads_none_of_the_pages_the_last_one_cached(
    client, manager, settings, monkeypatch
):
    scenario = make_scenario(make_project(manager))
    assert "Worded by the next release." not in page(client, scenario)
    # The next release's code words the comparison otherwise; the saved scenario is unchanged.
    monkeypatch.setattr(presentation, "describe", lambda *args, **kwargs: NEXT_WORDS)
    assert "Worded by the next release." not in page(client, scenario)  # the cached page
    settings.CACHES = {"default": {**settings.CACHES["default"], "VERSION": "next-release"}}
    assert "Worded by the next release." in page(client, scenario)


NEXT_WORDS = ["Worded by the next release."]


def test_htmx_restoring_the_page_from_history_gets_the_whole_page(client, manager):
    scenario = make_scenario(make_project(manager))
    fragment = client.get(f"/scenarios/{scenario.pk}/?view=single", headers={"HX-Request": "true"})
    assert fragment.content.decode().lstrip().startswith('<section id="comparison"')
    restored = client.get(
        f"/scenarios/{scenario.pk}/?view=single",
        headers={"HX-Request": "true", "HX-History-Restore-Request": "true"},
    ).content.decode()
    assert restored.startswith("<!doctype html>") and 'id="scenario-form"' in restored


CSRF_TOKENS = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"|"X-CSRFToken": "([^"]+)"')


def csrf_tokens(html: str) -> set[str]:
    """Every CSRF token the page carries (its forms' fields and the HTMX header)."""
    return {field or header for field, header in CSRF_TOKENS.findall(html)}


def from_the_cache(client, scenario, query: str = "") -> bool:
    """Whether the page came whole from the cache: no template was rendered for it."""
    response = client.get(f"/scenarios/{scenario.pk}/{query}")
    assert response.status_code == 200
    return not response.templates


def test_the_whole_page_comes_from_the_cache_with_a_fresh_csrf_token_each_time(client, manager):
    scenario = make_scenario(make_project(manager))
    assert not from_the_cache(client, scenario)
    assert from_the_cache(client, scenario)
    tokens = [csrf_tokens(page(client, scenario)) for _ in range(3)]
    for each in tokens:  # one token per page, in all six places, masked as Django masks it
        assert len(each) == 1 and len(next(iter(each))) == 64, each
    assert len(set.union(*tokens)) == 3, "a cached page must not repeat a token"


def test_the_actions_post_with_the_token_of_a_page_from_the_cache(manager):
    scenario = make_scenario(make_project(manager))
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(manager)
    page(browser, scenario)
    assert from_the_cache(browser, scenario)
    (token,) = csrf_tokens(page(browser, scenario))
    refused = browser.post(f"/scenarios/{scenario.pk}/duplicate/")
    assert refused.status_code == 403
    response = browser.post(f"/scenarios/{scenario.pk}/duplicate/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert scenario.project.scenarios.count() == 2


def test_a_page_cached_for_one_member_never_reaches_another(client, manager):
    project = make_project(manager)
    scenario = make_scenario(project)
    reviewer = make_front_office("rita")
    colleague = make_manager("colin")
    project.collaborators.add(reviewer, colleague)
    html = page(client, scenario)
    assert "(maria)" in html and "Review queue" not in html
    for user, name, reviews in ((reviewer, "rita", True), (colleague, "colin", False)):
        other = Client()
        other.force_login(user)
        page(other, scenario)
        html = page(other, scenario)
        assert f"({name})" in html and "(maria)" not in html
        assert ("Review queue" in html) is reviews
    html = page(client, scenario)
    assert "(maria)" in html and "(rita)" not in html and "(colin)" not in html


def test_each_language_gets_its_own_whole_page(client, manager):
    scenario = make_scenario(make_project(manager))
    for _ in range(2):
        for language, lang, save in (
            ("fr", "fr", "Enregistrer le scénario"),
            ("en", "en-gb", "Save scenario"),
        ):
            response = client.get(
                f"/scenarios/{scenario.pk}/", headers={"accept-language": language}
            )
            html = response.content.decode()
            assert f'<html lang="{lang}"' in html and f">{save}</button>" in html
    assert (
        "Save scenario"
        not in client.get(
            f"/scenarios/{scenario.pk}/", headers={"accept-language": "fr"}
        ).content.decode()
    )


def test_the_language_switcher_returns_to_the_address_it_was_on(client, manager):
    scenario = make_scenario(make_project(manager))
    for query in ("", "?view=single", "?view=many", "", "?view=single"):
        html = page(client, scenario, query)
        assert f'name="next" value="/scenarios/{scenario.pk}/{query}"' in html
    # Other query strings are drawn as usual, not cached (no cache entry per made-up address).
    for _ in range(2):
        assert not from_the_cache(client, scenario, "?utm=1")


def test_a_waiting_message_is_shown_once_even_over_a_cached_page(client, manager):
    project = make_project(manager)
    scenario = make_scenario(project, name="Pilot")
    page(client, scenario)
    assert from_the_cache(client, scenario)
    # A message queued by another page, then this one opened: shown here, once.
    other = make_scenario(project, name="Other")
    client.post(f"/scenarios/{other.pk}/duplicate/")
    response = client.get(f"/scenarios/{scenario.pk}/")
    assert "“Copy of Other” created." in response.content.decode()
    assert response.templates, "a page with a message is drawn, not read from the cache"
    html = page(client, scenario)
    assert "created." not in html and 'class="messages"' not in html
    # Saving: the message on the page the save returns to, then never again.
    data = {**scenario_post("Renamed"), "version": scenario.version}
    response = client.post(f"/scenarios/{scenario.pk}/", data, follow=True)
    assert response.content.decode().count("Scenario saved.") == 1
    for _ in range(2):
        assert "Scenario saved." not in page(client, scenario, "?view=many")
