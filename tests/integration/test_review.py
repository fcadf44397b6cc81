"""Submission and front-office review: snapshots, frozen projects, return and clear with a
status history, comments, the queue's filters and sort, and who may reach what."""

import json
import re
from datetime import UTC, date, datetime
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from apps.budget.kept import drawn_up_from_record
from apps.budget.selectors import scenario_budget
from apps.budget.serializers import BudgetSerializer
from apps.budget.services import cost_line_create
from apps.projects.conditional import scenario_etag
from apps.projects.models import Project, ProjectSnapshot, Scenario, StatusChange
from apps.projects.versions import version_estimate
from apps.reviews import services
from tests.factories import (
    SEED_000_TRAINING,
    make_front_office,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)
from tests.integration.test_budget_models import STAFF
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner():
    return make_manager("maria")


@pytest.fixture
def colleague(owner):
    return make_manager("colleague")


@pytest.fixture
def reviewer():
    return make_front_office("fiona")


@pytest.fixture
def project(owner, colleague):
    project = make_project(owner, "Translation assistant", unit="Language services")
    project.collaborators.add(colleague)
    make_scenario(project, "Pilot", is_baseline=True)
    make_scenario(
        project,
        "Wider use",
        inputs={"training": SEED_000_TRAINING, "inference": seed_000_inference(300_000)},
    )
    return project


@pytest.fixture
def submitted(project, owner):
    services.project_submit(project=project, user=owner)
    project.refresh_from_db()
    return project


def signed_in(client, user):
    client.force_login(user)
    return client


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def followed_messages(response) -> str:
    return " ".join(str(m) for m in response.context["messages"])


# Submission.


def test_submitting_freezes_the_latest_version_of_each_scenario_with_its_total_cost(
    client, owner, project
):
    pilot = project.scenarios.get(name="Pilot")
    signed_in(client, owner).post(f"/scenarios/{pilot.pk}/", {**scenario_post(), "version": 1})
    response = client.post(f"/projects/{project.pk}/submit/", follow=True)
    assert response.redirect_chain == [(f"/projects/{project.pk}/", 302)]
    assert "is submitted for review with its 2 scenarios" in followed_messages(response)

    project.refresh_from_db()
    assert project.status == Project.Status.SUBMITTED
    snapshot = project.snapshots.get()
    assert snapshot.number == 1 and snapshot.created_by == owner
    versions = {(v.scenario.name, v.number) for v in snapshot.scenario_versions.all()}
    assert versions == {("Pilot", 2), ("Wider use", 1)}
    # The project's budget total: its baseline's, not the sum of alternative scenarios.
    baseline = project.scenarios.get(is_baseline=True)
    assert snapshot.total_cost == scenario_budget(baseline).budget.summary.total
    change = project.status_changes.get()
    assert (change.from_status, change.to_status, change.changed_by) == (
        "draft",
        "submitted",
        owner,
    )


def test_seed_000_costs_898_50_in_all_599_to_train_and_299_50_to_serve(owner):
    project = make_project(owner)
    scenario = make_scenario(project)
    pilot = version_estimate(scenario.versions.get()).result
    assert pilot.training.cost == Decimal("599.00")
    assert pilot.inference.total.cost == Decimal("299.50")


def test_the_submitted_total_is_the_baseline_budgets_not_a_sum_of_alternatives(owner):
    project = make_project(owner)
    baseline = make_scenario(project, "Pilot", is_baseline=True)
    make_scenario(project, "Wider use", inputs={"inference": seed_000_inference(300_000)})
    cost_line_create(scenario=baseline, fields=STAFF)
    budget_total = scenario_budget(baseline).budget.summary.total
    snapshot = services.project_submit(project=project, user=owner)
    assert snapshot.total_cost == budget_total
    # Seed 000 in its first period: 599 to train, the months of serving, and the staff line.
    assert budget_total > Decimal("898.50")


def test_without_a_baseline_the_submission_is_refused_saying_so(client, owner):
    project = make_project(owner)
    make_scenario(project)
    response = signed_in(client, owner).post(f"/projects/{project.pk}/submit/", follow=True)
    assert "has no baseline scenario: mark one as the baseline" in followed_messages(response)
    assert Project.objects.get(pk=project.pk).status == "draft"
    assert not project.snapshots.exists()


def test_a_collaborator_submits_too(client, colleague, project):
    signed_in(client, colleague).post(f"/projects/{project.pk}/submit/")
    assert Project.objects.get(pk=project.pk).status == "submitted"


def test_submitting_twice_is_refused_and_keeps_one_snapshot(client, owner, submitted):
    response = signed_in(client, owner).post(f"/projects/{submitted.pk}/submit/", follow=True)
    assert "is submitted for review, so it cannot be submitted" in followed_messages(response)
    assert submitted.snapshots.count() == 1 and submitted.status_changes.count() == 1


def test_a_project_without_scenarios_cannot_be_submitted(client, owner):
    project = make_project(owner)
    response = signed_in(client, owner).post(f"/projects/{project.pk}/submit/", follow=True)
    assert "has no scenario" in followed_messages(response)
    assert Project.objects.get(pk=project.pk).status == "draft"


def test_submitting_through_the_api_answers_with_the_review(owner, project):
    response = api(owner).post(f"/api/v1/projects/{project.pk}/submit/")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["status"], body["submission"]) == ("submitted", 1)
    assert body["total_cost"] == str(ProjectSnapshot.objects.get().total_cost)
    assert [s["name"] for s in body["scenarios"]] == ["Pilot", "Wider use"]
    assert body["history"][0]["to_status"] == "submitted"
    again = api(owner).post(f"/api/v1/projects/{project.pk}/submit/")
    assert again.status_code == 409
    assert "cannot be submitted" in again.json()["detail"]


# While submitted (or cleared), nothing changes: pages.

FROZEN_PAGE_WRITES = [
    ("get", "/projects/{project}/edit/"),
    ("post", "/projects/{project}/edit/"),
    ("post", "/projects/{project}/scenarios/new/"),
    ("post", "/scenarios/{scenario}/duplicate/"),
    ("post", "/scenarios/{scenario}/baseline/"),
    ("post", "/scenarios/{scenario}/delete/"),
]


def project_state(project) -> list:
    scenarios = Scenario.objects.filter(project=project).order_by("pk")
    return [
        *scenarios.values_list("name", "is_baseline", "version"),
        Project.objects.get(pk=project.pk).title,
    ]


@pytest.mark.parametrize(("method", "url"), FROZEN_PAGE_WRITES)
def test_a_submitted_project_refuses_every_page_write_with_the_reason(
    client, owner, submitted, method, url
):
    before = project_state(submitted)
    scenario = submitted.scenarios.get(name="Wider use")
    data = {"title": "Changed", "currency": "USD", "classification": "public"}
    response = getattr(signed_in(client, owner), method)(
        url.format(project=submitted.pk, scenario=scenario.pk), data, follow=True
    )
    assert response.redirect_chain == [(f"/projects/{submitted.pk}/", 302)]
    assert "is submitted for review: it cannot be changed until the front office returns it" in (
        followed_messages(response)
    )
    assert project_state(submitted) == before


def test_saving_a_scenario_of_a_submitted_project_is_refused_and_keeps_the_input(
    client, owner, submitted
):
    scenario = submitted.scenarios.get(name="Pilot")
    response = signed_in(client, owner).post(
        f"/scenarios/{scenario.pk}/",
        {**scenario_post(inference_requests_per_month="77,000"), "version": 1},
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert "There is a problem" in html and "is submitted for review" in html
    assert 'value="77,000"' in html
    assert Scenario.objects.get(pk=scenario.pk).version == 1


def test_the_live_preview_still_works_on_a_submitted_project(client, owner, submitted):
    scenario = submitted.scenarios.get(name="Pilot")
    response = signed_in(client, owner).post(
        f"/scenarios/{scenario.pk}/preview/", scenario_post(), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200


def test_a_submitted_project_shows_why_and_offers_no_edits(client, owner, submitted):
    html = signed_in(client, owner).get(f"/projects/{submitted.pk}/").content.decode()
    assert "Submitted for review" in html and "By maria on" in html
    assert "Add a scenario" not in html and "Project settings" not in html
    assert "Submit for review</button>" not in html
    assert f'href="/reviews/{submitted.pk}/"' in html
    scenario = submitted.scenarios.get(name="Pilot")
    page = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "nothing can be saved" in page
    assert "Save scenario" not in page and "Delete scenario" not in page


def test_a_cleared_project_stays_frozen(client, owner, reviewer, submitted):
    services.project_clear(project=submitted, user=reviewer)
    response = signed_in(client, owner).post(
        f"/projects/{submitted.pk}/scenarios/new/", follow=True
    )
    assert "has been cleared by the front office" in followed_messages(response)
    assert submitted.scenarios.count() == 2


# While submitted, nothing changes: the API answers 409 Conflict.

FROZEN_API_WRITES = [
    ("put", "project"), ("patch", "project"), ("delete", "project"), ("post", "scenarios"),
    ("put", "scenario"), ("patch", "scenario"), ("delete", "scenario"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("method", "route"), FROZEN_API_WRITES, ids=map(" ".join, FROZEN_API_WRITES)
)
def test_a_submitted_project_refuses_every_api_write_with_409(owner, submitted, method, route):
    before = project_state(submitted)
    scenario = submitted.scenarios.get(name="Pilot")
    url = {
        "project": f"/api/v1/projects/{submitted.pk}/",
        "scenarios": f"/api/v1/projects/{submitted.pk}/scenarios/",
        "scenario": f"/api/v1/projects/{submitted.pk}/scenarios/{scenario.pk}/",
    }[route]
    body = {"title": "Changed", "name": "Changed", "inputs": {"inference": seed_000_inference(9)}}
    # The scenario's current ETag: the refusal is for the status, not a stale version.
    headers = {"HTTP_IF_MATCH": scenario_etag(scenario)} if route == "scenario" else {}
    response = getattr(api(owner), method)(url, body, format="json", **headers)
    assert response.status_code == 409, response.content
    assert "is submitted for review" in response.json()["detail"]
    assert project_state(submitted) == before


# Return for changes, resubmit, clear.


def test_front_office_returns_with_a_comment_the_manager_changes_and_resubmits_then_it_is_cleared(
    client, owner, reviewer, submitted
):
    response = signed_in(client, reviewer).post(
        f"/reviews/{submitted.pk}/return/", {"comment": "Plan for 50,000 requests."}, follow=True
    )
    assert response.redirect_chain == [(f"/reviews/{submitted.pk}/", 302)]
    assert "is returned to its managers for changes" in followed_messages(response)
    submitted.refresh_from_db()
    assert submitted.status == "returned"

    # The manager sees why, changes a scenario and submits again.
    signed_in(client, owner)
    assert "Plan for 50,000 requests." in client.get(f"/projects/{submitted.pk}/").content.decode()
    pilot = submitted.scenarios.get(name="Pilot")
    saved = client.post(
        f"/scenarios/{pilot.pk}/",
        {**scenario_post(inference_requests_per_month="50,000"), "version": 1},
    )
    assert saved.status_code == 302
    client.post(f"/projects/{submitted.pk}/submit/")
    submitted.refresh_from_db()
    assert submitted.status == "submitted" and submitted.snapshots.count() == 2

    # The front office sees what changed since the first submission, and clears it.
    signed_in(client, reviewer)
    html = client.get(f"/reviews/{submitted.pk}/").content.decode()
    assert "What changed since submission 1" in html
    assert "Requests in the first month: 15,000 → 50,000" in html
    assert "Wider use</strong>:\n    unchanged (version 1)" in html
    client.post(f"/reviews/{submitted.pk}/clear/", {"comment": ""})
    submitted.refresh_from_db()
    assert submitted.status == "cleared"

    history = [
        (c.from_status, c.to_status, c.changed_by.username, c.comment)
        for c in StatusChange.objects.filter(project=submitted).order_by("changed_at", "pk")
    ]
    assert history == [
        ("draft", "submitted", "maria", ""),
        ("submitted", "returned", "fiona", "Plan for 50,000 requests."),
        ("returned", "submitted", "maria", ""),
        ("submitted", "cleared", "fiona", ""),
    ]
    html = client.get(f"/reviews/{submitted.pk}/").content.decode()
    shown = re.findall(
        r"<strong>(Submitted for review|Returned for changes|Cleared)</strong> by (\w+)", html
    )
    assert shown == [
        ("Submitted for review", "maria"),
        ("Returned for changes", "fiona"),
        ("Submitted for review", "maria"),
        ("Cleared", "fiona"),
    ]
    assert "nothing to decide" in html


def test_returning_needs_a_comment(client, reviewer, submitted):
    response = signed_in(client, reviewer).post(
        f"/reviews/{submitted.pk}/return/", {"comment": "  "}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "There is a problem" in html and 'href="#return_comment"' in html
    assert "Say what needs to change" in html
    api_response = api(reviewer).post(
        f"/api/v1/projects/{submitted.pk}/return/", {"comment": ""}, format="json"
    )
    assert api_response.status_code == 400 and api_response.json()["comment"]
    assert Project.objects.get(pk=submitted.pk).status == "submitted"


def test_return_and_clear_through_the_api(owner, reviewer, submitted):
    client = api(reviewer)
    response = client.post(
        f"/api/v1/projects/{submitted.pk}/return/", {"comment": "Fewer GPUs."}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "returned"
    assert response.json()["history"][-1]["comment"] == "Fewer GPUs."
    assert response.json()["history"][-1]["changed_by"] == "fiona"
    assert client.post(f"/api/v1/projects/{submitted.pk}/clear/").status_code == 409
    api(owner).post(f"/api/v1/projects/{submitted.pk}/submit/")
    response = client.post(f"/api/v1/projects/{submitted.pk}/clear/", {}, format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["status"], response.json()["submission"]) == ("cleared", 2)


@pytest.mark.parametrize("action", ["return", "clear"])
def test_only_a_submitted_project_can_be_returned_or_cleared(client, reviewer, submitted, action):
    services.project_clear(project=submitted, user=reviewer)
    response = signed_in(client, reviewer).post(
        f"/reviews/{submitted.pk}/{action}/", {"comment": "Again"}, follow=True
    )
    assert "is cleared, so it cannot be" in followed_messages(response)
    assert submitted.status_changes.count() == 2


@pytest.mark.parametrize("action", ["return", "clear"])
def test_a_manager_gets_403_returning_or_clearing_their_own_project(
    client, owner, submitted, action
):
    response = signed_in(client, owner).post(
        f"/reviews/{submitted.pk}/{action}/", {"comment": "Fine"}
    )
    assert response.status_code == 403
    api_response = api(owner).post(
        f"/api/v1/projects/{submitted.pk}/{action}/", {"comment": "Fine"}, format="json"
    )
    assert api_response.status_code == 403
    assert Project.objects.get(pk=submitted.pk).status == "submitted"


# Comments.


def test_the_front_office_and_the_projects_managers_comment_in_one_thread(
    client, owner, colleague, reviewer, submitted
):
    signed_in(client, reviewer).post(f"/reviews/{submitted.pk}/comments/", {"body": "Why H100s?"})
    signed_in(client, owner).post(f"/reviews/{submitted.pk}/comments/", {"body": "Latency."})
    response = api(colleague).post(
        f"/api/v1/projects/{submitted.pk}/comments/", {"body": "Agreed."}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["author"] == "colleague"
    thread = api(reviewer).get(f"/api/v1/projects/{submitted.pk}/comments/").json()
    assert [(c["author"], c["body"]) for c in thread] == [
        ("fiona", "Why H100s?"),
        ("maria", "Latency."),
        ("colleague", "Agreed."),
    ]
    html = client.get(f"/reviews/{submitted.pk}/").content.decode()
    assert html.index("Why H100s?") < html.index("Latency.") < html.index("Agreed.")


def test_an_empty_comment_is_refused(client, owner, submitted):
    response = signed_in(client, owner).post(f"/reviews/{submitted.pk}/comments/", {"body": ""})
    assert response.status_code == 200 and "There is a problem" in response.content.decode()
    assert (
        api(owner)
        .post(f"/api/v1/projects/{submitted.pk}/comments/", {"body": ""}, format="json")
        .status_code
        == 400
    )
    assert not submitted.comments.exists()


# The review page: the figures that matter on one screen.


def test_the_review_page_shows_training_against_inference_for_each_scenario(
    client, reviewer, owner
):
    project = make_project(owner, "Translation assistant", classification="confidential")
    make_scenario(project, "Pilot", is_baseline=True)
    services.project_submit(project=project, user=owner)
    html = signed_in(client, reviewer).get(f"/reviews/{project.pk}/").content.decode()
    figures = html.split("<caption")[1]
    assert 'Training: build cost</th><td><data value="599.00">$599</data>' in figures
    assert "$299.50" in figures and 'over <data value="12">12 months</data>' in figures
    assert '<strong><data value="898.50">$898.50</data></strong>' in figures
    assert '<data value="0.001664">$0.0017</data>' in figures
    assert "$1.66</data> per 1,000" in figures
    assert 'after <data value="24.0">24 months</data>, beyond the horizon' in figures
    assert "Compute thresholds exceeded</th><td>none</td>" in figures
    assert "Confidential" in html and "not approved for confidential data" in html


def test_the_review_shows_the_submission_not_later_edits(client, owner, reviewer, submitted):
    services.project_return(project=submitted, user=reviewer, comment="More users")
    pilot = submitted.scenarios.get(name="Pilot")
    signed_in(client, owner).post(
        f"/scenarios/{pilot.pk}/",
        {**scenario_post(inference_requests_per_month="900000"), "version": 1},
    )
    html = signed_in(client, reviewer).get(f"/reviews/{submitted.pk}/").content.decode()
    assert "$299.50" in html  # the submitted 15,000 requests a month, not 900,000


# The queue.


def submit(
    owner, title: str, *, unit: str = "", requests: int = 15_000, on: datetime | None = None
):
    project = make_project(owner, title, unit=unit)
    make_scenario(
        project,
        inputs={"training": SEED_000_TRAINING, "inference": seed_000_inference(requests)},
        is_baseline=True,
    )
    snapshot = services.project_submit(project=project, user=owner)
    if on:
        ProjectSnapshot.objects.filter(pk=snapshot.pk).update(created_at=on)
    return project


def queue_titles(client, query: str = "") -> list[str]:
    html = client.get(f"/reviews/{query}").content.decode()
    return re.findall(r'<th scope="row"><a href="/reviews/\d+/">([^<]+)</a>', html)


def api_titles(user, query: str = "") -> list[str]:
    response = api(user).get(f"/api/v1/reviews/{query}")
    assert response.status_code == 200, response.content
    return [p["title"] for p in response.json()]


@pytest.fixture
def queue(owner, reviewer):
    """Four workplans: three submitted on different days, one returned; and one draft."""
    submit(owner, "Cheap", unit="Section A", requests=1_000, on=datetime(2026, 3, 1, tzinfo=UTC))
    submit(owner, "Dear", unit="Section B", requests=900_000, on=datetime(2026, 3, 10, tzinfo=UTC))
    submit(
        owner, "Middling", unit="Section A", requests=100_000, on=datetime(2026, 3, 20, tzinfo=UTC)
    )
    returned = submit(owner, "Returned", unit="Section B", on=datetime(2026, 3, 5, tzinfo=UTC))
    services.project_return(project=returned, user=reviewer, comment="Redo")
    make_scenario(make_project(owner, "Draft", unit="Section A"))


def test_the_queue_shows_what_awaits_review_oldest_first_and_never_drafts(client, reviewer, queue):
    assert queue_titles(signed_in(client, reviewer)) == ["Cheap", "Dear", "Middling"]
    assert api_titles(reviewer) == ["Cheap", "Dear", "Middling"]
    assert queue_titles(client, "?status=returned") == ["Returned"]
    assert queue_titles(client, "?status=all") == ["Cheap", "Returned", "Dear", "Middling"]
    assert api_titles(reviewer, "?status=all") == ["Cheap", "Returned", "Dear", "Middling"]


def test_the_queue_filters_by_unit_and_submission_dates(client, reviewer, queue):
    signed_in(client, reviewer)
    assert queue_titles(client, "?unit=Section+A") == ["Cheap", "Middling"]
    assert api_titles(reviewer, "?unit=Section+A") == ["Cheap", "Middling"]
    dates = "?submitted_from=2026-03-02&submitted_to=2026-03-20&status=all"
    assert queue_titles(client, dates) == ["Returned", "Dear", "Middling"]
    assert api_titles(reviewer, dates) == ["Returned", "Dear", "Middling"]
    assert queue_titles(client, "?submitted_to=2026-03-09") == ["Cheap"]


def test_the_queue_sorts_by_total_cost(client, reviewer, queue):
    signed_in(client, reviewer)
    assert queue_titles(client, "?sort=-total_cost") == ["Dear", "Middling", "Cheap"]
    assert queue_titles(client, "?sort=total_cost") == ["Cheap", "Middling", "Dear"]
    assert api_titles(reviewer, "?sort=-total_cost") == ["Dear", "Middling", "Cheap"]
    costs = [
        Decimal(p["total_cost"])
        for p in api(reviewer).get("/api/v1/reviews/?sort=-total_cost").json()
    ]
    assert costs == sorted(costs, reverse=True)
    titles = ["Dear", "Middling", "Cheap"]
    assert costs == [ProjectSnapshot.objects.get(project__title=t).total_cost for t in titles]


def test_a_bad_filter_is_named_and_the_others_still_apply(client, reviewer, queue):
    response = signed_in(client, reviewer).get("/reviews/?unit=Section+A&submitted_from=someday")
    html = response.content.decode()
    assert "There is a problem" in html and 'href="#id_submitted_from"' in html
    assert queue_titles(client, "?unit=Section+A&submitted_from=someday") == ["Cheap", "Middling"]
    assert api(reviewer).get("/api/v1/reviews/?submitted_from=someday").status_code == 400


def test_the_queue_takes_as_many_queries_for_six_workplans_as_for_one(client, owner, reviewer):
    signed_in(client, reviewer)
    submit(owner, "First")
    client.get("/reviews/")  # warm caches such as the content types

    def queries(url: str, getter) -> int:
        with CaptureQueriesContext(connection) as captured:
            assert getter(url).status_code == 200
        return len(captured)

    year = drawn_up_from_record(ProjectSnapshot.objects.get().budget).budget.fiscal_years[0].label
    by_year = f"?sort=-fy:{year}"
    page_one, api_one = (
        queries("/reviews/", client.get),
        queries("/api/v1/reviews/", api(reviewer).get),
    )
    year_one = queries(f"/reviews/{by_year}", client.get)
    api_year_one = queries(f"/api/v1/reviews/{by_year}", api(reviewer).get)
    for n in range(5):
        project = submit(owner, f"Project {n}", unit=f"Unit {n}")
        project.collaborators.add(make_manager(f"colleague{n}"))
    assert len(queue_titles(client)) == 6
    assert queries("/reviews/", client.get) == page_one
    assert queries("/api/v1/reviews/", api(reviewer).get) == api_one
    assert queries(f"/reviews/{by_year}", client.get) == year_one
    assert queries(f"/api/v1/reviews/{by_year}", api(reviewer).get) == api_year_one
    assert page_one <= 9


# Who reaches what.

REVIEW_PAGES = [
    ("get", "/reviews/{}/"),
    ("post", "/reviews/{}/comments/"),
    ("post", "/reviews/{}/return/"),
    ("post", "/reviews/{}/clear/"),
    ("post", "/projects/{}/submit/"),
]
REVIEW_API = [
    ("get", "/api/v1/reviews/{}/"),
    ("post", "/api/v1/projects/{}/submit/"),
    ("post", "/api/v1/projects/{}/return/"),
    ("post", "/api/v1/projects/{}/clear/"),
    ("get", "/api/v1/projects/{}/comments/"),
    ("post", "/api/v1/projects/{}/comments/"),
]


@pytest.mark.parametrize(("method", "url"), REVIEW_PAGES + REVIEW_API)
def test_another_manager_gets_404_on_every_review_route_of_someone_elses_project(
    client, stranger, submitted, method, url
):
    body = {"comment": "Mine", "body": "Mine"}
    if url.startswith("/api/"):
        response = getattr(api(stranger), method)(url.format(submitted.pk), body, format="json")
    else:
        response = getattr(signed_in(client, stranger), method)(url.format(submitted.pk), body)
    assert response.status_code == 404
    submitted.refresh_from_db()
    assert submitted.status == "submitted" and not submitted.comments.exists()


def test_managers_get_403_on_the_queue(client, owner, submitted):
    assert signed_in(client, owner).get("/reviews/").status_code == 403
    assert api(owner).get("/api/v1/reviews/").status_code == 403


def test_the_front_office_does_not_see_drafts(client, reviewer, project):
    assert signed_in(client, reviewer).get(f"/reviews/{project.pk}/").status_code == 404
    assert api(reviewer).get(f"/api/v1/reviews/{project.pk}/").status_code == 404
    assert (
        api(reviewer)
        .post(f"/api/v1/projects/{project.pk}/comments/", {"body": "Hi"}, format="json")
        .status_code
        == 404
    )


FRONT_OFFICE_WRITES = [
    ("get", "/scenarios/{scenario}/"),
    ("post", "/scenarios/{scenario}/"),
    ("post", "/scenarios/{scenario}/delete/"),
    ("post", "/projects/{project}/scenarios/new/"),
    ("get", "/projects/{project}/edit/"),
    ("get", "/scenarios/{scenario}/versions/"),
]


@pytest.mark.parametrize(("method", "url"), FRONT_OFFICE_WRITES)
def test_the_front_office_reviews_but_cannot_reach_the_scenarios_to_edit_them(
    client, reviewer, reviewer_returned, method, url
):
    project = reviewer_returned
    scenario = project.scenarios.get(name="Pilot")
    response = getattr(signed_in(client, reviewer), method)(
        url.format(project=project.pk, scenario=scenario.pk)
    )
    assert response.status_code == 404
    etag = scenario_etag(scenario)
    api_response = api(reviewer).patch(
        f"/api/v1/projects/{project.pk}/scenarios/{scenario.pk}/",
        {"name": "Mine"},
        format="json",
        HTTP_IF_MATCH=etag,
    )
    assert api_response.status_code == 404
    assert Scenario.objects.get(pk=scenario.pk).name == "Pilot"


@pytest.fixture
def reviewer_returned(reviewer, submitted):
    """A project the front office returned: editable again, but not by the front office."""
    services.project_return(project=submitted, user=reviewer, comment="Change it")
    return submitted


def test_the_review_queue_is_in_the_navigation_of_the_front_office_only(client, owner, reviewer):
    assert "Review queue" in signed_in(client, reviewer).get("/projects/").content.decode()
    assert "Review queue" not in signed_in(client, owner).get("/projects/").content.decode()


# The queue by fiscal year: the budget frozen with each submission.

PERIOD = {"period_start": date(2026, 1, 1), "period_end": date(2027, 12, 31)}


def one_off(name: str, month: date, price: str) -> dict:
    return {
        "name": name, "kind": "licence", "quantity": Decimal("1"), "unit": "licence",
        "unit_price": Decimal(price), "recurrence": "one_off", "start": month, "end": None,
        "category": 7, "basis": "Quoted.",
    }  # fmt: skip


def submit_with_line(owner, title: str, line: dict) -> Project:
    project = make_project(owner, title, **PERIOD)
    baseline = make_scenario(project, "Pilot", is_baseline=True)
    make_scenario(project, "Alternative")
    cost_line_create(scenario=baseline, fields=line)
    services.project_submit(project=project, user=owner)
    return project


@pytest.fixture
def by_year(owner):
    """Early spends in FY2026, Late in FY2027; each has an alternative scenario too."""
    submit_with_line(owner, "Early", one_off("Licence", date(2026, 3, 1), "200000"))
    submit_with_line(owner, "Late", one_off("Licence", date(2027, 3, 1), "300000"))


def test_the_snapshot_keeps_the_baseline_budget_as_the_api_gives_it(owner, by_year):
    project = Project.objects.get(title="Early")
    snapshot = project.snapshots.get()
    live = api(owner).get(f"/api/v1/projects/{project.pk}/budget/").json()
    frozen = drawn_up_from_record(snapshot.budget)
    assert json.loads(JSONRenderer().render(BudgetSerializer(frozen).data)) == live
    assert snapshot.total_cost == Decimal(live["summary"]["total"])
    assert [y["label"] for y in live["fiscal_years"]] == ["FY2026", "FY2027"]
    assert snapshot.fiscal_year_totals == {
        year["label"]: {"start": year["start"], "total": total}
        for year, total in zip(live["fiscal_years"], live["totals"]["total"], strict=True)
    }


def test_the_queue_shows_and_sorts_by_each_fiscal_year(client, reviewer, by_year):
    signed_in(client, reviewer)
    html = client.get("/reviews/").content.decode()
    assert 'href="?sort=-fy%3AFY2026"' in html and 'href="?sort=-fy%3AFY2027"' in html
    early = ProjectSnapshot.objects.get(project__title="Early").fiscal_year_totals
    assert f"${Decimal(early['FY2026']['total']):,.2f}" in html
    assert queue_titles(client, "?sort=-fy:FY2026") == ["Early", "Late"]
    assert queue_titles(client, "?sort=-fy:FY2027") == ["Late", "Early"]
    assert queue_titles(client, "?sort=fy:FY2027") == ["Early", "Late"]
    sorted_html = client.get("/reviews/?sort=-fy:FY2027").content.decode()
    assert 'aria-sort="descending"><a href="?sort=fy%3AFY2027">FY2027' in sorted_html
    assert api_titles(reviewer, "?sort=-fy:FY2026") == ["Early", "Late"]
    assert api_titles(reviewer, "?sort=-fy:FY2027") == ["Late", "Early"]
    body = api(reviewer).get("/api/v1/reviews/?sort=-fy:FY2027").json()
    assert [y["label"] for y in body[0]["fiscal_years"]] == ["FY2026", "FY2027"]
    late = ProjectSnapshot.objects.get(project__title="Late")
    assert body[0]["fiscal_years"][1]["total"] == late.fiscal_year_totals["FY2027"]["total"]
    assert Decimal(body[0]["total_cost"]) == late.total_cost


def test_an_unknown_fiscal_year_sort_is_refused_by_the_api_and_ignored_by_the_page(
    client, reviewer, by_year
):
    assert api(reviewer).get("/api/v1/reviews/?sort=-fy:FY1999").status_code == 400
    assert api(reviewer).get("/api/v1/reviews/?sort=cheapest").status_code == 400
    titles = queue_titles(signed_in(client, reviewer), "?sort=-fy:FY1999")
    assert titles == ["Early", "Late"]  # the default order, with the error named
