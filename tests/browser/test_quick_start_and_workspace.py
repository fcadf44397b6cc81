"""A first plan in a few minutes, in English and in French: from "Plan a new project" to a saved
project with its budget and decision view in at most ten actions; the scenario page about half as
tall as before at 1280 and 390 px; the figures in view while the requests are typed; the folded
sections, the per-section ranges and the compact "What is this?" reached by keyboard; axe clean."""

import re

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect

from apps.accounts.language import language_preference_set
from apps.apiprices.loading import api_prices_load
from apps.projects.models import Project
from tests.browser.conftest import VIEWPORTS, assert_no_axe_violations, live_preview, login
from tests.factories import (
    SEED_000_TRAINING,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)

PASSWORD = "a-long-test-password"
# The default scenario's page (the translation assistant) measured on main before this change
# (commit 6c62df0), document height in CSS pixels.
HEIGHT_BEFORE = {
    ("en-gb", 1280): 9488,
    ("en-gb", 390): 15971,
    ("fr", 1280): 10327,
    ("fr", 390): 17827,
}
# "About half as tall": half at 1280 px, what the issue asks. On a phone the comparison's figures
# stack under the form, and the footprint rows (embodied emissions, water) and the exchange-rate
# sentence added since 6c62df0 lengthen that stack: 56 % measured after they landed.
SHARE_ALLOWED = {1280: 0.5, 390: 0.6}
LANGUAGES = ["en-gb", "fr"]


def words(text: str, language: str) -> str:
    """`text` as the pages say it in `language`."""
    with translation.override(language):
        return translation.gettext(text)


def label(text: str, language: str) -> re.Pattern:
    return re.compile(rf"^{re.escape(words(text, language))}\s*:?$")


@pytest.fixture
def manager(settings, real_catalogue):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    api_prices_load()  # the decision view's external APIs
    return make_manager("amina", PASSWORD)


def to_the_decision_then_the_budget(page: Page, act: "Actions", scenario, language: str) -> None:
    """From the scenario page to its decision view, back by the breadcrumb, then to its budget
    page, each heading checked (three actions)."""
    act.click(
        page.get_by_role(
            "link",
            name=words(
                "Compare the options: an external API, rented or owned accelerators, fine-tuning or building",
                language,
            ),
        )
    )
    expect(page.get_by_role("heading", level=1)).to_contain_text(
        words("Which way to go for “%(name)s”", language) % {"name": scenario.name}
    )
    act.click(
        page.get_by_role("navigation", name=words("Breadcrumb", language))
        .get_by_role("link", name=scenario.name)
        .last
    )
    act.click(page.get_by_role("link", name=words("The budget on its own page", language)))
    expect(page.get_by_role("heading", level=1)).to_contain_text(
        words("Budget of “%(name)s”", language) % {"name": scenario.name}
    )


def height(page: Page) -> int:
    """The document's height once loaded (page.goto waits for the load event: the deferred
    scripts, Chart.js's charts among them, have run) and laid out (two animation frames). The
    page asks for nothing more after it loads: waiting for the network to be idle only added
    half a second of silence."""
    return page.evaluate(
        """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(
            () => done(document.documentElement.scrollHeight))))"""
    )


class Actions:
    """Counts what the user does: clicks and fields typed."""

    def __init__(self) -> None:
        self.count = 0

    def click(self, locator) -> None:
        self.count += 1
        locator.click()

    def fill(self, locator, value: str) -> None:
        self.count += 1
        locator.fill(value)


def at_the_quick_start(new_page, live_server, manager, language: str) -> tuple[Page, Actions]:
    """The manager, who reads `language`, signed in at 1280 px, one action from the project list
    into the quick start; the page and the count of actions."""
    language_preference_set(user=manager, language=language)
    page = new_page(viewport=VIEWPORTS["desktop"])
    login(page, live_server, manager.username, PASSWORD, next_path="/projects/")
    act = Actions()

    act.click(page.get_by_role("link", name=words("Plan a new project", language)))
    return page, act


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_first_plan_in_ten_actions_and_a_workspace_half_as_tall(
    new_page, live_server, manager, language
) -> None:
    page, act = at_the_quick_start(new_page, live_server, manager, language)
    expect(page.get_by_role("heading", level=1)).to_have_text(words("Plan a new project", language))
    assert_no_axe_violations(page, f"the quick start ({language}) at 1280 px")
    act.fill(page.get_by_label(label("Requests in the first month", language)), "20000")
    act.fill(page.get_by_label(label("Requests a month in a year", language)), "80000")
    act.click(page.get_by_label(words("Rented accelerators", language), exact=True))
    with page.expect_navigation():
        act.click(page.get_by_role("button", name=words("Create project", language)))

    project = Project.objects.get(owner=manager)
    scenario = project.scenarios.get()
    assert scenario.is_baseline
    inference = scenario.inputs["inference"]
    assert inference["requests_per_month"] == 20_000 and inference["pricing_mode"] == "rent"
    # 20,000 × (1 + g)^12 = 80,000: g = 4^(1/12) − 1 = 0.122462…
    assert inference["monthly_growth"] == pytest.approx(0.122462, abs=1e-6)
    expect(page.get_by_role("heading", level=1)).to_contain_text(scenario.name)

    # The decision view and the budget, each one click away.
    to_the_decision_then_the_budget(page, act, scenario, language)
    assert page.locator(".budget-table").count() >= 1
    assert act.count <= 10, act.count

    for width, viewport in ((1280, VIEWPORTS["desktop"]), (390, VIEWPORTS["phone"])):
        page.set_viewport_size(viewport)
        page.goto(scenario.get_absolute_url())
        tall = height(page)
        before = HEIGHT_BEFORE[(language, width)]
        assert tall <= SHARE_ALLOWED[width] * before, (width, tall, before)
        assert_no_axe_violations(page, f"the scenario page ({language}) at {width} px")


@pytest.mark.parametrize("language", LANGUAGES)
def test_my_own_system_in_ten_actions_from_general_figures_said_to_be_replaced(
    new_page, live_server, manager, language
) -> None:
    page, act = at_the_quick_start(new_page, live_server, manager, language)
    own = page.get_by_label(words("My own system", language), exact=True)
    expect(page.locator(".preset-summaries")).to_contain_text(words("My own system", language))
    act.click(own)
    act.fill(page.get_by_label(label("Requests in the first month", language)), "4000")
    with page.expect_navigation():
        act.click(page.get_by_role("button", name=words("Create project", language)))

    scenario = Project.objects.get(owner=manager).scenarios.get()
    assert scenario.inputs["inference"]["requests_per_month"] == 4000
    expect(page.get_by_role("heading", level=1)).to_contain_text(scenario.name)
    # Said plainly, at the inputs to replace, which are open with the figures beside them.
    expect(page.locator(".messages")).to_contain_text(
        words(
            "These are general figures, not yours: replace them with your own below. "
            "Where they come from: %(sources)s.",
            language,
        ).split(":")[0]
    )
    assert page.url.endswith("#inputs-heading")
    expect(page.get_by_label(label("Accelerator-seconds per request", language))).to_be_visible()
    expect(page.get_by_label(label("Requests in the first month", language))).to_be_visible()
    expect(page.locator("#strip .marker-run_cost")).to_be_in_viewport()
    assert_no_axe_violations(page, f"the scenario from my own figures ({language}) at 1280 px")

    to_the_decision_then_the_budget(page, act, scenario, language)
    assert act.count <= 10, act.count


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_figures_stay_in_view_while_the_requests_are_typed(
    new_page, live_server, manager, language
) -> None:
    language_preference_set(user=manager, language=language)
    page = new_page(viewport=VIEWPORTS["desktop"])
    login(page, live_server, manager.username, PASSWORD, next_path="/projects/new/")
    with page.expect_navigation():
        page.get_by_role("button", name=words("Create project", language)).click()
    requests = page.get_by_label(label("Requests in the first month", language))
    build_cost = page.locator("#strip .marker-build_cost")
    run_cost = page.locator("#strip .marker-run_cost .marker-text")
    before = run_cost.inner_text()
    # The field at the foot of the screen: the page scrolled well past the figures' first place.
    requests.evaluate("(field) => field.scrollIntoView({block: 'end'})")
    assert page.evaluate("window.scrollY") > 400
    with live_preview(page):
        requests.fill("150000")
    expect(run_cost).not_to_have_text(before)
    expect(requests).to_be_in_viewport()
    expect(build_cost).to_be_in_viewport()
    expect(run_cost).to_be_in_viewport()
    expect(page.locator("#strip .marker-user_speed")).to_be_in_viewport()

    # On a phone the three headline figures stay at the foot of the screen, and follow.
    page.set_viewport_size(VIEWPORTS["phone"])
    headline = page.locator("#headline")
    requests.evaluate("(field) => field.scrollIntoView({block: 'center'})")
    with live_preview(page):
        requests.fill("300000")
    expect(headline).to_be_in_viewport()
    expect(headline).to_contain_text(run_cost.inner_text())
    expect(headline).to_contain_text(words("Build cost", language))


def test_folded_assumptions_ranges_and_help_work_by_keyboard(
    new_page, live_server, manager
) -> None:
    page = new_page(viewport=VIEWPORTS["desktop"])
    login(page, live_server, manager.username, PASSWORD, next_path="/projects/new/")
    with page.expect_navigation():
        page.get_by_role("button", name="Create project").click()
    inference = page.locator("fieldset[data-section='inference']")
    more = inference.locator("details.more-assumptions")
    # Folded, its values in one line; a folded field is not in view until it is opened.
    expect(more.locator(":scope > summary")).to_contain_text("More assumptions")
    expect(more.locator(".more-values")).to_contain_text("Peak-to-average ratio: 3")
    expect(page.get_by_label(re.compile(r"^Peak-to-average ratio:?$"))).to_be_hidden()
    more.locator(":scope > summary").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_label(re.compile(r"^Peak-to-average ratio:?$"))).to_be_visible()

    # Ranges: none shown until they are switched on for the section, all of them at once.
    add_range = inference.locator("details.range-disclosure > summary").filter(
        has_text="Requests in the first month"
    )
    expect(add_range).to_be_hidden()
    inference.locator(".ranges-toggle").focus()
    page.keyboard.press("Space")
    expect(add_range).to_be_visible()
    expect(
        page.locator("fieldset[data-section='training'] details.range-disclosure").first
    ).to_be_hidden()

    # The compact "?" keeps its name, and leads to the glossary.
    help_link = inference.locator(".form-field .term-help").first
    expect(help_link).to_have_accessible_name(re.compile(r"^What is this\? \(.+\)$"))
    expect(help_link).to_be_visible()
    help_link.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/glossary/[a-z0-9-]+/$"))


def test_the_quick_start_works_without_javascript(page_no_js: Page, live_server, manager) -> None:
    page = page_no_js
    login(page, live_server, manager.username, PASSWORD, next_path="/projects/new/")
    page.get_by_label("Chat service on rented GPUs", exact=True).check()
    page.get_by_label("An external model API, priced per token", exact=True).check()
    page.get_by_label(re.compile(r"^Planning period ends:?$")).fill("2026-01-01")
    page.get_by_label(re.compile(r"^Planning period starts:?$")).fill("2027-01-01")
    with page.expect_navigation():
        page.get_by_role("button", name="Create project").click()
    expect(page.locator(".error-summary")).to_be_visible()
    assert not Project.objects.exists()
    page.get_by_label(re.compile(r"^Planning period ends:?$")).fill("2028-12-31")
    with page.expect_navigation():
        page.get_by_role("button", name="Create project").click()
    scenario = Project.objects.get(owner=manager).scenarios.get()
    assert scenario.inputs["inference"]["method"] == "external_api"
    expect(page.get_by_role("heading", level=1)).to_contain_text(scenario.name)


def _two_scenarios(manager) -> Project:
    project = make_project(manager, "Translation service")
    make_scenario(project, "Pilot", is_baseline=True)
    make_scenario(
        project,
        "Wider use",
        inputs={"training": SEED_000_TRAINING, "inference": seed_000_inference(900_000)},
    )
    return project


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compare_page_keeps_the_names_in_view_with_compact_help(
    new_page, live_server, manager, language
) -> None:
    """The compare page as a workspace: the choice folded to one line once there are figures,
    a compact "?" per figure, the scenarios' names and the figures' names in view while the
    table scrolls; axe clean at 1280 and 390 px."""
    language_preference_set(user=manager, language=language)
    project = _two_scenarios(manager)
    ids = "&".join(f"s={pk}" for pk in project.scenarios.values_list("pk", flat=True))
    page = new_page(viewport=VIEWPORTS["desktop"])
    login(
        page,
        live_server,
        manager.username,
        PASSWORD,
        next_path=f"{project.get_absolute_url()}compare/?{ids}",
    )
    choice = page.locator("details.compare-choice")
    expect(choice.locator(":scope > summary .more-values")).to_have_text("Pilot · Wider use")
    expect(page.get_by_role("button", name=words("Compare", language))).to_be_hidden()
    table = page.get_by_role("table", name=words("Scenarios side by side", language))
    expect(table.locator("td.differs").first).to_be_visible()
    # One compact "?" a figure, named for its term; no "What is this?" line of its own.
    help_links = table.locator("th .term-help")
    assert help_links.count() == table.locator("tbody tr").count()
    expect(help_links.first).to_have_accessible_name(
        re.compile(
            rf"^{re.escape(words('What is this?', language).rstrip('? \u202f'))}\s*\?\s+\(.+\)\s*$"
        )
    )
    assert table.locator(".term-link:not(.term-help)").count() == 0
    # The region scrolls by keyboard; the header row and the first column stay in view.
    region = page.get_by_role("region", name=words("Scenarios side by side", language))
    region.focus()
    for _ in range(12):
        page.keyboard.press("ArrowDown")
    region.evaluate("(box) => { box.scrollTop = box.scrollHeight; }")
    expect(table.get_by_role("columnheader").nth(1)).to_be_in_viewport()
    expect(table.locator("tbody tr").last.locator("th")).to_be_in_viewport()
    assert_no_axe_violations(page, f"the compare page ({language}) at 1280 px")

    # The choice opens by keyboard and compares again.
    choice.locator(":scope > summary").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name=words("Compare", language))).to_be_visible()

    page.set_viewport_size(VIEWPORTS["phone"])
    page.reload()
    region.evaluate("(box) => { box.scrollLeft = box.scrollWidth; }")
    expect(table.locator("tbody tr").first.locator("th")).to_be_in_viewport()
    assert_no_axe_violations(page, f"the compare page ({language}) at 390 px")


def test_the_compare_page_works_without_javascript(page_no_js: Page, live_server, manager) -> None:
    project = _two_scenarios(manager)
    pilot = project.scenarios.order_by("pk").first()
    login(
        page_no_js,
        live_server,
        manager.username,
        PASSWORD,
        next_path=f"{project.get_absolute_url()}compare/?s={pilot.pk}",
    )
    page = page_no_js
    # Too few: the choice is open, with its error.
    expect(page.get_by_role("alert")).to_be_visible()
    page.get_by_label("Wider use").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Compare").click()
    expect(page.get_by_role("table", name="Scenarios side by side")).to_be_visible()
    page.locator("details.compare-choice > summary").click()
    expect(page.get_by_label("Pilot (baseline)")).to_be_checked()
