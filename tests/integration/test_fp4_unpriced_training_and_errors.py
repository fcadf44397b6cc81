"""Issue 20 through the API and the pages: FP4 where the accelerator has an FP4 peak (refused,
naming its precisions, where it has none); training without a price (V100: FLOP, hours, energy,
no cost, a note) in the estimate, the budget, the options and the scenario page; one message
per problem, naming the valid choices, in English and French."""

import json

import pytest

from apps.reviews.services import project_submit
from apps.sharing.services import share_link_create
from tests.factories import make_front_office, make_project, make_scenario, seed_000_inference
from tests.integration.test_exports import csv_figure, csv_rows, download
from tests.integration.test_project_pages import scenario_post

pytestmark = pytest.mark.django_db

# GPT-3 (175 B parameters, 300 B tokens) on V100s, which the catalogue has no rental price for.
GPT3 = {
    "method": "parameters_tokens",
    "parameters": 175e9,
    "tokens": 300e9,
    "accelerator": "nvidia-v100-sxm2",
    "precision": "fp16",
    "accelerator_count": 1024,
}
FLOP = {"method": "total_flop", "total_flop": 1e24}


def post(api_client, body, status=200, **headers):
    response = api_client.post("/api/v1/estimate/", body, format="json", **headers)
    assert response.status_code == status, response.content
    return response.json()


def test_fp4_on_a_b200_uses_its_fp4_peak_and_half_a_byte_per_weight(api_client):
    fp8 = post(api_client, {"training": {**FLOP, "accelerator": "nvidia-b200", "precision": "fp8"}})
    fp4 = post(api_client, {"training": {**FLOP, "accelerator": "nvidia-b200", "precision": "fp4"}})
    # 1e24 FLOP ÷ (9,000 TFLOP/s dense FP4 × the default MFU 0.25) ÷ 3,600.
    assert fp4["training"]["accelerator_hours"] == pytest.approx(1e24 / (9000e12 * 0.25) / 3600)
    assert fp4["training"]["accelerator_hours"] == pytest.approx(
        fp8["training"]["accelerator_hours"] / 2
    )
    serving = {
        "method": "tokens",
        "model": "llama-3.3-70b",
        "input_tokens": 1000,
        "output_tokens": 1000,
        "accelerator": "nvidia-b200",
        "precision": "fp4",
        "requests_per_month": 1_000_000,
    }
    data = post(api_client, {"inference": serving})
    # Llama 3.3 70B's 70 billion weights at half a byte each.
    assert data["inference"]["serving"]["weights_gb"] == pytest.approx(35.0, rel=0.01)


def test_fp4_is_refused_on_an_accelerator_without_it_naming_its_precisions(api_client):
    body = {"training": {**FLOP, "accelerator": "nvidia-h100-sxm", "precision": "fp4"}}
    errors = post(api_client, body, status=400)
    assert errors == {
        "training": {
            "precision": [
                "NVIDIA H100 SXM cannot compute in fp4: the catalogue has no published dense fp4 "
                "peak for it. Choose one of its precisions: fp32, tf32, bf16, fp16, fp8, int8."
            ]
        }
    }
    french = post(api_client, body, status=400, HTTP_ACCEPT_LANGUAGE="fr")
    assert (
        "Choisissez l’une de ses précisions\u00a0: fp32, tf32" in french["training"]["precision"][0]
    )


def test_an_unknown_accelerator_is_one_message(api_client):
    body = {"training": {**FLOP, "accelerator": "nvidia-h100-sxmx"}}
    assert post(api_client, body, status=400) == {
        "training": {
            "accelerator": [
                "No accelerator 'nvidia-h100-sxmx' in the catalogue. Did you mean "
                "'nvidia-h100-sxm', 'nvidia-h800-sxm', 'nvidia-h200-sxm'?"
            ]
        }
    }
    serving = {
        **seed_000_inference(15_000),
        "method": "tokens",
        "parameters": 8e9,
        "input_tokens": 100,
        "output_tokens": 100,
        "accelerator": "nvidia-h100-sxmx",
    }
    errors = post(api_client, {"inference": serving}, status=400)
    assert list(errors["inference"]) == ["accelerator"]
    assert len(errors["inference"]["accelerator"]) == 1


def test_an_unknown_choice_names_the_valid_ones_in_english_and_french(api_client):
    body = {
        "training": {**FLOP, "accelerator": "nvidia-b200", "precision": "fp2", "method": "guess"},
        "inference": {**seed_000_inference(15_000), "provisioning": "sometimes"},
    }
    errors = post(api_client, body, status=400)
    assert errors["training"]["precision"] == [
        '"fp2" is not a valid choice; choose one of: fp32, tf32, bf16, fp16, fp8, int8, fp4.'
    ]
    assert errors["training"]["method"] == [
        '"guess" is not a valid choice; choose one of: parameters_tokens, total_flop, '
        "accelerator_hours, api_fine_tune."
    ]
    assert errors["inference"]["provisioning"] == [
        '"sometimes" is not a valid choice; choose one of: pay_per_use, always_on, committed.'
    ]
    french = post(api_client, body, status=400, HTTP_ACCEPT_LANGUAGE="fr")
    assert french["inference"]["provisioning"] == [
        "«\u00a0sometimes\u00a0» n’est pas un choix valide\u202f; choisissez parmi\u00a0: "
        "pay_per_use, always_on, committed."
    ]


def test_training_without_a_price_gives_its_figures_and_a_null_cost_with_a_note(api_client):
    training = post(api_client, {"training": GPT3})["training"]
    assert training["flop"] == 3.15e23
    assert training["accelerator_hours"] == pytest.approx(3.15e23 / (125e12 * 0.25) / 3600)
    assert training["wall_clock_hours"] == pytest.approx(training["accelerator_hours"] / 1024)
    assert training["energy_kwh"] > 0 and training["emissions_kg_co2e"] > 0
    assert training["cost"] is None
    assert training["cost_note"].startswith("Not priced: no price per accelerator-hour was given")
    assert (
        "The catalogue has no rental price for NVIDIA V100 SXM2: the training is not priced."
        in training["assumptions"]
    )
    french = post(api_client, {"training": GPT3}, HTTP_ACCEPT_LANGUAGE="fr")["training"]
    assert french["cost"] is None


@pytest.fixture
def unpriced(owner):
    project = make_project(owner, "GPT-3 replay")
    return make_scenario(
        project,
        "Replay",
        inputs={"training": GPT3, "inference": seed_000_inference(15_000)},
        is_baseline=True,
    )


def test_the_budget_and_the_options_of_unpriced_training_say_so(client, owner, unpriced):
    client.force_login(owner)
    budget = client.get(f"/api/v1/scenarios/{unpriced.pk}/budget/")
    assert budget.status_code == 200
    kinds = [line["kind"] for line in budget.json()["lines"]]
    assert "training_compute" not in kinds and "inference_compute" in kinds
    assert any(
        note.startswith("Training compute is not in the budget: the training is not priced")
        for note in budget.json()["notes"]
    )
    options = client.get(f"/api/v1/scenarios/{unpriced.pk}/options/?options=rent_pay_per_use,build")
    assert options.status_code == 200, options.content
    data = options.json()
    assert [option["key"] for option in data["options"]] == ["rent_pay_per_use"]
    assert data["unavailable"]["build"]["training.price_per_accelerator_hour"][0].startswith(
        "Not priced"
    )


def test_the_scenario_page_shows_unpriced_training_in_both_languages(client, owner, unpriced):
    client.force_login(owner)
    html = client.get(f"/scenarios/{unpriced.pk}/").content.decode()
    assert "Not priced: no price per accelerator-hour was given" in html
    assert "of training, once; not priced: no price is known" in html
    assert "Training compute is not in the budget" in html
    french = client.get(f"/scenarios/{unpriced.pk}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Non chiffré\u00a0: aucun prix par heure-accélérateur" in french
    assert "Le catalogue n’a pas de prix de location pour NVIDIA V100 SXM2" in french
    assert "Not priced" not in french


@pytest.mark.parametrize("export_format", ["csv", "xlsx", "pdf", "json"])
def test_unpriced_training_exports_without_a_cost(owner, unpriced, export_format):
    content = download(owner, "scenario", unpriced, export_format, "page")
    if export_format == "csv":
        rows = csv_rows(content)
        assert csv_figure(rows, "Replay", "training.cost") == ""
        assert csv_figure(rows, "Replay", "training.accelerator_hours") != ""
    elif export_format == "json":
        (exported,) = json.loads(content)["project"]["scenarios"]
        assert exported["results"]["training"]["cost"] is None
    else:
        assert content


def test_unpriced_training_is_shown_on_the_compare_share_and_review_pages(client, owner, unpriced):
    priced = make_scenario(unpriced.project, "Priced")
    client.force_login(owner)
    compare = client.get(f"/projects/{unpriced.project.pk}/compare/?s={unpriced.pk}&s={priced.pk}")
    assert compare.status_code == 200
    version = unpriced.versions.get(number=unpriced.version)
    _, token = share_link_create(subject=version, user=owner, label="Board")
    shared = client.get(f"/s/{token}/").content.decode()
    assert "Not priced: no price per accelerator-hour was given" in shared
    project_submit(project=unpriced.project, user=owner)
    client.force_login(make_front_office("fiona"))
    assert client.get(f"/reviews/{unpriced.project.pk}/").status_code == 200
    assert client.get("/portfolio/").status_code == 200


def test_the_form_refuses_fp4_at_the_field_where_the_accelerator_lacks_it(client, owner, unpriced):
    client.force_login(owner)
    page = client.get(f"/scenarios/{unpriced.pk}/").content.decode()
    # V100s and H100s have no FP4 peak: the form does not offer it (test_precision_choices.py).
    assert '<option value="fp4"' not in page
    refused = client.post(
        f"/scenarios/{unpriced.pk}/",
        scenario_post(inference_precision="fp4", inference_accelerator="nvidia-h100-sxm"),
    ).content.decode()
    assert (
        "NVIDIA H100 SXM cannot compute in fp4: the catalogue has no published dense fp4 peak "
        "for it. Choose one of its precisions: fp32, tf32, bf16, fp16, fp8, int8."
    ) in refused
    saved = client.post(
        f"/scenarios/{unpriced.pk}/",
        scenario_post(inference_precision="fp4", inference_accelerator="nvidia-b200"),
    )
    assert saved.status_code == 302
    unpriced.refresh_from_db()
    assert unpriced.inputs["inference"]["precision"] == "fp4"


def test_unpriced_training_with_ranges_draws_its_budget_options_and_page(client, owner):
    project = make_project(owner, "GPT-3 ranges")
    inputs = {
        "training": GPT3,
        "inference": seed_000_inference(15_000),
        "ranges": {"training.tokens": {"low": 2e11, "high": 4e11}},
        "uncertainty": {"samples": 1000, "seed": 0},
    }
    scenario = make_scenario(project, "Ranged", inputs=inputs, is_baseline=True)
    client.force_login(owner)
    estimate = client.get(f"/api/v1/scenarios/{scenario.pk}/estimate/").json()
    figures = estimate["uncertainty"]["figures"]
    assert "training.accelerator_hours" in figures
    assert figures.get("training.cost") is None
    budget = client.get(f"/api/v1/scenarios/{scenario.pk}/budget/")
    assert budget.status_code == 200, budget.content
    assert "training_compute" not in [line["kind"] for line in budget.json()["lines"]]
    for page in ("", "budget/", "options/"):
        response = client.get(f"/scenarios/{scenario.pk}/{page}")
        assert response.status_code == 200, page
    options = client.get(f"/api/v1/scenarios/{scenario.pk}/options/")
    assert options.status_code == 200, options.content
