"""The manager's flow in French, in headless Chromium: a manager switches to French with the
language switcher (kept on their account across sign-out and sign-in), plans a project from a
preset, types numbers the French way (decimal comma; groups split by U+202F, U+00A0 or a space)
and sees the live figures in French, gets a French error beside a bad field with nothing lost,
saves, gives ranges, adds a cost line, opens the decision view, downloads a French CSV, compares
scenarios and submits the project. Every page says <html lang="fr" dir="ltr"> and axe finds no
WCAG 2.2 AA violation, at 1280 and at 390 px; the form is also saved with JavaScript off.

Engine text (calculation notes, budget line names and bases, engine validation errors) is being
translated separately: no assertion here depends on it."""

import csv
import io
import re
from pathlib import Path

import pytest
from django.utils import translation
from playwright.sync_api import Locator, Page, expect

from apps.accounts.language import language_preference
from apps.apiprices.loading import api_prices_load
from apps.budget.models import CostLine
from apps.projects.models import Project
from apps.projects.presets import PRESETS_BY_SLUG
from tests.browser.conftest import (
    assert_no_axe_violations_at_each_width,
    live_preview,
    login,
    reveal,
)
from tests.browser.test_ranges import range_summary
from tests.factories import make_manager, make_project, make_scenario

PASSWORD = "a-long-test-password"
FINE_TUNE = PRESETS_BY_SLUG["fine-tune-7b"]
TRANSLATION = PRESETS_BY_SLUG["translation-assistant"]
NNBSP, NBSP = "\u202f", "\u00a0"
REQUESTS = "Demandes le premier mois"
SCENARIO_URL = re.compile(r"/scenarios/(\d+)/(\?view=many)?$")
CSV_HEADERS = ["scénario", "section", "indicateur", "valeur", "unité", "mois", "champ"]


def french(text) -> str:
    """A lazy string (a preset's name) as the French pages show it."""
    with translation.override("fr"):
        return str(text)


@pytest.fixture
def manager(settings, real_catalogue):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    api_prices_load()  # the decision view's external APIs
    return make_manager("maria", PASSWORD)


def in_french(page: Page, where: str) -> None:
    """The page is French, left to right, axe clean and no wider than the screen, at 1280 and
    at 390 px (the page resized in place, then back to the flow's width)."""
    html = page.locator("html")
    expect(html).to_have_attribute("lang", "fr")
    expect(html).to_have_attribute("dir", "ltr")
    assert_no_axe_violations_at_each_width(page, where, fits=True)


def field(scope: Page | Locator, label: str) -> Locator:
    """A form field by its whole label (Django's French labels end with " :")."""
    # Folded under "More assumptions" or not, the field is brought into view first.
    return reveal(scope.get_by_label(re.compile(rf"^{re.escape(label)}(\s?:)?$")))


def figure(page: Page, term: str) -> Locator:
    """The value of a figure of the two-column comparison, found by its term."""
    term_pattern = re.compile(rf"^{re.escape(term)}(\s+Qu’est-ce que c’est\s?\?.*)?$", re.S)
    return (
        page.locator("#comparison .figures > div")
        .filter(has=page.locator("dt", has_text=term_pattern))
        .locator("dd")
    )


def messages(page: Page) -> Locator:
    return page.locator("main > .messages")


def click_and_load(page: Page, locator: Locator) -> None:
    with page.expect_navigation():
        locator.click()


def switch_to_french(page: Page, manager) -> None:
    """The switcher in the header (a plain form) turns the page French and stores the choice
    on the account."""
    expect(page.locator("html")).to_have_attribute("lang", re.compile(r"^en"))
    page.get_by_label("Language", exact=True).select_option("fr")
    click_and_load(page, page.get_by_role("button", name="Change language"))
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert language_preference(manager) == "fr"


def sign_out_and_in_again(page: Page, live_server) -> None:
    """A new sign-in, without the switcher's cookie and with an English browser, opens in
    French: the choice is the account's."""
    navigation = page.get_by_role("navigation", name="Navigation principale")
    click_and_load(page, navigation.get_by_role("button", name="Se déconnecter"))
    page.context.clear_cookies()  # neither the session nor the switcher's cookie is left
    page.goto("/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", re.compile(r"^en"))
    login(page, live_server, "maria", PASSWORD, next_path="/projects/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_label("Langue")).to_have_value("fr")


def create_project(page: Page) -> None:
    """The quick start in French, then the title and unit on the project's settings page."""
    page.get_by_role("link", name="Planifier un nouveau projet").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Planifier un nouveau projet")
    page.get_by_label(french(FINE_TUNE.name), exact=True).check()
    page.get_by_label("Des accélérateurs loués", exact=True).check()
    click_and_load(page, page.get_by_role("button", name="Créer le projet"))
    expect(page).to_have_url(SCENARIO_URL)
    expect(messages(page)).to_contain_text(
        f"Projet « {french(FINE_TUNE.name)} » créé avec un premier scénario, son budget et sa "
        "vue de décision."
    )
    expect(page.get_by_role("heading", level=1)).to_have_text(f"{french(FINE_TUNE.name)} Référence")
    scenario_url = page.url
    page.get_by_role("navigation", name="Fil d’Ariane").get_by_role("link").nth(1).click()
    page.get_by_role("link", name=re.compile("^Paramètres du projet")).click()
    in_french(page, "the project's settings")
    field(page, "Titre").fill("Assistant juridique")
    field(page, "Unité administrative").fill("Section des affaires juridiques")
    click_and_load(page, page.get_by_role("button", name="Enregistrer le projet"))
    expect(messages(page)).to_have_text("Projet enregistré.")
    expect(page.get_by_role("heading", level=1)).to_have_text("Assistant juridique")
    page.goto(scenario_url)


def type_french_numbers(page: Page) -> None:
    """Numbers typed as French writes them update the figures in place, in French."""
    first_month = figure(page, "Premier mois")
    expect(first_month).to_contain_text(f"100{NNBSP}000 demandes")
    with live_preview(page):
        field(page, REQUESTS).fill(f"1{NNBSP}234{NNBSP}567,5")
    expect(page.locator("#live-status")).to_have_text("Chiffres mis à jour.")
    expect(first_month).to_contain_text("1,23 million de demandes")
    expect(figure(page, "Sur 12 mois")).to_contain_text("14,8 millions de demandes")
    with live_preview(page):
        field(page, "Jetons d’entraînement").fill("20 000 000 000")  # plain spaces
    expect(figure(page, "Calcul d’entraînement")).to_contain_text(re.compile(r"8,4\s×\s10²⁰ FLOP"))
    with live_preview(page):
        field(page, "Jetons en sortie par demande").fill(f"1{NBSP}000")
    with live_preview(page):
        field(page, "Recette par demande (USD)").fill("0,0005")
    expect(figure(page, "Marge brute")).to_contain_text(re.compile(rf"^\d+(,\d+)?{NBSP}%$"))
    # The exact values, in the formulas' details, are grouped with U+202F.
    exact = page.locator("#comparison .column-inference .exact")
    expect(exact).to_contain_text(f"14{NNBSP}814{NNBSP}810 demandes")
    expect(exact).not_to_contain_text(re.compile(r"\d\.\d"))  # no decimal point in French


def bad_field_then_save(page: Page) -> None:
    """A bad value is a French error beside its field; nothing typed is lost; then it saves."""
    horizon = field(page, "Horizon de planification (mois)")
    horizon.fill("douze")
    click_and_load(page, page.get_by_role("button", name="Enregistrer le scénario"))
    expect(page).to_have_title(re.compile(r"^Erreur\s:\s"))
    summary = page.locator(".error-summary")
    expect(summary.get_by_role("heading")).to_have_text("Il y a un problème")
    beside = page.locator(".form-field-error", has=horizon)
    expect(beside.locator(".errorlist")).to_have_text(re.compile(r"^Saisissez un nombre"))
    expect(horizon).to_have_value("douze")
    expect(field(page, REQUESTS)).to_have_value(f"1{NNBSP}234{NNBSP}567,5")
    expect(field(page, "Jetons d’entraînement")).to_have_value("20 000 000 000")
    expect(field(page, "Recette par demande (USD)")).to_have_value("0,0005")
    in_french(page, "the scenario with an error")
    summary.get_by_role("link", name=re.compile(r"^Horizon de planification")).click()
    expect(horizon).to_be_focused()

    horizon.fill("12")
    click_and_load(page, page.get_by_role("button", name="Enregistrer le scénario"))
    expect(messages(page)).to_have_text("Scénario enregistré.")
    expect(field(page, REQUESTS)).to_have_value("1234567.5")  # machine values once saved
    expect(field(page, "Jetons en sortie par demande")).to_have_value("1000")
    expect(field(page, "Recette par demande (USD)")).to_have_value("0.0005")


def add_ranges(page: Page) -> None:
    summary = reveal(range_summary(page, REQUESTS))
    expect(summary).to_have_text(
        f"Ajouter une fourchette pour {REQUESTS} (entre … et …, avec 90{NBSP}% de certitude)"
    )
    summary.click()
    group = page.get_by_role(
        "group", name=re.compile(rf"^{re.escape(REQUESTS)} : je suis sûr à 90 %")
    )
    group.get_by_label("Bas").fill(f"1{NBSP}000{NBSP}000")
    with live_preview(page):
        group.get_by_label("Haut").fill("1 500 000,5")
    ranges = page.get_by_role("region", name=re.compile(r"certitude : \w+ à 90 %"))
    expect(ranges).to_contain_text("9 chances sur 10")
    click_and_load(page, page.get_by_role("button", name="Enregistrer le scénario"))
    expect(messages(page)).to_have_text("Scénario enregistré.")
    expect(ranges).to_contain_text("9 chances sur 10")
    expect(group.get_by_label("Bas")).to_have_value("1000000")
    expect(summary).to_have_text(
        f"Fourchette pour {REQUESTS}{NBSP}: entre 1 million et 1,5 million de demandes"
    )


def add_cost_line(page: Page) -> None:
    page.get_by_role("link", name="Le budget sur sa propre page").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Budget")
    in_french(page, "the budget page")
    page.get_by_role("navigation", name="Ajouter une ligne à partir d’un modèle").get_by_role(
        "link", name="Personnel"
    ).click()
    form = page.locator("main form", has=page.get_by_role("button", name="Ajouter la ligne"))
    field(form, "Nom").fill("Deux juristes")
    field(form, "Quantité").fill("2")
    field(form, "Prix unitaire").fill(f"80{NNBSP}000,50")
    field(form, "Début").fill("2027-01-01")
    in_french(page, "the cost line form")
    form.get_by_role("button", name="Ajouter la ligne").click()
    expect(page.get_by_role("status").filter(has_text="« Deux juristes » ajouté ;")).to_be_visible()
    row = page.locator(".budget-table tr", has_text="Deux juristes")
    expect(row).to_contain_text(f"160{NNBSP}001,00{NBSP}$US")
    assert CostLine.objects.get().name == "Deux juristes"
    in_french(page, "the budget with a cost line")


def open_decision_view(page: Page, scenario_path: str) -> None:
    page.goto(scenario_path)
    page.get_by_role("link", name=re.compile(r"^Comparer les options")).click()
    expect(
        page.get_by_role("heading", level=2, name="La moins chère en valeur actuelle nette")
    ).to_be_visible()
    expect(page.get_by_role("table", name="Les options comparées")).to_be_visible()
    expect(page.get_by_text(re.compile(r"taux d’actualisation de 3,5\s%"))).to_be_visible()
    in_french(page, "the decision view")


def download_csv(page: Page, scenario_path: str) -> None:
    page.goto(scenario_path)
    downloads = page.locator("p.downloads")
    expect(downloads).to_contain_text("Télécharger ce scénario :")
    with page.expect_download() as download:
        downloads.get_by_role("link", name="CSV", exact=True).click()
    text = Path(download.value.path()).read_text(encoding="utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == CSV_HEADERS
    sections = {row[1] for row in rows[1:]}
    assert {"Scénario", "Données"} <= sections, sections
    thresholds = [row[2] for row in rows if row[2].startswith("Seuil")]
    assert any("Règlement européen sur l’IA" in name for name in thresholds), thresholds


def compare_scenarios(page: Page) -> None:
    page.get_by_role("navigation", name="Fil d’Ariane").get_by_role("link").nth(1).click()
    expect(page.get_by_role("heading", name="Ajouter un scénario")).to_be_visible()
    in_french(page, "the project page")
    page.get_by_label("Partir de").select_option(label=french(TRANSLATION.name))
    click_and_load(page, page.get_by_role("button", name="Ajouter le scénario"))
    expect(page.get_by_role("heading", level=1)).to_have_text(french(TRANSLATION.name))
    page.get_by_role("navigation", name="Fil d’Ariane").get_by_role("link").nth(1).click()
    page.get_by_label(f"Comparer {french(FINE_TUNE.name)}").check()
    page.get_by_label(f"Comparer {french(TRANSLATION.name)}").check()
    page.get_by_role("button", name="Comparer les scénarios choisis").click()
    table = page.get_by_role("table", name="Les scénarios côte à côte")
    expect(table.get_by_role("columnheader")).to_have_text(
        ["Chiffre", french(FINE_TUNE.name), french(TRANSLATION.name)]
    )
    expect(table.locator("td.differs").first).to_be_visible()
    in_french(page, "the comparison of scenarios")


def submit_for_review(page: Page) -> None:
    page.get_by_role("navigation", name="Fil d’Ariane").get_by_role("link").nth(1).click()
    click_and_load(page, page.get_by_role("button", name="Soumettre pour examen"))
    expect(messages(page)).to_contain_text("est soumis pour examen")
    assert Project.objects.get().status == "submitted"
    in_french(page, "the project once submitted")


@pytest.mark.parametrize("viewport", ["phone"], indirect=True, ids=["phone-390x844"])
def test_a_manager_plans_a_project_in_french(page: Page, live_server, manager) -> None:
    """The whole flow once, typed and clicked at 390 px, the narrower and harder width; every
    page on the way is audited at 1280 px as well (in_french resizes it in place). The flow ran
    at each width before, the second run repeating every step for the sake of its audits."""
    login(page, live_server, "maria", PASSWORD, next_path="/projects/")
    switch_to_french(page, manager)
    expect(page.get_by_role("heading", level=1)).to_have_text("Vos projets")
    sign_out_and_in_again(page, live_server)
    in_french(page, "the project list")
    create_project(page)
    scenario_path = SCENARIO_URL.search(page.url).group(0)
    type_french_numbers(page)
    in_french(page, "the scenario with live figures")
    bad_field_then_save(page)
    add_ranges(page)
    in_french(page, "the scenario with ranges")
    add_cost_line(page)
    open_decision_view(page, scenario_path)
    download_csv(page, scenario_path)
    compare_scenarios(page)
    submit_for_review(page)


def test_the_scenario_form_saves_in_french_without_javascript(
    page_no_js: Page, live_server, manager
) -> None:
    page = page_no_js
    project = make_project(manager, "Assistant juridique")
    scenario = make_scenario(
        project, french(FINE_TUNE.name), inputs=FINE_TUNE.inputs, is_baseline=True
    )
    login(page, live_server, "maria", PASSWORD, next_path=f"/scenarios/{scenario.pk}/")
    switch_to_french(page, manager)
    first_month = figure(page, "Premier mois")
    expect(first_month).to_contain_text(f"100{NNBSP}000 demandes")

    field(page, REQUESTS).fill(f"1{NNBSP}234{NBSP}567,5")
    field(page, "Horizon de planification (mois)").fill("douze")
    click_and_load(page, page.get_by_role("button", name="Enregistrer le scénario"))
    horizon = field(page, "Horizon de planification (mois)")
    beside = page.locator(".form-field-error", has=horizon)
    expect(beside.locator(".errorlist")).to_have_text(re.compile(r"^Saisissez un nombre"))
    expect(field(page, REQUESTS)).to_have_value(f"1{NNBSP}234{NBSP}567,5")  # as typed

    horizon.fill("12")
    click_and_load(page, page.get_by_role("button", name="Enregistrer le scénario"))
    expect(messages(page)).to_have_text("Scénario enregistré.")
    expect(first_month).to_contain_text("1,23 million de demandes")
    expect(field(page, REQUESTS)).to_have_value("1234567.5")
    scenario.refresh_from_db()
    assert scenario.inputs["inference"]["requests_per_month"] == 1_234_567.5
