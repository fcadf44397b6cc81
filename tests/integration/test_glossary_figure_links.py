"""Every figure the pages show links to the glossary term that explains it ("What is this?").

The pages are rendered for a scenario that has everything a figure can come from (training, a
language model served on accelerators, ranges, a budget, options, a version shared by link) and
read as a tree: each figure element must hold a glossary link, so a figure that loses its link, or
a new figure added without one, fails here. A figure is:
- an entry (`<div>` of `<dt>` and `<dd>`) of a list of figures: `dl.figures` (the two columns,
  serving) and `dl.budget-strip` (the budget's summary);
- a marker of the bottom strip (`li.marker`), a line of the ranges (`ul.range-lines > li`) and of
  the fan's summary (`ul.fan-summary > li`);
- a column of a table of figures (its header holds the link: the options, a sweep's best points
  and every point) or a row (its row header holds it: the scenarios compared side by side, a
  sweep's summary), or a table of one figure (its caption names it and holds the link: a sweep's
  heatmap and its line chart's figures). Every table whose cells hold figures (`<data>`) is one
  of these, or one of the charts' own data tables (`DATA_TABLES`), whose figures are those above
  month by month; a table of none of these kinds fails the test until it is classified.
The exact values inside "How these figures are worked out" (`dl.exact`) repeat the figures above
them and are not figures of their own.
"""

import pytest
from django.test import Client

from apps.glossary.terms import TERMS
from apps.sharing.services import share_link_create
from apps.sweeps import runs, services, tasks
from apps.sweeps.metrics import METRICS
from tests.factories import (
    DEMAND_SWEEP,
    SEED_000_TRAINING,
    make_manager,
    make_project,
    make_scenario,
)
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
# Tables by their caption's id, or by their own id (a sweep's best points, under a heading).
COLUMN_TABLES = (
    "options-caption",
    "frozen-options-caption",
    "options-footprint-caption",
    "frozen-options-footprint-caption",
    "sweep-ranking-",
    "sweep-points-",
)
ROW_TABLES = ("compare-caption", "sweep-summary-caption")
CAPTION_TABLES = ("heatmap-caption", "sweep-chart-table-caption")


def has_term_link(element: Element) -> bool:
    return any(
        link.tag == "a"
        and "term-link" in link.classes
        and link.attrs.get("href", "").removeprefix("/glossary/").strip("/") in TERMS
        for link in element.elements()
    )


def _caption_id(table: Element) -> str:
    captions = table.child_elements("caption")
    return captions[0].attrs.get("id", "") if captions else table.attrs.get("id", "")


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
        elif caption in CAPTION_TABLES:
            if not has_term_link(table.child_elements("caption")[0]):
                missing.append(f"caption: {table.child_elements('caption')[0].text()}")
        elif caption.startswith(COLUMN_TABLES):
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
        '<table><caption id="heatmap-caption">Total cost</caption><tbody><tr><td><data value="3">'
        "3</data></td></tr></tbody></table>"
        '<table id="sweep-ranking-1"><thead><tr><th>Point</th><th>Total cost</th></tr></thead>'
        '<tbody><tr><th>0</th><td><data value="4">4</data></td></tr></tbody></table>'
    )
    assert unlinked_figures(html) == [
        "figure: Cost",
        "a table of figures not classified: new-caption",
        "caption: Total cost",
        "column: Total cost",
    ]


def test_every_figure_a_sweep_shows_has_its_term():
    assert {metric.name: metric.term for metric in METRICS if metric.term not in TERMS} == {}


def _finished_sweep(scenario, name: str, definition: dict):
    sweep = services.sweep_create(
        scenario=scenario, created_by=scenario.project.owner, definition=definition, name=name
    )
    for index in range(sweep.total_chunks):
        runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=index)
    sweep.refresh_from_db()
    return sweep


@pytest.fixture
def sweeps(world, monkeypatch) -> dict[str, str]:
    """Finished sweeps with every kind of result: a line chart with a line per accelerator, a
    heatmap, and language models compared; by name, their pages."""
    monkeypatch.setattr(tasks.sweep_run_chunk, "delay", lambda *args: None)
    rented = make_scenario(world["project"], "Rented")
    utilisation = {"field": "inference.target_utilization", "kind": "list", "values": [0.5, 0.7]}
    made = {
        "line chart": _finished_sweep(
            rented,
            "Demand",
            {"inputs": [DEMAND_SWEEP], "accelerators": ["nvidia-h100-sxm", "nvidia-l4"]},
        ),
        "heatmap": _finished_sweep(
            rented, "Demand and utilisation", {"inputs": [DEMAND_SWEEP, utilisation]}
        ),
        "models": _finished_sweep(
            world["served"],
            "Two models",
            {"inputs": [DEMAND_SWEEP], "models": ["llama-3.1-8b", "llama-3.3-70b"]},
        ),
    }
    return {name: f"/sweeps/{sweep.pk}/" for name, sweep in made.items()}


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_every_figure_of_a_sweep_links_to_its_glossary_term(world, sweeps, language):
    for name, path in sweeps.items():
        response = world["client"].get(path, headers={"accept-language": language})
        assert response.status_code == 200, name
        html = response.content.decode()
        assert unlinked_figures(html) == [], name
        # what the sweep varies and compares, above its figures
        definition = parse(html).find_all(
            lambda e: e.tag == "dl" and "sweep-definition" in e.classes
        )[0]
        terms = [dt for dt in definition.elements() if dt.tag == "dt" and has_term_link(dt)]
        assert len(terms) >= 2, name


def test_the_sweep_pages_checked_do_show_every_kind_of_figure(world, sweeps):
    client = world["client"]
    pages = {name: parse(client.get(path).content.decode()) for name, path in sweeps.items()}
    for name, page in pages.items():
        captions = [_caption_id(t) for t in page.find_all(lambda e: e.tag == "table")]
        assert "sweep-summary-caption" in captions, name
        assert "sweep-ranking-1" in captions and "sweep-points-caption" in captions, name
    line_chart = [_caption_id(t) for t in pages["line chart"].find_all(lambda e: e.tag == "table")]
    assert "sweep-chart-table-caption" in line_chart
    heatmap = [_caption_id(t) for t in pages["heatmap"].find_all(lambda e: e.tag == "table")]
    assert "heatmap-caption" in heatmap
    models = pages["models"].text()
    assert "Meta Llama 3.1 8B" in models and "llama-3.1-8b" not in models
