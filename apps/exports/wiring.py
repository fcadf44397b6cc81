"""What the exports connect once Django's registry is ready: the system check of the PDF's
fonts."""

from django.core import checks

from apps.exports.pdf_fonts import check_pdf_fonts


def connect() -> None:
    checks.register(check_pdf_fonts)
