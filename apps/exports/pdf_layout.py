"""The PDF's building blocks: page size, paragraph and table styles, a paragraph in the fonts
of its scripts, a value for print, a table with a header row."""

from collections.abc import Collection
from decimal import Decimal
from functools import cache

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Table, TableStyle

from apps.exports.cells import has_arabic, pdf_markup
from apps.exports.figures import Value
from apps.exports.pdf_fonts import SANS, SANS_BOLD
from apps.words import formatting
from apps.words.numbers import decimal_text

MARGIN = 18 * mm
WIDTH = A4[0] - 2 * MARGIN
_SAMPLE = getSampleStyleSheet()
TITLE = ParagraphStyle("title", parent=_SAMPLE["Title"], fontName=SANS_BOLD)
H1 = ParagraphStyle("h1", parent=_SAMPLE["Heading1"], fontName=SANS_BOLD, fontSize=16, leading=20)
H2 = ParagraphStyle("h2", parent=_SAMPLE["Heading2"], fontName=SANS_BOLD, fontSize=12.5, leading=16)
H3 = ParagraphStyle("h3", parent=_SAMPLE["Heading3"], fontName=SANS_BOLD, fontSize=10.5, leading=13)
BODY = ParagraphStyle("body", parent=_SAMPLE["BodyText"], fontName=SANS, fontSize=9.5, leading=13)
CELL = ParagraphStyle("cell", parent=BODY, fontSize=8.5, leading=10.5, spaceBefore=0)
CELL_BOLD = ParagraphStyle("cell-bold", parent=CELL, fontName=SANS_BOLD)
NUMBER = ParagraphStyle("number", parent=CELL, alignment=TA_RIGHT)
STRIP_TEXT = ParagraphStyle("strip", parent=CELL, fontName=SANS_BOLD, fontSize=11, leading=14)
FOOTER = ParagraphStyle("footer", parent=BODY, fontSize=8, leading=10, textColor="#444444")
GREY = colors.HexColor("#999999")
SHADE = colors.HexColor("#eeeeee")
# Cells hold paragraphs in the styles above; a table still sets its own font, which must be one
# of the embedded ones too.
CELL_FONT = ("FONTNAME", (0, 0), (-1, -1), SANS)
GRID = TableStyle(
    [
        CELL_FONT,
        ("GRID", (0, 0), (-1, -1), 0.25, GREY),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
)
STRIP = TableStyle(
    [CELL_FONT, ("GRID", (0, 0), (-1, -1), 0.25, GREY), ("VALIGN", (0, 0), (-1, -1), "TOP")]
)
LIST = TableStyle(
    [
        CELL_FONT,
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, GREY),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
    ]
)


@cache
def _shaping(style: ParagraphStyle) -> ParagraphStyle:
    """The style with HarfBuzz shaping, which joins Arabic letters; only text that needs it pays
    for it."""
    return ParagraphStyle(f"{style.name}-shaped", parent=style, shaping=1)


def paragraph(text: str, style: ParagraphStyle = BODY) -> Paragraph:
    markup = pdf_markup(text, bold=style.fontName == SANS_BOLD)
    return Paragraph(markup, _shaping(style) if has_arabic(text) else style)


def value_text(value: Value) -> str:
    """A table value for print: money to the cent with separators (below a cent as many decimals
    as the pages show), other numbers readable."""
    if value is None:
        return ""
    if isinstance(value, Decimal):
        return decimal_text(value, formatting.money_decimal_places(value))
    if isinstance(value, int | float):
        return formatting.count(value, "").text.strip()
    return value


def grid(rows: list[list], widths: list[float], numeric: Collection[int] = ()) -> Table:
    """A table with a shaded header row that repeats on every page it runs over; the columns
    numbered in `numeric` are aligned right."""
    cells = [[paragraph(text, CELL_BOLD) for text in rows[0]]]
    cells += [
        [paragraph(text, NUMBER if i in numeric else CELL) for i, text in enumerate(row)]
        for row in rows[1:]
    ]
    table = Table(cells, colWidths=widths, repeatRows=1)
    table.setStyle(GRID)
    return table
