"""A share link shows the decision view frozen with its version, and with its ranges when the
options were compared with them, readable and axe-clean at 1280 and 390 px."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from apps.apiprices.loading import api_prices_load
from apps.projects.models import Project
from apps.projects.services import scenario_create
from apps.sharing import services
from tests.browser.conftest import (
    AXE_JS,
    assert_no_axe_violations_at_each_width,
)
from tests.factories import TRANSLATION_INFERENCE


def shared_token(inputs: dict) -> str:
    api_prices_load()
    user = get_user_model().objects.create_user("maria", password="a-long-test-password")
    project = Project.objects.create(
        owner=user,
        title="Translation assistant",
        period_start=datetime.date(2027, 1, 1),
        period_end=datetime.date(2028, 12, 31),
    )
    scenario = scenario_create(project=project, name="Wider use", inputs=inputs, user=user)
    version = scenario.versions.get()
    return services.share_link_create(subject=version, user=user, label="Board")[1]


@pytest.fixture
def token(real_catalogue):
    return shared_token({"inference": TRANSLATION_INFERENCE})


@pytest.fixture
def ranged_token(real_catalogue):
    return shared_token(
        {
            "inference": TRANSLATION_INFERENCE,
            "ranges": {"inference.requests_per_month": {"low": 50_000, "high": 3_000_000}},
            "uncertainty": {"samples": 2_000, "seed": 3},
        }
    )


def test_the_shared_decision_view_reads_and_has_no_axe_violations(
    new_page, viewport: dict, live_server, token
) -> None:
    board: Page = new_page()
    board.add_init_script(path=AXE_JS)  # the shared page's policy refuses injected scripts
    response = board.goto(f"{live_server.url}/s/{token}/")
    assert response is not None and response.status == 200
    section = board.locator("section.frozen-options")
    expect(
        section.get_by_role("heading", name="Which way to go: the options compared, as saved")
    ).to_be_visible()
    expect(section).to_contain_text("Cheapest by net present value: Self-host on rented")
    table = section.get_by_role("table", name="The options compared")
    expect(table.get_by_role("rowheader", name="External model API")).to_be_visible()
    expect(table.get_by_role("columnheader", name="Staff assumed")).to_be_visible()
    assert_no_axe_violations_at_each_width(board, "the shared decision view")


def test_the_shared_decision_view_with_ranges_reads_in_both_languages_without_axe_violations(
    new_page, viewport: dict, live_server, ranged_token
) -> None:
    for locale, heading, cheapest, table_name in (
        (
            "en-GB",
            "How sure: each option's 90 % range",
            r"cheapest in \d+% of samples",
            "Each option's percentiles (USD) and how often it is the cheapest",
        ),
        (
            "fr-FR",
            "Degré de certitude : la fourchette à 90 % de chaque option",
            r"la moins chère dans \d+\s% des tirages",
            "Centiles de chaque option (USD) et fréquence à laquelle elle est la moins chère",
        ),
    ):
        board: Page = new_page(locale=locale)
        board.add_init_script(path=AXE_JS)
        response = board.goto(f"{live_server.url}/s/{ranged_token}/")
        assert response is not None and response.status == 200
        ranges = board.locator("section.option-ranges")
        expect(ranges.get_by_role("heading", name=heading)).to_be_visible()
        expect(ranges.get_by_role("listitem").first).to_contain_text(re.compile(cheapest))
        table = ranges.get_by_role("table", name=table_name)
        # Five options (no training to fine-tune), each with its total, NPV and cost per request.
        expect(table.get_by_role("rowheader")).to_have_count(5 + 5 * 3)
        expect(table.get_by_role("columnheader")).to_have_count(7)
        assert_no_axe_violations_at_each_width(
            board, f"the shared decision view with ranges, {locale}"
        )


@pytest.mark.parametrize("viewport", ["phone"], indirect=True, ids=["phone-390x844"])
def test_the_decision_page_with_ranges_says_how_often_each_option_wins(
    page: Page, viewport: dict, live_server, real_catalogue, settings
) -> None:
    from django.contrib.auth.models import Group

    from apps.projects.roles import MANAGER
    from tests.browser.conftest import login

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only
    api_prices_load()
    user = get_user_model().objects.create_user("omar", password="a-long-test-password")
    user.groups.add(Group.objects.get_or_create(name=MANAGER)[0])
    project = Project.objects.create(owner=user, title="Translation assistant")
    ranges = {"inference.requests_per_month": {"low": 50_000, "high": 3_000_000}}
    scenario = scenario_create(
        project=project,
        name="Wider use",
        inputs={"inference": TRANSLATION_INFERENCE, "ranges": ranges, "uncertainty": {"seed": 1}},
        user=user,
    )
    login(
        page,
        live_server,
        "omar",
        "a-long-test-password",
        next_path=f"/scenarios/{scenario.pk}/options/",
    )
    ranges_block = page.locator(".options-ranges")
    expect(ranges_block).to_contain_text("With the ranges you gave, over 100,000 samples")
    expect(ranges_block.get_by_role("listitem").first).to_contain_text("% of cases.")
    assert_no_axe_violations_at_each_width(page, "the decision page with ranges")
