"""The plan-against-actual page: tables, chart data, upload without JavaScript, rules, a month
by hand, the templates in both languages, and who may see it."""

from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from apps.actuals import tasks
from apps.actuals.models import ActualAmount, MappingRule
from apps.actuals.runs import actuals_import_run
from apps.reviews.services import project_submit
from tests.actuals_worlds import baseline_project
from tests.factories import make_front_office, make_manager

pytestmark = pytest.mark.django_db


@pytest.fixture
def project(owner):
    return baseline_project(owner)


def page(project) -> str:
    return f"/projects/{project.pk}/actuals/"


def test_a_bill_uploaded_by_the_form_shows_its_result_and_the_variance(
    browser, project, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(
        tasks.actuals_import_task, "delay", lambda pk: actuals_import_run(import_id=pk)
    )
    bill = b"month,kind,amount,currency\n2026-01,storage,300,USD\n2026-02,storage,200,USD\n"
    with django_capture_on_commit_callbacks(execute=True):
        answer = browser.post(
            f"{page(project)}upload/", {"file": SimpleUploadedFile("bill.csv", bill)}
        )
    assert answer.status_code == 302 and "?import=" in answer["Location"]
    shown = browser.get(answer["Location"]).content.decode()
    assert "Done: 2 rows read, 2 matched, 0 unmatched" in shown
    assert "3,000.00" in shown  # the year's storage plan: 12 × 250.00
    assert "500.00" in shown  # spent to February
    assert 'id="actuals-chart-data"' in shown
    assert "has been spent against" in shown


def test_a_refused_bill_lists_its_rows(
    browser, project, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(
        tasks.actuals_import_task, "delay", lambda pk: actuals_import_run(import_id=pk)
    )
    bill = b"month,kind,amount,currency\n2026-01,storage,abc,USD\n"
    with django_capture_on_commit_callbacks(execute=True):
        answer = browser.post(
            f"{page(project)}upload/", {"file": SimpleUploadedFile("bill.csv", bill)}
        )
    shown = browser.get(answer["Location"]).content.decode()
    assert "Refused: 1 row is wrong" in shown
    assert "amount is not a number." in shown


def test_rules_and_a_month_by_hand_are_saved_from_the_page(browser, project):
    browser.post(
        f"{page(project)}rules/",
        {"column": "ServiceName", "value": "Amazon S3", "kind": "storage"},
    )
    rule = MappingRule.objects.get(project=project)
    assert (rule.column, rule.kind, rule.position) == ("ServiceName", "storage", 0)
    browser.post(f"{page(project)}enter/", {"month": "2026-03", "kind": "staff", "amount": "99.50"})
    entered = ActualAmount.objects.get(project=project, kind="staff")
    assert (entered.month, str(entered.amount)) == (date(2026, 3, 1), "99.500000")
    browser.post(f"{page(project)}rules/{rule.pk}/delete/")
    assert not MappingRule.objects.filter(project=project).exists()


def test_the_templates_come_in_english_and_french(client):
    english = client.get("/actuals/template-en.csv").content.decode()
    french = client.get("/actuals/template-fr.csv").content.decode()
    assert english.startswith("month,kind,amount,currency,quantity,unit\n")
    assert french.startswith("mois,nature,montant,devise,quantité,unité\n")
    assert client.get("/actuals/template-de.csv").status_code == 404


def test_the_front_office_reads_the_page_of_a_workplan_in_review_without_its_forms(owner, project):
    front = Client()
    front.force_login(make_front_office("front"))
    assert front.get(page(project)).status_code == 404
    project_submit(project=project, user=owner)
    shown = front.get(page(project)).content.decode()
    assert "By fiscal year" in shown and "Import a bill" not in shown
    stranger = Client()
    stranger.force_login(make_manager("someone"))
    assert stranger.get(page(project)).status_code == 404
