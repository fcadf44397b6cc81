"""The PDF's fonts: found and embedded, or a clear error where they are required."""

import pytest
from django.core.exceptions import ImproperlyConfigured
from reportlab.pdfbase import pdfmetrics

from apps.exports import pdf_fonts
from apps.exports.pdf_fonts import check_pdf_fonts


@pytest.fixture
def no_fonts(settings, tmp_path):
    """A machine without the font packages; the real fonts registered again afterwards.

    ReportLab's registry outlives the cache: the Helvetica stand-ins registered under the real
    fonts' names would stay, and a TrueType font is never registered over a name already taken,
    so every later PDF of this process would be in Helvetica. The registry is put back too."""
    registered = dict(pdfmetrics._fonts)
    settings.PDF_FONT_DIRS = [str(tmp_path)]
    pdf_fonts.pdf_fonts.cache_clear()
    yield settings
    pdfmetrics._fonts.clear()
    pdfmetrics._fonts.update(registered)
    pdf_fonts.pdf_fonts.cache_clear()


def test_where_the_fonts_are_required_a_missing_font_says_what_to_install(no_fonts):
    no_fonts.PDF_FONTS_REQUIRED = True
    with pytest.raises(ImproperlyConfigured, match="apt-get install fonts-noto-core"):
        pdf_fonts.pdf_fonts()
    (error,) = check_pdf_fonts()
    assert error.id == "exports.E001" and error.is_serious()
    assert "NotoSansArabic-Regular.ttf" in error.msg


def test_elsewhere_the_pdf_falls_back_to_helvetica_and_warns(no_fonts):
    no_fonts.PDF_FONTS_REQUIRED = False
    fonts = pdf_fonts.pdf_fonts()
    assert not fonts.embedded and fonts.covers(pdf_fonts.SANS, "é")
    assert not fonts.covers(pdf_fonts.SANS, "Ж")
    (warning,) = check_pdf_fonts()
    assert not warning.is_serious()
