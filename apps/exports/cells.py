"""Text for spreadsheet and PDF cells: nothing a spreadsheet could run (apps.core.spreadsheet_text),
nothing XML forbids."""

import re

from apps.core.spreadsheet_text import printable
from apps.exports.pdf_fonts import ARABIC, FAMILIES, SANS, PdfFonts, pdf_fonts

# PDF text: superscript exponents (apps.words.formatting) become raised text; each run of
# Arabic is set in the Arabic font, its words in the order they are seen, right to left
# (ReportLab draws left to right and HarfBuzz shapes each word); every other character in the
# first font that has it (apps.exports.pdf_fonts.FALLBACK_ORDER); one that no font has prints as
# "?", and without the embedded fonts the minus sign is a hyphen.
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"
_SUPERSCRIPT_RUN = re.compile(f"[{_SUPERSCRIPTS}]+")
_FROM_SUPERSCRIPT = str.maketrans(_SUPERSCRIPTS, "0123456789-")
_ARABIC_LETTERS = "\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff"
_ARABIC_RUN = re.compile(f"[{_ARABIC_LETTERS}]+(?:[ \u00a0]+[{_ARABIC_LETTERS}]+)*")
_LINE_BREAKS = "\n\r"


def _font_runs(text: str, fonts: PdfFonts) -> list[tuple[str | None, str]]:
    """(family, text) runs outside Arabic: each character in the first family that has it."""
    runs: list[tuple[str | None, str]] = []
    for character in text:
        family = SANS if character in _LINE_BREAKS else fonts.family_for(character)
        shown = character if family else "?"
        if runs and runs[-1][0] == family:
            runs[-1] = (family, runs[-1][1] + shown)
        else:
            runs.append((family, shown))
    return runs


def _in_font(family: str, text: str, bold: bool) -> str:
    return f'<font name="{FAMILIES[family][bold]}">{text}</font>'


def _marked_up(text: str, fonts: PdfFonts, bold: bool) -> str:
    return "".join(
        part if family in (SANS, None) else _in_font(family, part, bold)
        for family, part in _font_runs(text, fonts)
    )


def _in_pdf_fonts(text: str, fonts: PdfFonts, bold: bool) -> str:
    """Markup-free text as paragraph markup with each script's runs in their font."""
    text = printable(text)
    if not fonts.embedded:
        return _marked_up(text.replace("−", "-"), fonts, bold)
    parts, start = [], 0
    for match in _ARABIC_RUN.finditer(text):
        parts.append(_marked_up(text[start : match.start()], fonts, bold))
        words = " ".join(reversed(match.group().split()))
        shown = "".join(c if fonts.covers(ARABIC, c) else "?" for c in words)
        parts.append(_in_font(ARABIC, shown, bold))
        start = match.end()
    parts.append(_marked_up(text[start:], fonts, bold))
    return "".join(parts)


def has_arabic(text: str) -> bool:
    """Whether the text needs shaping (joined Arabic letters) to print."""
    return _ARABIC_RUN.search(text) is not None


def pdf_markup(text: str, *, bold: bool = False) -> str:
    """Text as reportlab paragraph markup: escaped, exponents raised, scripts in their fonts
    (bold ones for a bold paragraph), lines kept."""
    fonts = pdf_fonts()
    pieces, start = [], 0
    for run in _SUPERSCRIPT_RUN.finditer(text):
        pieces.append(_in_pdf_fonts(_escaped(text[start : run.start()]), fonts, bold))
        pieces.append(f"<super>{run.group().translate(_FROM_SUPERSCRIPT)}</super>")
        start = run.end()
    pieces.append(_in_pdf_fonts(_escaped(text[start:]), fonts, bold))
    return "".join(pieces).replace("\r\n", "\n").replace("\n", "<br/>")


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def pdf_plain(text: str) -> str:
    """Text for a chart label, where nothing can be raised nor change font: "3 × 10¹⁵" becomes
    "3 × 10^15"; what the sans font lacks becomes "?"."""
    raised = _SUPERSCRIPT_RUN.sub(lambda run: "^" + run.group().translate(_FROM_SUPERSCRIPT), text)
    fonts = pdf_fonts()  # a label is in one font: the sans, whose minus sign is a hyphen
    return "".join(c if fonts.covers(SANS, c) else "?" for c in printable(raised).replace("−", "-"))
