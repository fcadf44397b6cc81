"""The estimate engine's words in the reader's language: notes, budget lines and errors.

The engine (apps/estimates, no Django) returns its sentences as `Message`s: English text that
keeps its msgid and parameters (apps/estimates/messages.py). Here, at the edge, each becomes
gettext(msgid) % parameters in the active language, its numbers and dates written by Babel
(apps.words.messages): "+5,00 %", "1 234,5", "1 mars 2026".

Text that went through JSON on its way here (a stored version, a share, the budget as the API
answers it, which the exports read) is a plain str: it is recognised as one of the engine's
msgids with its parameters read back from the English, and translated the same way. A str that
is no engine message (a name someone typed, a catalogue note) is left as it is.
"""

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from functools import cache
from pathlib import Path

from django.utils.translation import ngettext

from apps.estimates.messages import Day, Message
from apps.words.messages import message_text
from apps.words.messages import param_text as _param_text
from apps.words.messages import translated as _translated
from apps.words.numbers import decimal_text, percent_text

ENGINE = Path(__file__).resolve().parents[1] / "estimates"
MINUS = "−"
_PLACEHOLDER = re.compile(r"%\((?P<name>[a-z_]+)\)s|%%")
# A number as the engine writes it in English: grouped with commas, a decimal point, perhaps
# an exponent ("1e+15") or a percent sign ("+5.00%").
_ENGLISH_NUMBER = re.compile(
    r"(?P<sign>[+\-−])?(?P<whole>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<fraction>\d+))?"
    r"(?:e(?P<exponent>[+\-]\d+))?(?P<percent>%)?"
)


def engine_msgids() -> tuple[str, ...]:
    """Every msgid the engine can emit: the literal first argument of each `_(…)` call in
    apps/estimates, as makemessages extracts them."""
    return _engine_msgids()


@cache
def _engine_msgids() -> tuple[str, ...]:
    found = []
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "_"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.append(node.args[0].value)
    return tuple(dict.fromkeys(found))


def engine_text(text: object) -> str:
    """An engine message in the active language; any other text as it is ("" for None)."""
    if text is None:
        return ""
    if isinstance(text, Message):
        return message_text(text)
    if not isinstance(text, str):
        return str(text)
    recognised = _recognised(str(text))
    return str(text) if recognised is None else recognised


def engine_texts(texts: Iterable[object]) -> list[str]:
    return [engine_text(text) for text in texts]


def engine_errors(errors: dict[str, list]) -> dict[str, list[str]]:
    """An EstimateInputError's or BudgetInputError's `errors`, each message translated."""
    return {key: engine_texts(messages) for key, messages in errors.items()}


# Recognising a plain str as an engine message, or as one of the catalogues' notes that go
# first in the same list (apps/catalogue/resolve*.py and apps/apiprices/resolve.py: their
# Messages), which a stored version keeps in English.

RESOLVE = (
    *sorted((ENGINE.parent / "catalogue").glob("resolve*.py")),
    ENGINE.parent / "apiprices" / "resolve.py",
)


@dataclass(frozen=True)
class _Plural:
    """A catalogue note worded by ngettext: its two msgids and the placeholder that counts."""

    singular: str
    plural: str
    count: str


def _counted(call: ast.Call) -> str:
    """The placeholder of an ngettext(…, count, name=…) whose value is the count it is given."""
    count = ast.dump(call.args[2])
    for keyword in call.keywords:
        if ast.dump(keyword.value) == count:
            return keyword.arg
    raise ValueError(f"no placeholder counts {count}")


@cache
def catalogue_note_msgids() -> tuple[str | _Plural, ...]:
    """The catalogues' notes and errors as RESOLVE words them (apps.estimates.messages' `_` and
    `ngettext`)."""
    found: list[str | _Plural] = []
    for path in RESOLVE:
        for call in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)):
                continue
            if call.func.id == "_":
                found.append(call.args[0].value)
            elif call.func.id == "ngettext":
                found.append(_Plural(call.args[0].value, call.args[1].value, _counted(call)))
    return tuple(found)


def _regex(msgid: str) -> re.Pattern:
    seen: set[str] = set()
    parts, end = [], 0
    for match in _PLACEHOLDER.finditer(msgid):
        parts.append(re.escape(msgid[end : match.start()]))
        name = match["name"]
        if name is None:
            parts.append("%")
        elif name in seen:
            parts.append(f"(?P={name})")
        else:
            seen.add(name)
            parts.append(f"(?P<{name}>.+?)")
        end = match.end()
    parts.append(re.escape(msgid[end:]))
    return re.compile("".join(parts), re.S)


@cache
def _patterns() -> tuple[tuple[str | _Plural, re.Pattern], ...]:
    patterns: list[tuple[str | _Plural, re.Pattern]] = [
        (msgid, _regex(msgid)) for msgid in engine_msgids()
    ]
    for note in catalogue_note_msgids():
        if isinstance(note, _Plural):
            patterns += [(note, _regex(note.singular)), (note, _regex(note.plural))]
        else:
            patterns.append((note, _regex(note)))
    return tuple(patterns)


def _english_number_text(text: str) -> str | None:
    """A number the engine wrote in English ("1,234.5", "+5.00%", "1e+15") in the active
    language, with the same digits; None when `text` is no such number."""
    match = _ENGLISH_NUMBER.fullmatch(text)
    if match is None:
        return None
    fraction = match["fraction"] or ""
    value = Decimal(match["whole"].replace(",", "") + (f".{fraction}" if fraction else ""))
    if match["exponent"]:
        digits = f"{decimal_text(value)}e{match['exponent']}"
    else:
        digits = decimal_text(value, len(fraction))
    if match["percent"]:
        digits = percent_text(digits)
    sign = match["sign"] or ""
    return (MINUS if sign in "-−" and sign else sign) + digits


def _english_param_text(text: str) -> str:
    recognised = _recognised(text)
    if recognised is not None:
        return recognised
    number = _english_number_text(text)
    if number is not None:
        return number
    for form, pattern in (("%d %B %Y", "long"), ("%B %Y", "month")):  # "1 March 2026" too
        try:
            day = datetime.strptime(text, form).date()
        except ValueError:
            continue
        return _param_text(Day(day, pattern))
    return text


def _recognised(text: str) -> str | None:
    for msgid, pattern in _patterns():
        match = pattern.fullmatch(text)
        if match is None:
            continue
        params = {name: _english_param_text(value) for name, value in match.groupdict().items()}
        if isinstance(msgid, _Plural):
            count = int(match[msgid.count].replace(",", ""))
            return ngettext(msgid.singular, msgid.plural, count) % params
        return _translated(msgid, params)
    return None


def engine_error_text(errors: dict[str, list]) -> str:
    """An engine error's messages on one line, as str(error) gives them, translated:
    "training.mfu: …; inference.months: …"."""
    return "; ".join(
        f"{key}: {' '.join(messages)}" for key, messages in engine_errors(errors).items()
    )
