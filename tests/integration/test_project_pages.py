"""Project and scenario pages: presets, forms that keep input, live previews, toggles, privacy."""

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.projects.models import Project, Scenario
from apps.projects.presets import PRESETS, PRESETS_BY_SLUG
from apps.projects.quick_start import OWN_PRESET, OWN_SOURCES
from tests.factories import make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db


@pytest.fixture
def manager(client):
    user = make_manager("maria")
    client.force_login(user)
    return user


def scenario_post(scenario_name="Pilot", **overrides) -> dict:
    data = {
        "name": scenario_name,
        "training_enabled": "on",
        "training_method": "accelerator_hours",
        "training_accelerator_hours": "200",
        "training_accelerator": "nvidia-h100-sxm",
        "training_precision": "bf16",
        "training_accelerator_count": "8",
        "training_mfu": "40",
        "training_goodput": "100",
        "training_pricing_mode": "rent",
        "training_lifetime_years": "5",
        "inference_enabled": "on",
        "inference_method": "accelerator_seconds",
        "inference_accelerator_seconds_per_request": "2",
        "inference_accelerator": "nvidia-h100-sxm",
        "inference_precision": "bf16",
        "inference_requests_per_month": "15,000",
        "inference_monthly_growth": "0",
        "inference_months": "12",
        "inference_peak_to_average": "3",
        "inference_target_utilization": "70",
        "inference_utilization": "30",
        "inference_provisioning": "pay_per_use",
        "inference_pricing_mode": "rent",
        "inference_lifetime_years": "5",
        "energy_profile": "world-average-grid-industry-pue",
    }
    data.update(overrides)
    return data


@pytest.mark.parametrize("preset", PRESETS, ids=[p.slug for p in PRESETS])
def test_a_manager_creates_a_project_from_each_preset_and_sees_its_figures(client, manager, preset):
    response = client.post(
        "/projects/new/",
        {
            "title": "Translation assistant",
            "unit": "Section A",
            "currency": "USD",
            "classification": "public",
            "preset": preset.slug,
            "collaborators": "",
        },
    )
    assert response.status_code == 302
    project = Project.objects.get(owner=manager)
    scenario = project.scenarios.get()
    assert scenario.is_baseline and scenario.inputs == preset.inputs
    page = client.get(response["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert "Training against inference" in html and "Describe this without the diagram" in html
    assert "Build cost" in html and "Run cost" in html and "User speed" in html


def test_quick_start_errors_are_summarised_and_keep_what_was_typed(client, manager):
    response = client.post(
        "/projects/new/",
        {
            "preset": PRESETS[0].slug,
            "requests_per_month": "lots",
            "requests_in_a_year": "40,000",
            "period_start": "2027-01-01",
            "period_end": "2026-12-31",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "There is a problem" in html
    assert 'href="#id_requests_per_month"' in html and 'href="#id_period_end"' in html
    assert 'value="lots"' in html and 'value="40,000"' in html
    assert not Project.objects.exists()


def test_settings_form_errors_are_summarised_and_keep_what_was_typed(client, manager):
    project = make_project(manager)
    response = client.post(
        f"/projects/{project.pk}/edit/",
        {
            "title": "",
            "unit": "Section A",
            "currency": "USD",
            "classification": "public",
            "collaborators": "nobody-by-this-name",
        },
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "There is a problem" in html
    assert 'href="#id_title"' in html and 'href="#id_collaborators"' in html
    assert 'value="Section A"' in html and "nobody-by-this-name" in html


def test_quick_start_turns_its_answers_into_the_first_scenario(client, manager):
    response = client.post(
        "/projects/new/",
        {
            "preset": "translation-assistant",
            "build": "none",
            "requests_per_month": "10,000",
            "requests_in_a_year": "40,000",
            "runs_on": "own",
            "period_start": "2027-01-01",
            "period_end": "2028-12-31",
        },
    )
    assert response.status_code == 302
    project = Project.objects.get(owner=manager)
    assert str(project.period_start) == "2027-01-01" and str(project.period_end) == "2028-12-31"
    scenario = project.scenarios.get()
    assert scenario.is_baseline and "training" not in scenario.inputs
    inference = scenario.inputs["inference"]
    assert inference["requests_per_month"] == 10_000 and inference["pricing_mode"] == "own"
    # 10,000 × (1 + g)^12 = 40,000: g = 4^(1/12) − 1 = 0.122462…
    assert inference["monthly_growth"] == pytest.approx(0.122462, abs=1e-6)
    # The budget and the decision view are there at once.
    assert client.get(f"/scenarios/{scenario.pk}/budget/").status_code == 200
    assert client.get(f"/scenarios/{scenario.pk}/options/").status_code == 200


def test_quick_start_can_serve_through_an_external_api_and_train_a_model(client, manager):
    response = client.post(
        "/projects/new/",
        {"preset": "chat-service-rented", "build": "train", "runs_on": "external_api"},
    )
    assert response.status_code == 302
    inputs = Project.objects.get(owner=manager).scenarios.get().inputs
    assert inputs["training"] == PRESETS_BY_SLUG["pre-train-70b"].inputs["training"]
    assert inputs["inference"] == {
        "method": "external_api",
        "api_model": "openai-gpt-4o-mini",
        "input_tokens": 800,
        "output_tokens": 400,
        "requests_per_month": 2_000_000,
        "monthly_growth": 0.1,
        "months": 24,
        "peak_to_average": 3,
    }


def test_quick_start_offers_my_own_with_its_figures_and_their_sources(client, manager):
    html = client.get("/projects/new/").content.decode()
    assert 'value="own"' in html and "My own system" in html
    assert "the worked example of the UN Learn AI glossary" in html
    assert "the catalogue&#x27;s median rental price" in html


def _leaves(inputs: dict, path: str = "") -> list[str]:
    found = []
    for key, value in inputs.items():
        where = f"{path}.{key}" if path else key
        found.extend(_leaves(value, where) if isinstance(value, dict) else [where])
    return found


def test_my_own_figures_each_have_a_source_and_nothing_else_is_set():
    # Every figure "my own" sets names where it comes from; all the rest is the engine's default.
    figures = [path for path in _leaves(OWN_PRESET.inputs) if not path.endswith(".method")]
    assert sorted(figures) == sorted(OWN_SOURCES)
    assert (
        OWN_PRESET.inputs["inference"]["accelerator_seconds_per_request"]
        == (
            PRESETS_BY_SLUG["translation-assistant"].inputs["inference"][
                "accelerator_seconds_per_request"
            ]
        )
    )


def test_quick_start_from_my_own_says_to_replace_the_general_figures(client, manager):
    response = client.post("/projects/new/", {"preset": "own", "requests_per_month": "5000"})
    assert response.status_code == 302
    project = Project.objects.get(owner=manager)
    scenario = project.scenarios.get()
    assert project.title == "My own system" and scenario.is_baseline
    assert scenario.inputs == {
        "inference": {**OWN_PRESET.inputs["inference"], "requests_per_month": 5000}
    }
    # Straight to the inputs of the scenario page, which says plainly what to do with them.
    assert response["Location"] == f"{scenario.get_absolute_url()}#inputs-heading"
    html = client.get(scenario.get_absolute_url()).content.decode()
    assert "These are general figures, not yours: replace them with your own below." in html
    assert "the worked example of the UN Learn AI glossary" in html
    assert 'id="inputs-heading"' in html and 'id="strip"' in html
    # Its budget and decision view are there at once.
    assert client.get(f"/scenarios/{scenario.pk}/budget/").status_code == 200
    assert client.get(f"/scenarios/{scenario.pk}/options/").status_code == 200


def test_quick_start_from_my_own_can_be_fine_tuned_and_served_by_an_api(client, manager):
    response = client.post(
        "/projects/new/", {"preset": "own", "build": "fine_tune", "runs_on": "external_api"}
    )
    assert response.status_code == 302
    inputs = Project.objects.get(owner=manager).scenarios.get().inputs
    assert inputs["training"] == PRESETS_BY_SLUG["fine-tune-7b"].inputs["training"]
    assert inputs["inference"] == {
        "method": "external_api",
        "api_model": "openai-gpt-4o-mini",
        "input_tokens": 1000,
        "output_tokens": 500,
        "requests_per_month": 15_000,
    }


def test_seed_000_scenario_page_shows_8_33_accelerator_hours_a_month(client, manager):
    scenario = make_scenario(make_project(manager))
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "8.33 accelerator-hours" in html
    assert "24 months" in html


def test_saving_a_scenario_stores_the_estimate_request_shape(client, manager):
    scenario = make_scenario(make_project(manager))
    response = client.post(
        f"/scenarios/{scenario.pk}/",
        scenario_post("Wider use", inference_requests_per_month="300000"),
    )
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.name == "Wider use"
    assert scenario.inputs["inference"]["requests_per_month"] == 300_000
    assert scenario.inputs["training"]["mfu"] == pytest.approx(0.4)
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    assert "167 accelerator-hours" in html


def test_a_bad_value_is_shown_beside_its_field_and_nothing_typed_is_lost(client, manager):
    scenario = make_scenario(make_project(manager))
    before = dict(scenario.inputs)
    response = client.post(
        f"/scenarios/{scenario.pk}/",
        scenario_post(
            training_mfu="150", inference_requests_per_month="12,345", inference_months="abc"
        ),
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "There is a problem" in html
    assert 'href="#id_inference_months"' in html
    assert 'id="id_inference_months_error"' in html
    assert 'value="12,345"' in html and 'value="abc"' in html and 'value="150"' in html
    scenario.refresh_from_db()
    assert scenario.inputs == before


def test_an_engine_range_error_lands_on_the_field_that_caused_it(client, manager):
    scenario = make_scenario(make_project(manager))
    response = client.post(f"/scenarios/{scenario.pk}/", scenario_post(training_mfu="150"))
    html = response.content.decode()
    assert 'id="id_training_mfu_error"' in html
    assert 'aria-invalid="true"' in html


def test_live_preview_returns_only_the_comparison_without_saving(client, manager):
    scenario = make_scenario(make_project(manager))
    response = client.post(
        f"/scenarios/{scenario.pk}/preview/",
        scenario_post(inference_requests_per_month="300000"),
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="comparison"')
    assert "167 accelerator-hours" in html
    assert "<form" not in html.split('id="strip"')[0]
    scenario.refresh_from_db()
    assert scenario.inputs["inference"]["requests_per_month"] == 15_000


def test_live_preview_of_invalid_input_lists_the_errors_instead_of_figures(client, manager):
    scenario = make_scenario(make_project(manager))
    html = client.post(
        f"/scenarios/{scenario.pk}/preview/",
        scenario_post(inference_months="0"),
        HTTP_HX_REQUEST="true",
    ).content.decode()
    assert "The figures appear when every value is valid" in html
    assert 'href="#id_inference_months"' in html


def test_toggle_switches_between_single_and_many_requests_with_and_without_htmx(client, manager):
    scenario = make_scenario(make_project(manager))
    single = client.get(f"/scenarios/{scenario.pk}/?view=single").content.decode()
    assert "Cost per 1,000 requests" in single and "Accelerators needed at peak" not in single
    many = client.get(f"/scenarios/{scenario.pk}/?view=many").content.decode()
    assert "Accelerators needed at peak" in many
    partial = client.get(f"/scenarios/{scenario.pk}/?view=single", HTTP_HX_REQUEST="true")
    assert partial.content.decode().lstrip().startswith('<section id="comparison"')
    assert "HX-Request" in partial["Vary"]


def test_duplicate_baseline_and_delete(client, manager):
    project = make_project(manager)
    first = make_scenario(project, is_baseline=True)
    client.post(f"/scenarios/{first.pk}/duplicate/")
    copy = project.scenarios.exclude(pk=first.pk).get()
    assert copy.name == f"Copy of {first.name}" and copy.inputs == first.inputs
    client.post(f"/scenarios/{copy.pk}/baseline/")
    first.refresh_from_db()
    copy.refresh_from_db()
    assert copy.is_baseline and not first.is_baseline
    client.post(f"/scenarios/{first.pk}/delete/")
    assert list(project.scenarios.all()) == [copy]


def test_comparing_two_scenarios_highlights_the_differences(client, manager):
    project = make_project(manager)
    pilot = make_scenario(project, name="Pilot")
    wider = make_scenario(project, name="Wider use")
    wider.inputs = {
        **wider.inputs,
        "inference": {**wider.inputs["inference"], "requests_per_month": 300_000},
    }
    wider.save()
    html = client.get(f"/projects/{project.pk}/compare/?s={pilot.pk}&s={wider.pk}").content.decode()
    assert "Scenarios side by side" in html
    assert html.count('class="differs"') >= 3
    one = client.get(f"/projects/{project.pk}/compare/?s={pilot.pk}").content.decode()
    assert "Choose two to four scenarios" in one


def test_confidential_data_on_rented_hosting_gets_a_plain_warning(client, manager):
    project = make_project(manager, classification="confidential")
    make_scenario(project)
    html = client.get(f"/projects/{project.pk}/").content.decode()
    assert "not approved for confidential data" in html
    project.classification = "public"
    project.save()
    assert "not approved" not in client.get(f"/projects/{project.pk}/").content.decode()


def test_scenario_page_runs_a_constant_number_of_queries(client, manager):
    project = make_project(manager)
    scenario = make_scenario(project)
    client.get(f"/scenarios/{scenario.pk}/")  # warm caches such as the content types
    with CaptureQueriesContext(connection) as small:
        assert client.get(f"/scenarios/{scenario.pk}/").status_code == 200
    for index in range(20):
        make_scenario(project, name=f"Variant {index}")
    other = make_project(manager, title="Another")
    for index in range(5):
        make_scenario(other, name=f"Other {index}")
    project.collaborators.add(make_manager("colleague"))
    with CaptureQueriesContext(connection) as large:
        assert client.get(f"/scenarios/{scenario.pk}/").status_code == 200
    assert len(large) == len(small)
    assert len(large) <= 10, [q["sql"] for q in large.captured_queries]


URLS = [
    ("get", "/projects/{project}/"),
    ("get", "/projects/{project}/edit/"),
    ("post", "/projects/{project}/edit/"),
    ("post", "/projects/{project}/scenarios/new/"),
    ("get", "/projects/{project}/compare/?s={scenario}"),
    ("get", "/scenarios/{scenario}/"),
    ("post", "/scenarios/{scenario}/"),
    ("post", "/scenarios/{scenario}/preview/"),
    ("post", "/scenarios/{scenario}/duplicate/"),
    ("post", "/scenarios/{scenario}/baseline/"),
    ("post", "/scenarios/{scenario}/delete/"),
]


@pytest.mark.parametrize(("method", "url"), URLS)
def test_another_manager_gets_404_on_every_page_of_someone_elses_project(client, method, url):
    owner = make_manager("owner")
    project = make_project(owner)
    scenario = make_scenario(project)
    intruder = make_manager("intruder")
    client.force_login(intruder)
    response = getattr(client, method)(url.format(project=project.pk, scenario=scenario.pk))
    assert response.status_code == 404
    assert Scenario.objects.filter(pk=scenario.pk, inputs=scenario.inputs).exists()
    assert project.title not in client.get("/projects/").content.decode()


def test_collaborators_edit_scenarios_but_not_the_project_details(client):
    owner = make_manager("owner")
    project = make_project(owner)
    scenario = make_scenario(project)
    colleague = make_manager("colleague")
    project.collaborators.add(colleague)
    client.force_login(colleague)
    assert client.get(f"/scenarios/{scenario.pk}/").status_code == 200
    response = client.post(f"/scenarios/{scenario.pk}/", scenario_post("Edited by a colleague"))
    assert response.status_code == 302
    assert client.get(f"/projects/{project.pk}/edit/").status_code == 403


def test_front_office_cannot_create_projects(client):
    user = make_manager("reviewer")
    user.groups.set([Group.objects.get_or_create(name="front office")[0]])
    client.force_login(user)
    assert client.get("/projects/new/").status_code == 403


def test_anonymous_visitors_are_sent_to_sign_in(client):
    response = client.get("/projects/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
