"""The text of a generated PDF as a reader copies it, extracted by poppler's pdftotext."""

import re
import shutil
import subprocess
import unicodedata

import pytest

# The marks pdftotext puts around right-to-left text (embeddings, isolates, LRM/RLM).
_DIRECTION_MARKS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def pdf_text(content: bytes, *, raw: bool = False) -> str:
    """The PDF's text in reading order: Arabic in logical order (pdftotext reorders right-to-left
    runs), its presentation forms and ligatures folded back to letters (NFKC), without
    direction marks. `raw`: in the order it is drawn instead, so that the lines of a table's
    cell follow each other rather than mingle with the next cell's."""
    if shutil.which("pdftotext") is None:
        pytest.skip("reading a PDF's text needs pdftotext: apt-get install poppler-utils")
    options = ["-raw"] if raw else []
    extracted = subprocess.run(
        ["pdftotext", *options, "-enc", "UTF-8", "-", "-"],
        input=content,
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8")
    return _DIRECTION_MARKS.sub("", unicodedata.normalize("NFKC", extracted))


def pdf_fonts(content: bytes) -> dict[str, bool]:
    """Each font the PDF's pages use, by base name, and whether its file is embedded."""
    if shutil.which("pdffonts") is None:
        pytest.skip("listing a PDF's fonts needs pdffonts: apt-get install poppler-utils")
    listing = subprocess.run(
        ["pdffonts", "-"], input=content, capture_output=True, check=True
    ).stdout.decode()
    fonts = {}
    for line in listing.splitlines()[2:]:
        name, *_, embedded, _subset, _unicode, _object, _generation = line.split()
        fonts[name.partition("+")[2] or name] = embedded == "yes"
    return fonts
