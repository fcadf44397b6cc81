"""Plan against actual in headless Chromium, in English and French: a manager uploads a bill by
the page's form, sees it imported and the variance, adds a rule and a month by hand, and sets
the alert thresholds (a refused value shown beside its field); the page has no horizontal
overflow and axe finds no WCAG 2.2 AA violation at 1280 and 390 px."""

import re

import pytest
from playwright.sync_api import Page, expect

from apps.actuals import tasks
from apps.actuals.runs import actuals_import_run
from tests.actuals_worlds import baseline_project
from tests.browser.conftest import (
    LANGUAGE_CONTEXTS,
    assert_no_axe_violations_at_each_width,
    languages_each_at_a_width,
    login,
)
from tests.factories import make_manager

pytestmark = pytest.mark.browser

PASSWORD = "a-long-test-password"
WORDS = {
    "en": {"file": "Billing file", "import": "Import", "done": "Done: 2 rows read",
           "column": "Column", "value": "Value", "add": "Add rule", "month": "Month",
           "amount": "Amount", "save": "Save actual", "saved": "Actual saved.",
           "thresholds": "Alert thresholds", "save_thresholds": "Save thresholds",
           "bad_threshold": "Each threshold is from 1 % to 500 %",
           "thresholds_saved": "Alert thresholds saved."},
    "fr": {"file": "Fichier de facturation", "import": "Importer",
           "done": "Terminé : 2 lignes lues", "column": "Colonne", "value": "Valeur",
           "add": "Ajouter la règle", "month": "Mois", "amount": "Montant",
           "save": "Enregistrer le réalisé", "saved": "Réalisé enregistré.",
           "thresholds": "Seuils d’alerte", "save_thresholds": "Enregistrer les seuils",
           "bad_threshold": "Chaque seuil va de 1\u00a0% à 500\u00a0%",
           "thresholds_saved": "Seuils d’alerte enregistrés."},
}  # fmt: skip
BILL = b"month,kind,amount,currency\n2026-01,storage,300,USD\n2026-02,storage,200,USD\n"


@pytest.fixture
def project(settings, monkeypatch):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    # The import runs in the server's process as its commit queues it, as under `make run`.
    monkeypatch.setattr(
        tasks.actuals_import_task, "delay", lambda pk: actuals_import_run(import_id=pk)
    )
    owner = make_manager("maria", PASSWORD)
    return baseline_project(owner)


def checked(page: Page, where: str, language: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", re.compile(rf"^{language}"))
    assert_no_axe_violations_at_each_width(page, where, fits=True)


@languages_each_at_a_width("en", "fr")
def test_a_manager_imports_a_bill_and_reads_plan_against_actual(
    new_page, live_server, project, language, viewport
):
    words = WORDS[language]
    page = new_page(**LANGUAGE_CONTEXTS[language])
    url = f"/projects/{project.pk}/actuals/"
    login(page, live_server, "maria", PASSWORD, next_path=url)
    checked(page, f"plan against actual, empty ({language})", language)

    upload = page.locator("#upload form")
    upload.get_by_label(words["file"]).set_input_files(
        {"name": "bill.csv", "mimeType": "text/csv", "buffer": BILL}
    )
    upload.get_by_role("button", name=words["import"], exact=True).click()
    expect(page.locator("#import [role=status]")).to_contain_text(words["done"])
    expect(page.locator("#years-caption + thead + tbody")).to_contain_text("3")
    checked(page, f"plan against actual after an import ({language})", language)

    rules = page.locator("#rules form").last
    rules.get_by_label(words["column"]).fill("ServiceName")
    rules.get_by_label(words["value"]).fill("Amazon S3")
    rules.get_by_role("button", name=words["add"]).click()
    expect(page.locator("ol.rules")).to_contain_text("ServiceName")

    by_hand = page.locator("#by-hand form")
    by_hand.get_by_label(words["month"]).fill("2026-03")
    by_hand.get_by_label(words["amount"]).fill("150")
    by_hand.get_by_role("button", name=words["save"]).click()
    expect(page.get_by_text(words["saved"])).to_be_visible()
    checked(page, f"plan against actual with a rule and a month by hand ({language})", language)

    thresholds = page.locator("#thresholds form")
    thresholds.get_by_label(words["thresholds"]).fill("0, 80")
    thresholds.get_by_role("button", name=words["save_thresholds"]).click()
    field = page.locator("#thresholds .form-field-error")
    expect(field).to_contain_text(words["bad_threshold"])
    expect(field.get_by_label(words["thresholds"])).to_have_value("0, 80")
    checked(page, f"alert thresholds refused ({language})", language)
    page.locator("#thresholds form").get_by_label(words["thresholds"]).fill("75, 100")
    page.locator("#thresholds form").get_by_role("button", name=words["save_thresholds"]).click()
    expect(page.get_by_text(words["thresholds_saved"])).to_be_visible()
    expect(page.locator("#thresholds form").get_by_label(words["thresholds"])).to_have_value(
        "75, 100"
    )
