"""Each number's range behind a native disclosure, as the server draws it (no JavaScript): closed
while empty, open with a value, an error or a typical range just asked for, its summary saying
the range in words with its values, in English and French."""

import re

import pytest

from tests.factories import make_project, make_scenario
from tests.integration.test_project_pages import scenario_post
from tests.integration.test_scenario_page_ranges import RANGED_INPUTS, manager  # noqa: F401

pytestmark = pytest.mark.django_db
NBSP, NNBSP = "\u00a0", "\u202f"


@pytest.fixture
def scenario(manager):  # noqa: F811
    return make_scenario(make_project(manager))


@pytest.fixture
def ranged(manager):  # noqa: F811
    """A scenario with ranges on its training hours and its first month's requests."""
    return make_scenario(make_project(manager), inputs=RANGED_INPUTS)


def disclosure(html: str, field_name: str) -> tuple[bool, str, str]:
    """Whether the range of `field_name` is drawn open, its summary's words, and its HTML."""
    for block in re.findall(r"<details class=\"range-disclosure\"[^>]*>.*?</details>", html, re.S):
        if f'name="{field_name}_low"' in block:
            summary = re.search(r"<summary>(.*?)</summary>", block, re.S).group(1)
            words = re.sub(r"<[^>]+>", "", summary)  # the words read, code points kept
            return block.startswith('<details class="range-disclosure" open>'), words, block
    raise AssertionError(f"no range disclosure for {field_name}")


def post(client, scenario, **fields) -> str:
    return client.post(f"/scenarios/{scenario.pk}/", scenario_post(**fields)).content.decode()


def test_every_empty_range_is_closed_and_offers_to_add_one(client, scenario):
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    blocks = re.findall(r"<details class=\"range-disclosure\"[^>]*>", html)
    assert len(blocks) == html.count('class="range-pair"') > 30
    assert set(blocks) == {'<details class="range-disclosure">'}
    is_open, summary, block = disclosure(html, "inference_requests_per_month")
    assert not is_open
    # The field's label is read by screen readers only: the summaries otherwise sound alike.
    assert summary == "Add a range for Requests in the first month (90% sure between … and …)"
    assert '<span class="visually-hidden"> for Requests in the first month</span>' in block
    # Low and High keep their labels, in a group named after the number.
    assert '<label for="id_inference_requests_per_month_low">Low</label>' in block
    assert re.search(r'<legend class="visually-hidden">Requests in the first month: I am 90', block)


def test_a_stored_range_is_open_and_its_summary_says_it_with_its_values(client, ranged):
    html = client.get(f"/scenarios/{ranged.pk}/").content.decode()
    is_open, summary, _ = disclosure(html, "training_accelerator_hours")
    assert is_open
    assert summary == "Range for Accelerator-hours: between 100 and 400 accelerator-hours"
    is_open, summary, _ = disclosure(html, "inference_requests_per_month")
    assert is_open
    assert summary == "Range for Requests in the first month: between 5,000 and 50,000 requests"
    assert not disclosure(html, "training_mfu")[0]


def test_the_summary_in_french_with_french_numbers(client, ranged):
    client.cookies["django_language"] = "fr"
    html = client.get(f"/scenarios/{ranged.pk}/").content.decode()
    is_open, summary, _ = disclosure(html, "inference_requests_per_month")
    assert is_open
    assert summary == (
        f"Fourchette pour Demandes le premier mois{NBSP}: entre 5{NNBSP}000 et 50{NNBSP}000 demandes"
    )
    is_open, summary, _ = disclosure(html, "training_mfu")
    assert not is_open
    assert summary == (
        "Ajouter une fourchette pour Taux d’utilisation du calcul (MFU, %) "
        f"(entre … et …, avec 90{NBSP}% de certitude)"
    )


def test_percentages_and_money_are_written_in_their_units(client, scenario):
    response = client.post(
        f"/scenarios/{scenario.pk}/",
        scenario_post(
            training_mfu_low="30",
            training_mfu_high="50.5",
            training_price_per_accelerator_hour="2",
            training_price_per_accelerator_hour_low="1.5",
            training_price_per_accelerator_hour_high="4",
            inference_monthly_growth_low="0.5",
            inference_monthly_growth_high="2",
        ),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    html = client.get(f"/scenarios/{scenario.pk}/").content.decode()
    # A range's ends as typed: "0.5%", not the results' whole "less than 1%".
    assert disclosure(html, "training_mfu")[1].endswith(": between 30% and 50.5%")
    assert disclosure(html, "inference_monthly_growth")[1].endswith(": between 0.5% and 2%")
    assert disclosure(html, "training_price_per_accelerator_hour")[1].endswith(
        ": between $1.50 and $4"
    )


@pytest.mark.parametrize(
    ("low", "high", "summary_end", "end_at_fault", "message"),
    [
        ("50", "30", ": between 50% and 30%", "low", "is above the high end"),  # as typed
        ("30", "", ": not complete", "low", "Give both ends, or neither."),
        ("30", "lots", ": not complete", "high", "Enter a number"),  # High's own error
    ],
)
def test_a_range_with_an_error_is_open_with_the_error_beside_its_end(
    client, scenario, low, high, summary_end, end_at_fault, message
):
    html = post(client, scenario, training_mfu_low=low, training_mfu_high=high)
    is_open, summary, block = disclosure(html, "training_mfu")
    assert is_open
    assert summary.endswith(summary_end)
    error_id = f"id_training_mfu_{end_at_fault}_error"
    assert re.search(rf'<ul class="errorlist" id="{error_id}"><li>[^<]*{message}', block)
    assert f'aria-invalid="true" aria-describedby="{error_id}"' in block


def test_use_a_typical_range_opens_the_range_it_filled_or_the_one_it_could_not(client, scenario):
    html = post(client, scenario, typical_range="training_mfu")
    is_open, summary, _ = disclosure(html, "training_mfu")
    assert is_open and summary.endswith(": between 10% and 65%")
    assert not disclosure(html, "training_accelerator_hours")[0]
    # No price typed: the error is beside the price, and its range stays open with the button.
    html = post(client, scenario, typical_range="training_price_per_accelerator_hour")
    is_open, summary, block = disclosure(html, "training_price_per_accelerator_hour")
    assert is_open and summary.startswith("Add a range")
    assert "Use a typical range" in block
    assert "Type a value first" in html
