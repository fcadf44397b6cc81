"""Every figure the pages show links to the glossary term that explains it ("What is this?").

The pages are rendered for a scenario that has everything a figure can come from (training, a
language model served on accelerators, ranges, a budget, options, a version shared by link) and
read as a tree: each figure element must hold a glossary link, so a figure that loses its link, or
a new figure added without one, fails here. A figure is:
- an entry (`<div>` of `<dt>` and `<dd>`) of a list of figures: `dl.figures` (the two columns,
  serving) and `dl.budget-strip` (the budget's summary);
- a marker of the bottom strip (`li.marker`), a line of the ranges (`ul.range-lines > li`) and of
  the fan's summary (`ul.fan-summary > li`);
- a column of a table of figures (its header holds the link) or a row of the scenarios compared
  side by side (its row header holds it). Every table whose cells hold figures (`<data>`) is one
  of these, or one of the charts' own data tables (`DATA_TABLES`), whose figures are those above
  month by month; a table of neither kind fails the test until it is classified.
The exact values inside "How these figures are worked out" (`dl.exact`) repeat the figures above
them and are not figures of their own.
"""

import pytest
from django.test import Client

from apps.glossary.terms import TERMS
from apps.sharing.services import share_link_create
from tests.factories import SEED_000_TRAINING, make_manager, make_project, make_scenario
from tests.html_tree import Element, parse

pytestmark = pytest.mark.django_db

SERVED = {
    "method": "tokens",
    "model": "llama-3.1-8b",
    "input_tokens": 1000,
    "output_tokens": 500,
    "accelerator": "nvidia-h100-sxm",
    "requests_per_month": 15_000,
}
INPUTS = {
    "training": SEED_000_TRAINING,
    "inference": SERVED,
    "ranges": {
        "training.accelerator_hours": {"low": 100, "high": 400},
        "inference.requests_per_month": {"low": 5_000, "high": 50_000},
    },
    "uncertainty": {"seed": 7, "samples": 2_000},
}
# Tables that are the charts' data, by their caption's id (or its start).
DATA_TABLES = (
    "cumulative-caption",
    "fan-table-caption",
    "chart-table-caption",
    "budget-caption-",
    "budget-chart-table-caption",
    "budget-ranges-caption-",  # the yearly bars' whiskers as a table; the lines above link
    "option-ranges-caption",  # the options' percentiles; the lines above link
)
COLUMN_TABLES = ("options-caption", "frozen-options-caption")
ROW_TABLES = ("compare-caption",)


def has_term_link(element: Element) -> bool:
    return any(
        link.tag == "a"
        and "term-link" in link.classes
        and link.attrs.get("href", "").removeprefix("/glossary/").strip("/") in TERMS
        for link in element.elements()
    )


def _caption_id(table: Element) -> str:
    captions = table.child_elements("caption")
    return captions[0].attrs.get("id", "") if captions else ""


def _rows(table: Element) -> list[list[Element]]:
    return [
        [cell for cell in row.children if isinstance(cell, Element) and cell.tag in ("th", "td")]
        for body in table.child_elements("tbody")
        for row in body.child_elements("tr")
    ]


def _holds_a_figure(cell: Element) -> bool:
    return any(element.tag == "data" for element in cell.elements())


def unlinked_figures(html: str) -> list[str]:
    """The figures of a page without a glossary link, by their text."""
    page = parse(html)
    missing = []
    for figures in page.find_all(
        lambda e: e.tag == "dl" and e.classes & {"figures", "budget-strip"}
    ):
        for entry in figures.child_elements("div"):
            term = entry.child_elements("dt")[0]
            if not has_term_link(term):
                missing.append(f"figure: {term.text()}")
    lines = page.find_all(lambda e: e.tag == "li" and "marker" in e.classes)
    for ranges in page.find_all(
        lambda e: e.tag == "ul" and e.classes & {"range-lines", "fan-summary"}
    ):
        lines += ranges.child_elements("li")
    missing += [f"line: {line.text()}" for line in lines if not has_term_link(line)]
    for table in page.find_all(lambda e: e.tag == "table"):
        rows = _rows(table)
        if not any(_holds_a_figure(cell) for row in rows for cell in row):
            continue
        caption = _caption_id(table)
        if caption.startswith(DATA_TABLES):
            continue
        if caption in ROW_TABLES:
            missing += [f"row: {row[0].text()}" for row in rows if not has_term_link(row[0])]
        elif caption in COLUMN_TABLES:
            head = [
                cell
                for row in table.child_elements("thead")[0].child_elements("tr")
                for cell in row.child_elements("th")
            ]
            columns = {i for row in rows for i, cell in enumerate(row) if _holds_a_figure(cell)}
            missing += [
                f"column: {head[i].text()}" for i in sorted(columns) if not has_term_link(head[i])
            ]
        else:
            missing.append(f"a table of figures not classified: {caption or table.text()[:80]}")
    return missing


@pytest.fixture
def world():
    owner = make_manager("amina")
    project = make_project(owner, "Translation service")
    served = make_scenario(project, "Served", inputs=INPUTS, is_baseline=True)
    plain = make_scenario(project, "Plain")
    version = served.versions.get(number=served.version)
    _, token = share_link_create(subject=version, user=owner, label="Board")
    client = Client()
    client.force_login(owner)
    return {"client": client, "project": project, "served": served, "plain": plain, "token": token}


def _pages(world) -> dict[str, str]:
    served, project = world["served"], world["project"]
    return {
        "scenario, many requests": f"/scenarios/{served.pk}/?view=many",
        "scenario, a single request": f"/scenarios/{served.pk}/?view=single",
        "budget": f"/scenarios/{served.pk}/budget/",
        "options": f"/scenarios/{served.pk}/options/",
        "project": f"/projects/{project.pk}/",
        "compare": f"/projects/{project.pk}/compare/?s={served.pk}&s={world['plain'].pk}",
        "share link": f"/s/{world['token']}/",
    }


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_every_figure_of_every_page_links_to_its_glossary_term(world, language):
    client = world["client"]
    for name, path in _pages(world).items():
        response = client.get(path, headers={"accept-language": language})
        assert response.status_code == 200, name
        html = response.content.decode()
        assert unlinked_figures(html) == [], name


def test_the_pages_checked_do_show_every_kind_of_figure(world):
    """So that the test above checks something: each page has the figures it is meant to."""
    client = world["client"]
    pages = {name: client.get(path).content.decode() for name, path in _pages(world).items()}
    scenario = parse(pages["scenario, many requests"])
    assert len(scenario.find_all(lambda e: e.tag == "dl" and "figures" in e.classes)) == 3
    assert len(scenario.find_all(lambda e: e.tag == "li" and "marker" in e.classes)) == 3
    assert scenario.find_all(lambda e: e.tag == "ul" and "range-lines" in e.classes)
    assert scenario.find_all(lambda e: e.tag == "ul" and "fan-summary" in e.classes)
    assert scenario.find_all(lambda e: e.tag == "dl" and "budget-strip" in e.classes)
    for name, caption in (
        ("options", "options-caption"),
        ("compare", "compare-caption"),
        ("share link", "frozen-options-caption"),
    ):
        tables = parse(pages[name]).find_all(lambda e: e.tag == "table")
        assert caption in [_caption_id(t) for t in tables], name
    assert 'href="/glossary/crossover/"' in pages["options"]
    assert 'href="/glossary/uncertainty-range/"' in pages["share link"]
    assert 'href="/glossary/model-copy/"' in pages["share link"]


def test_a_figure_without_its_link_is_found():
    html = (
        '<dl class="figures"><div><dt>Cost</dt><dd><data value="1">$1</data></dd></div>'
        '<div><dt>Energy <a class="term-link" href="/glossary/energy/">What is this?</a></dt>'
        "<dd>1 kWh</dd></div></dl>"
        '<table><caption id="new-caption">New</caption><tbody><tr><td><data value="2">2</data>'
        "</td></tr></tbody></table>"
    )
    assert unlinked_figures(html) == [
        "figure: Cost",
        "a table of figures not classified: new-caption",
    ]
