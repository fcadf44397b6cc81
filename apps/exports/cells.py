"""Text for spreadsheet and PDF cells: nothing a spreadsheet could run, nothing XML forbids."""

import re

# A spreadsheet reads a cell that starts with one of these as a formula (OWASP, "CSV injection").
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
# Control characters other than tab, line feed and carriage return: XML 1.0 cannot hold them.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def printable(text: str) -> str:
    """The text without the control characters an XLSX or PDF file cannot hold."""
    return _UNPRINTABLE.sub("", text)


def looks_like_formula(text: str) -> bool:
    return text.startswith(FORMULA_TRIGGERS)


def formula_safe(text: str) -> str:
    """Text a spreadsheet shows as it is: a leading single quote makes it text, not a formula."""
    text = printable(text)
    return f"'{text}" if looks_like_formula(text) else text


# The PDF uses the fonts every PDF reader has (Helvetica), which cover Windows-1252 only: the
# superscript exponents of `apps.projects.formatting` become raised text, its minus a hyphen.
_SUPERSCRIPTS = "⁰¹²³⁴⁵⁶⁷⁸⁹⁻"
_SUPERSCRIPT_RUN = re.compile(f"[{_SUPERSCRIPTS}]+")
_FROM_SUPERSCRIPT = str.maketrans(_SUPERSCRIPTS, "0123456789-")
PDF_ENCODING = "cp1252"


def _in_pdf_encoding(text: str) -> str:
    text = printable(text).replace("−", "-")
    return text.encode(PDF_ENCODING, "replace").decode(PDF_ENCODING)


def pdf_markup(text: str) -> str:
    """Text as reportlab paragraph markup: escaped, exponents raised, lines kept."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    raised = _SUPERSCRIPT_RUN.sub(
        lambda run: f"<super>{run.group().translate(_FROM_SUPERSCRIPT)}</super>", escaped
    )
    return _in_pdf_encoding(raised).replace("\r\n", "\n").replace("\n", "<br/>")


def pdf_plain(text: str) -> str:
    """Text for a chart label, where nothing can be raised: "3 × 10¹⁵" becomes "3 × 10^15"."""
    return _in_pdf_encoding(
        _SUPERSCRIPT_RUN.sub(lambda run: "^" + run.group().translate(_FROM_SUPERSCRIPT), text)
    )
