"""Reading a billing file: FOCUS 1.0–1.4 exports (CSV or gzipped CSV) and the plain CSV, row by
row, summed while streaming into one total per billing period × month × kind × unit × model or
accelerator, so that a file of millions of rows takes the memory of its sums, not its rows.

No Django here: the caller passes the project's currency, the mapping rules, the kinds and the
currency conversion (`convert`), and stores what comes back (apps.actuals.services).
"""

import csv
import gzip
import io
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from operator import itemgetter
from typing import BinaryIO

from apps.actuals.instances import instance_type

MAX_ERRORS = 50
# Unmatched rows are kept summed by what tells them apart; past this many groups the rest go
# into one group, so that a file of unmatched rows cannot hold the memory.
MAX_UNMATCHED_GROUPS = 1000
PROGRESS_EVERY = 50_000
ZERO = Decimal(0)

CHARGE_CATEGORIES = {"usage", "purchase", "tax", "credit", "adjustment"}
HOUR_UNITS = {"hour", "hours", "hr", "hrs", "h", "instance-hours", "instance hours"}
TOKEN_UNITS = {"token", "tokens"}
TOKEN_TYPES = ("input", "cached", "output")
# The plain CSV's units of usage: accelerator-hours and the three kinds of tokens.
PLAIN_UNITS = ("accelerator_hours", "input_tokens", "cached_tokens", "output_tokens")
FOCUS_REQUIRED = (
    "BilledCost",
    "BillingCurrency",
    "BillingPeriodStart",
    "ChargeCategory",
    "ChargePeriodStart",
)
# The plain CSV's columns by their English and French names.
PLAIN_COLUMNS = {
    "month": "month",
    "mois": "month",
    "kind": "kind",
    "nature": "kind",
    "amount": "amount",
    "montant": "amount",
    "currency": "currency",
    "devise": "currency",
    "quantity": "quantity",
    "quantité": "quantity",
    "unit": "unit",
    "unité": "unit",
}
PLAIN_REQUIRED = ("month", "kind", "amount", "currency")
_MONTH = re.compile(r"(\d{4})-(\d{2})")


class FileRefused(Exception):
    """The file as a whole cannot be read (not CSV, no header, a required column missing)."""

    def __init__(self, reason: str = "", missing: Sequence[str] = ()) -> None:
        super().__init__(reason or ", ".join(missing))
        self.reason = reason
        self.missing = tuple(missing)


class NotConvertible(Exception):
    """`convert` cannot turn the amount into the project's currency; str() says why."""


@dataclass(frozen=True)
class Rule:
    """A mapping rule: rows whose `column` (a FOCUS column, or "Tags.<key>") equals `value`
    are of budget line kind `kind`."""

    column: str
    value: str
    kind: str


@dataclass(frozen=True)
class Words:
    """The messages of row errors, in the reader's language (the caller translates)."""

    bad_amount: str
    bad_month: str
    bad_category: str
    bad_kind: str
    bad_quantity: str
    bad_unit: str
    missing: str  # "%(column)s"


# (billing period, month, kind, accelerator, model, token type)
type Key = tuple[date, date, str, str, str, str]


@dataclass
class Total:
    amount: Decimal = ZERO
    accelerator_hours: float = 0.0
    tokens: int = 0
    rows: int = 0
    first_row: int = 0
    description: str = ""


@dataclass
class Reading:
    """What a file holds, summed (see the module's docstring). `totals` of kind "" are the
    unmatched rows, their key's model holding what describes them (service, SKU, category)."""

    format: str = ""
    rows_read: int = 0
    rows_matched: int = 0
    rows_unmatched: int = 0
    amount_unmatched: Decimal = ZERO
    errors: list[tuple[int, str]] = field(default_factory=list)
    error_count: int = 0
    totals: dict[Key, Total] = field(default_factory=dict)
    first_source: str = ""

    @property
    def periods(self) -> set[date]:
        return {key[0] for key in self.totals}

    @property
    def months(self) -> list[date]:
        return sorted({key[1] for key in self.totals})

    def error(self, row: int, message: str) -> None:
        self.error_count += 1
        if len(self.errors) < MAX_ERRORS:
            self.errors.append((row, message))

    def add(self, key: Key, row: int, amount: Decimal, hours: float, tokens: int, text=""):
        total = self.totals.get(key)
        if total is None:
            total = self.totals[key] = Total(first_row=row, description=text)
        total.amount += amount
        total.accelerator_hours += hours
        total.tokens += tokens
        total.rows += 1


def _text_lines(stream: BinaryIO) -> io.TextIOWrapper:
    """The file's text, gunzipped if it is gzip, decoded as UTF-8 (a BOM dropped), as the csv
    module reads it (newline="")."""
    head = stream.read(2)
    stream.seek(0)
    raw = gzip.GzipFile(fileobj=stream) if head == b"\x1f\x8b" else stream
    return io.TextIOWrapper(raw, encoding="utf-8-sig", errors="strict", newline="")


def _month(text: str, cache: dict[str, date]) -> date | None:
    """The first day of the month of an ISO date or date-time ("2025-05-01T00:00:00Z")."""
    day = cache.get(text)
    if day is None:
        match = _MONTH.match(text.strip())
        if match is None or not 1 <= int(match[2]) <= 12:
            return None
        day = cache[text] = date(int(match[1]), int(match[2]), 1)
    return day


def _decimal(text: str) -> Decimal | None:
    try:
        value = Decimal(text)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def _details(text: str, cache: dict[str, dict]) -> dict:
    """SkuPriceDetails (or Tags) as a dict; {} where empty or not a JSON object."""
    if not text:
        return {}
    found = cache.get(text)
    if found is None:
        try:
            found = json.loads(text)
        except ValueError:
            found = {}
        if not isinstance(found, dict):
            found = {}
        if len(cache) < 100_000:
            cache[text] = found
    return found


def token_type(details: dict, meter: str) -> str:
    """ "input", "cached" or "output" for a token row: FOCUS 1.5's draft properties
    (TokenCacheAction Read is cached; TokenDirection or TokenType Input/Output), else the
    SKU meter's words ("Cache Read Input Tokens", "Output Tokens"); "" when none says."""
    if str(details.get("TokenCacheAction", "")).lower() == "read":
        return "cached"
    for name in ("TokenDirection", "TokenType"):
        value = str(details.get(name, "")).lower()
        if value in ("input", "output"):
            return value
        if value.startswith("cache"):
            return "cached"
    words = meter.lower()
    if "cache read" in words or "cached" in words:
        return "cached"
    if "output" in words:
        return "output"
    if "input" in words:
        return "input"
    return ""


def _instance_name(details: dict, row: Sequence[str], columns: dict[str, int]) -> str:
    """The instance type a row bills: SkuPriceDetails' InstanceType, a provider's
    x_InstanceType column, or the part after the last ':' of AWS's x_UsageType."""
    name = details.get("InstanceType")
    if name:
        return str(name)
    index = columns.get("x_InstanceType")
    if index is not None and row[index]:
        return row[index]
    index = columns.get("x_UsageType")
    if index is not None and ":" in row[index]:
        return row[index].rpartition(":")[2]
    return ""


class _Matcher:
    """First matching rule wins. The answer is cached by the raw cells the rules read (the Tags
    cell as written), taken with one C-level itemgetter: a row costs a tuple and a dict look-up."""

    def __init__(self, rules: Sequence[Rule], columns: dict[str, int]) -> None:
        self.rules = rules
        self.columns = columns
        needed = sorted(
            {
                columns[name]
                for rule in rules
                if (name := "Tags" if rule.column.startswith("Tags.") else rule.column) in columns
            }
        )
        self.cells = itemgetter(*needed) if needed else None
        self.cache: dict[object, str] = {}
        self.tags: dict[str, dict] = {}

    def value(self, row: Sequence[str], column: str) -> str:
        if column.startswith("Tags."):
            index = self.columns.get("Tags")
            tags = {} if index is None else _details(row[index], self.tags)
            value = tags.get(column[5:])
            return "" if value is None else str(value)
        index = self.columns.get(column)
        return "" if index is None else row[index]

    def kind(self, row: Sequence[str]) -> str:
        if self.cells is None:
            return ""
        key = self.cells(row)
        found = self.cache.get(key)
        if found is None:
            found = next((r.kind for r in self.rules if self.value(row, r.column) == r.value), "")
            if len(self.cache) < 100_000:
                self.cache[key] = found
        return found


def read_billing(
    stream: BinaryIO,
    *,
    currency: str,
    rules: Sequence[Rule],
    kinds: Iterable[str],
    convert: Callable[[Decimal, str, date, str], Decimal],
    words: Words,
    progress: Callable[[int], None] | None = None,
) -> Reading:
    """Read a FOCUS export or a plain CSV into a Reading; raises FileRefused when the file as a
    whole cannot be read. Rows in error are listed (the first MAX_ERRORS, with their row
    number, the header being row 1) and counted; the caller refuses a file with any."""
    with _text_lines(stream) as text:
        try:
            reader = csv.reader(text)
            header = next(reader, None)
            if not header:
                raise FileRefused()
            header = [name.strip() for name in header]
            reading = Reading()
            if "BilledCost" in header:
                reading.format = "focus"
                _read_focus(reader, header, reading, currency, rules, convert, words, progress)
            else:
                reading.format = "csv"
                _read_plain(reader, header, reading, currency, set(kinds), convert, words, progress)
        except (OSError, EOFError, UnicodeDecodeError, csv.Error) as error:
            raise FileRefused(str(error)) from None
    return reading


def _missing(header: Sequence[str], required: Sequence[str]) -> list[str]:
    return [name for name in required if name not in header]


def _read_focus(reader, header, reading, currency, rules, convert, words, progress) -> None:
    missing = _missing(header, FOCUS_REQUIRED)
    if missing:
        raise FileRefused(missing=missing)
    columns = {name: index for index, name in enumerate(header)}
    cost, billing_currency, period, category, charged = (columns[n] for n in FOCUS_REQUIRED)
    optional = {
        name: columns.get(name)
        for name in (
            "ConsumedQuantity",
            "ConsumedUnit",
            "SkuPriceDetails",
            "SkuMeter",
            "ServiceName",
            "SkuId",
            "InvoiceIssuerName",
            "ProviderName",
            "ServiceProviderName",
            "BillingAccountId",
        )
    }
    matcher = _Matcher(rules, columns)
    months: dict[str, date] = {}
    details_cache: dict[str, dict] = {}
    width = len(header)
    number = 1

    def cell(row, name: str) -> str:
        index = optional[name]
        return "" if index is None else row[index]

    for row in reader:
        number += 1
        if not row:
            continue
        reading.rows_read += 1
        if progress is not None and reading.rows_read % PROGRESS_EVERY == 0:
            progress(reading.rows_read)
        if len(row) != width:
            reading.error(number, words.missing % {"column": header[min(len(row), width - 1)]})
            continue
        amount = _decimal(row[cost])
        if amount is None:
            reading.error(number, words.bad_amount % {"column": "BilledCost"})
            continue
        billing_period = _month(row[period], months)
        month = _month(row[charged], months)
        if billing_period is None or month is None:
            column = "BillingPeriodStart" if billing_period is None else "ChargePeriodStart"
            reading.error(number, words.bad_month % {"column": column})
            continue
        if row[category].strip().lower() not in CHARGE_CATEGORIES:
            reading.error(number, words.bad_category % {"value": row[category]})
            continue
        if row[billing_currency] != currency:
            try:
                amount = convert(amount, row[billing_currency], month, currency)
            except NotConvertible as error:
                reading.error(number, str(error))
                continue
        if not reading.first_source:
            issuer = cell(row, "InvoiceIssuerName") or cell(row, "ProviderName")
            issuer = issuer or cell(row, "ServiceProviderName")
            account = cell(row, "BillingAccountId")
            reading.first_source = " ".join(part for part in (issuer, account) if part)
        kind = matcher.kind(row)
        if not kind:
            reading.rows_unmatched += 1
            reading.amount_unmatched += amount
            text = " · ".join(
                part
                for part in (cell(row, "ServiceName"), cell(row, "SkuId"), row[category])
                if part
            )
            key = (billing_period, month, "", "", text, "")
            if key not in reading.totals and len(reading.totals) >= MAX_UNMATCHED_GROUPS:
                key = (billing_period, month, "", "", "…", "")
            reading.add(key, number, amount, 0.0, 0, text)
            continue
        reading.rows_matched += 1
        details = _details(cell(row, "SkuPriceDetails"), details_cache)
        unit = cell(row, "ConsumedUnit").strip().lower()
        quantity_text = cell(row, "ConsumedQuantity")
        quantity = _decimal(quantity_text) if quantity_text else ZERO
        if quantity is None:
            reading.error(number, words.bad_quantity % {"column": "ConsumedQuantity"})
            continue
        accelerator = model = kind_of_token = ""
        hours = 0.0
        tokens = 0
        if unit in HOUR_UNITS and quantity:
            instance = instance_type(_instance_name(details, row, columns))
            if instance is not None:
                accelerator = instance.accelerator
                hours = float(quantity) * instance.count
        elif unit in TOKEN_UNITS and quantity:
            model = str(details.get("ModelId", ""))
            kind_of_token = token_type(details, cell(row, "SkuMeter"))
            tokens = int(quantity)
        reading.add(
            (billing_period, month, kind, accelerator, model, kind_of_token),
            number,
            amount,
            hours,
            tokens,
        )
    if progress is not None:
        progress(reading.rows_read)


def _read_plain(reader, header, reading, currency, kinds, convert, words, progress) -> None:
    named = [PLAIN_COLUMNS.get(name.lower(), "") for name in header]
    missing = _missing(named, PLAIN_REQUIRED)
    if missing:
        raise FileRefused(missing=missing)
    columns = {name: index for index, name in enumerate(named) if name}
    months: dict[str, date] = {}
    number = 1
    for row in reader:
        number += 1
        if not row or (row[0].startswith("#")):
            continue
        reading.rows_read += 1
        if progress is not None and reading.rows_read % PROGRESS_EVERY == 0:
            progress(reading.rows_read)
        row = [*row, *[""] * (len(header) - len(row))]
        month = _month(row[columns["month"]], months)
        if month is None:
            reading.error(number, words.bad_month % {"column": header[columns["month"]]})
            continue
        kind = row[columns["kind"]].strip()
        if kind not in kinds:
            reading.error(number, words.bad_kind % {"value": kind})
            continue
        amount = _decimal(row[columns["amount"]].strip())
        if amount is None:
            reading.error(number, words.bad_amount % {"column": header[columns["amount"]]})
            continue
        given_currency = row[columns["currency"]].strip().upper()
        if given_currency != currency:
            try:
                amount = convert(amount, given_currency, month, currency)
            except NotConvertible as error:
                reading.error(number, str(error))
                continue
        hours, tokens, token_kind = 0.0, 0, ""
        quantity_text = row[columns["quantity"]].strip() if "quantity" in columns else ""
        unit = row[columns["unit"]].strip() if "unit" in columns else ""
        if quantity_text or unit:
            quantity = _decimal(quantity_text)
            if quantity is None:
                reading.error(number, words.bad_quantity % {"column": header[columns["quantity"]]})
                continue
            if unit not in PLAIN_UNITS:
                reading.error(number, words.bad_unit % {"value": unit})
                continue
            if unit == "accelerator_hours":
                hours = float(quantity)
            else:
                tokens, token_kind = int(quantity), unit.removesuffix("_tokens")
        reading.rows_matched += 1
        reading.add((month, month, kind, "", "", token_kind), number, amount, hours, tokens)
    if progress is not None:
        progress(reading.rows_read)


def template_csv(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """The plain CSV's template: its header and example rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()
