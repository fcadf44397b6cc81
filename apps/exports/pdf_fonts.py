"""The PDF's fonts: Noto Sans (Latin, Cyrillic, Greek), Noto Sans Arabic, Droid Sans Fallback
(Chinese, Japanese, Korean) and DejaVu Sans (the signs Noto Sans lacks, such as "−" and "≈"),
embedded, so that a title in any UN script prints as typed.

The fonts come from Debian's packages (DEBIAN_PACKAGES; the Dockerfile and .ci/run install
them) and are looked for in settings.PDF_FONT_DIRS. Without them a PDF cannot hold those
scripts: where settings.PDF_FONTS_REQUIRED (production, CI) that is an error that says what to
install; on a developer's machine the PDF falls back to the Helvetica every reader has, whose
Windows-1252 letters print and whose missing ones print as "?".

Paragraph styles name the fonts below, whichever set is registered under them. ReportLab draws
text left to right and shapes it with HarfBuzz (uharfbuzz) word by word, so apps.exports.cells
puts each Arabic run's words in visual order and names the font of each script's runs.
"""

import logging
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

logger = logging.getLogger(__name__)

SANS, SANS_BOLD = "cp-sans", "cp-sans-bold"
ARABIC, ARABIC_BOLD = "cp-arabic", "cp-arabic-bold"
CJK = "cp-cjk"
SYMBOLS, SYMBOLS_BOLD = "cp-symbols", "cp-symbols-bold"
FONT_FILES = {
    SANS: "NotoSans-Regular.ttf",
    SANS_BOLD: "NotoSans-Bold.ttf",
    ARABIC: "NotoSansArabic-Regular.ttf",
    ARABIC_BOLD: "NotoSansArabic-Bold.ttf",
    CJK: "DroidSansFallbackFull.ttf",  # TrueType outlines: ReportLab cannot embed CFF (Noto CJK)
    SYMBOLS: "DejaVuSans.ttf",
    SYMBOLS_BOLD: "DejaVuSans-Bold.ttf",
}
FAMILIES = {
    SANS: (SANS, SANS_BOLD),
    ARABIC: (ARABIC, ARABIC_BOLD),
    CJK: (CJK, CJK),
    SYMBOLS: (SYMBOLS, SYMBOLS_BOLD),
}
# Outside Arabic runs, each character is set in the first of these that has it.
FALLBACK_ORDER = (SANS, SYMBOLS, CJK)
DEBIAN_PACKAGES = "fonts-noto-core fonts-droid-fallback fonts-dejavu-core"


@dataclass(frozen=True)
class PdfFonts:
    embedded: bool  # False: the Helvetica fallback, Windows-1252 only
    code_points: dict[str, frozenset[int]]  # what each family can draw

    def covers(self, family: str, character: str) -> bool:
        return ord(character) in self.code_points.get(family, ())

    def family_for(self, character: str) -> str | None:
        """The first family in FALLBACK_ORDER that can draw the character, if any."""
        return next((f for f in FALLBACK_ORDER if self.covers(f, character)), None)


def font_files() -> dict[str, Path | None]:
    """Each font's file in settings.PDF_FONT_DIRS, or None where it is in none of them."""
    directories = [Path(directory) for directory in settings.PDF_FONT_DIRS]
    return {
        name: next((d / file for d in directories if (d / file).is_file()), None)
        for name, file in FONT_FILES.items()
    }


def _missing(files: dict[str, Path | None]) -> list[str]:
    return [FONT_FILES[name] for name, path in files.items() if path is None]


def missing_fonts_message(missing: list[str]) -> str:
    return (
        f"PDF exports need the fonts {', '.join(missing)} to print Arabic, Chinese, "
        f"Cyrillic and accented text. Install them (apt-get install {DEBIAN_PACKAGES}) or point "
        f"PDF_FONT_DIRS at the folders that hold them."
    )


def _families() -> None:
    for family, (regular, bold) in FAMILIES.items():
        for is_bold, name in ((0, regular), (1, bold)):
            for is_italic in (0, 1):
                addMapping(family, is_bold, is_italic, name)


@cache
def pdf_fonts() -> PdfFonts:
    """Register the fonts under the names the styles use (once per process) and say which."""
    files = font_files()
    if missing := _missing(files):
        message = missing_fonts_message(missing)
        if settings.PDF_FONTS_REQUIRED:
            raise ImproperlyConfigured(message)
        logger.warning("%s Falling back to Helvetica.", message)
        for name in FONT_FILES:
            face = "Helvetica-Bold" if name.endswith("-bold") else "Helvetica"
            pdfmetrics.registerFont(pdfmetrics.Font(name, face, "WinAnsiEncoding"))
        _families()
        cp1252 = frozenset(ord(c) for c in bytes(range(32, 256)).decode("cp1252", "ignore"))
        return PdfFonts(embedded=False, code_points={SANS: cp1252})
    code_points = {}
    for name, path in files.items():
        font = TTFont(name, str(path), shapable=True)
        pdfmetrics.registerFont(font)
        if name in FAMILIES:
            code_points[name] = frozenset(font.face.charToGlyph)
    _families()
    return PdfFonts(embedded=True, code_points=code_points)


def check_pdf_fonts(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    """System check: the PDF fonts are installed (an error where they are required)."""
    if not (missing := _missing(font_files())):
        return []
    kind = checks.Error if settings.PDF_FONTS_REQUIRED else checks.Warning
    return [kind(missing_fonts_message(missing), id="exports.E001")]
