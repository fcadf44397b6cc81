"""Alert thresholds per project, on the plan-against-actual page (a form whose errors show
beside its fields, without JavaScript) and through the API; and the rates an import in another
currency used, on the page and in the API."""

from datetime import date
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from apps.actuals import tasks
from apps.actuals.models import Alert, AlertThresholds
from apps.actuals.runs import actuals_import_run
from apps.actuals.services import actual_enter
from tests.actuals_worlds import baseline_project
from tests.factories import load_ecb, make_manager
from tests.integration.test_api_projects import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def project(owner):
    return baseline_project(owner)


def url(project) -> str:
    return f"/api/v1/projects/{project.pk}/actuals/thresholds/"


def test_the_api_gives_the_defaults_then_changes_and_keeps_them(owner, project):
    api = client_for(owner)
    assert api.get(url(project)).json() == {
        "percentages": [80, 100],
        "on_actual": True,
        "on_forecast": True,
    }
    changed = api.patch(url(project), {"percentages": [100, 50, 50]}, format="json")
    assert changed.status_code == 200
    assert changed.json() == {"percentages": [50, 100], "on_actual": True, "on_forecast": True}
    api.patch(url(project), {"on_forecast": False}, format="json")
    kept = AlertThresholds.objects.get(project=project)
    assert (kept.percentages, kept.on_actual, kept.on_forecast) == ([50, 100], True, False)


@pytest.mark.parametrize(
    "body",
    [
        {"percentages": []},
        {"percentages": [0]},
        {"percentages": [501]},
        {"percentages": [10, 20, 30, 40, 50, 60]},
        {"percentages": ["80"]},
        {"on_actual": "yes"},
    ],
)
def test_the_api_refuses_thresholds_out_of_bounds_by_field(owner, project, body):
    answer = client_for(owner).patch(url(project), body, format="json")
    assert answer.status_code == 400
    assert set(answer.json()) <= {"percentages", "on_actual", "on_forecast", "detail", "errors"}
    assert not AlertThresholds.objects.filter(project=project).exists()


def test_lowering_a_threshold_raises_the_alert_it_now_crosses(owner, project):
    actual_enter(project=project, month=date(2026, 1, 1), kind="storage", amount=Decimal(1000))
    api = client_for(owner)
    api.patch(url(project), {"percentages": [20]}, format="json")  # 1,000 of 3,873.56
    assert Alert.objects.filter(project=project, basis="actual", threshold="0.20").exists()


def test_strangers_get_404(project):
    stranger = client_for(make_manager("stranger"))
    assert stranger.get(url(project)).status_code == 404
    assert stranger.patch(url(project), {"percentages": [50]}, format="json").status_code == 404


def test_the_page_form_saves_the_thresholds(browser, project):
    shown = browser.get(f"/projects/{project.pk}/actuals/").content.decode()
    assert 'value="80, 100"' in shown
    answer = browser.post(
        f"/projects/{project.pk}/actuals/thresholds/",
        {"percentages": "90 %, 70", "on_forecast": "on"},
    )
    assert answer.status_code == 302 and answer["Location"].endswith("#thresholds")
    kept = AlertThresholds.objects.get(project=project)
    assert (kept.percentages, kept.on_actual, kept.on_forecast) == ([70, 90], False, True)


@pytest.mark.parametrize(
    ("given", "error"),
    [
        ("eighty", "Write whole percentages separated by commas"),
        ("0, 80", "Each threshold is from 1 % to 500 %"),
        ("10, 20, 30, 40, 50, 60", "Give from one to 5 thresholds."),
        ("", "This field is required."),
    ],
)
def test_a_refused_threshold_shows_its_error_beside_the_field(browser, project, given, error):
    answer = browser.post(
        f"/projects/{project.pk}/actuals/thresholds/", {"percentages": given, "on_actual": "on"}
    )
    assert answer.status_code == 400
    shown = answer.content.decode()
    field = shown[shown.index('id="thresholds"') :]
    field = field[: field.index("</form>")]
    assert error in field
    assert 'aria-invalid="true"' in field
    assert f'value="{given}"' in field or not given
    assert not AlertThresholds.objects.filter(project=project).exists()


def test_an_import_in_euros_says_which_rates_it_used(
    owner, browser, project, monkeypatch, django_capture_on_commit_callbacks
):
    load_ecb()
    monkeypatch.setattr(
        tasks.actuals_import_task, "delay", lambda pk: actuals_import_run(import_id=pk)
    )
    bill = b"month,kind,amount,currency\n2025-05-31,storage,100,EUR\n2025-06-02,storage,10,EUR\n"
    with django_capture_on_commit_callbacks(execute=True):
        answer = browser.post(
            f"/projects/{project.pk}/actuals/upload/",
            {"file": SimpleUploadedFile("bill.csv", bill)},
        )
    shown = browser.get(answer["Location"]).content.decode()
    assert "converted at 2 rates" in shown
    assert (
        "1 EUR = 1.1339 USD (ECB reference rate of 30 May 2025, the last before 31 May 2025)"
        in shown
    )
    assert "1 EUR = 1.1419 USD (ECB reference rate of 2 June 2025)" in shown
    record_id = answer["Location"].split("import=")[1].split("#")[0]
    rates = (
        client_for(owner)
        .get(f"/api/v1/projects/{project.pk}/actuals/imports/{record_id}/")
        .json()["exchange_rates"]
    )
    assert rates[0] == {
        "from": "EUR",
        "to": "USD",
        "rate": "1.1339",
        "date": "2025-05-30",
        "asked": "2025-05-31",
        "source": "ecb",
        "pegged": [],
    }
