"""Text for spreadsheet cells: nothing a spreadsheet could run, nothing XML forbids."""

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
