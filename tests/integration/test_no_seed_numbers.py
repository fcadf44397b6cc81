"""No "seed 000" (nor "seed 002", …), a word no user knows, anywhere a user or an integrator reads:
the code and templates the interface comes from, the French catalogue, the README and docs, the
API's OpenAPI text, and the exports of the demo project (pages: test_glossary.py)."""

import csv
import io
import re

import pytest
from django.conf import settings
from django.test import Client
from openpyxl import load_workbook

from tests.pdf import pdf_text

pytestmark = pytest.mark.django_db

SEED_NUMBER = re.compile(r"\bseed[\s_-]?0\d\d\b", re.IGNORECASE)
# Where the interface's words, the API's descriptions and the user's documentation come from.
# The tests' own helper names (SEED_000_TRAINING) are not read by anyone but developers.
READ_BY_USERS = ("apps", "templates", "locale", "static/js", "docs", "config", "README.md")
TEXT_SUFFIXES = {".py", ".html", ".po", ".js", ".md", ".csv", ".txt", ".json"}


def _files():
    for name in READ_BY_USERS:
        path = settings.BASE_DIR / name
        candidates = [path] if path.is_file() else path.rglob("*")
        yield from (f for f in candidates if f.is_file() and f.suffix in TEXT_SUFFIXES)


def test_no_source_of_the_interface_api_or_documentation_says_seed_000():
    found = [
        f"{file.relative_to(settings.BASE_DIR)}: {match.group(0)}"
        for file in _files()
        for match in SEED_NUMBER.finditer(file.read_text(encoding="utf-8", errors="replace"))
    ]
    assert found == []


def test_the_check_finds_one():
    assert SEED_NUMBER.search("Example (seed 000's translation assistant)")
    assert SEED_NUMBER.search("as in Seed 002")
    assert not SEED_NUMBER.search("sampled with seed 7")


def test_the_openapi_schema_does_not_say_seed_000():
    schema = Client().get("/api/schema/")
    assert schema.status_code == 200
    assert not SEED_NUMBER.search(schema.content.decode())


@pytest.fixture
def demo(tmp_path):
    from apps.projects.demo import DEMO_PROJECT_TITLE, demo_seed
    from apps.projects.models import Project

    demo_seed(credentials_file=tmp_path / "demo-credentials.txt")
    return Project.objects.get(title=DEMO_PROJECT_TITLE)


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_no_export_of_the_demo_project_says_seed_000(demo, language):
    client = Client()
    client.force_login(demo.owner)

    def export(export_format: str) -> bytes:
        response = client.get(
            f"/projects/{demo.pk}/export.{export_format}", headers={"accept-language": language}
        )
        assert response.status_code == 200, export_format
        return response.content

    texts = {
        "csv": " ".join(
            value
            for row in csv.reader(io.StringIO(export("csv").decode("utf-8-sig")))
            for value in row
        ),
        "json": export("json").decode(),
        "xlsx": " ".join(
            str(cell)
            for sheet in load_workbook(io.BytesIO(export("xlsx")))
            for row in sheet.iter_rows(values_only=True)
            for cell in row
            if cell is not None
        ),
    }
    texts["pdf"] = pdf_text(export("pdf"))
    for export_format, text in texts.items():
        assert "UN Learn AI" in text or export_format == "xlsx", export_format
        assert not SEED_NUMBER.search(text), export_format
