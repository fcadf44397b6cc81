"""Reading a billing file: FOCUS 1.0–1.4 exports (CSV, gzipped CSV or Parquet) and the plain
CSV, row by row, summed while streaming into one total per billing period × month × kind × unit
× model or accelerator, so that a file of millions of rows takes the memory of its sums, not its
rows. A Parquet file is read batch by batch, only the columns the reading uses.

Amounts billed in another currency than the project's are summed in their own currency per
charge day, and converted once per currency and day when the file is read (`convert`), at the
rate of that day: a sum times its rate is the sum of its rows times the rate.

No Django here: the caller passes the project's currency, the mapping rules, the kinds and the
exchange rates (`convert`), and stores what comes back (apps.actuals.runs).
"""

import csv
import gzip
import io
import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal, InvalidOperation
from operator import itemgetter
from typing import BinaryIO

from apps.actuals.instances import instance_type
from apps.estimates.currency import ExchangeRate

MAX_ERRORS = 50
# Unmatched rows are kept summed by what tells them apart; past this many groups the rest go
# into one group, so that a file of unmatched rows cannot hold the memory.
MAX_UNMATCHED_GROUPS = 1000
# What is parsed once and looked up after (dates, categories, SKU details, rule cells): at most
# this many different texts each, so that a file of all-different cells cannot hold the memory.
MAX_CACHED = 100_000
PROGRESS_EVERY = 50_000
PARQUET_BATCH_ROWS = 16_384
PARQUET_MAGIC = b"PAR1"
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
FOCUS_OPTIONAL = (
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
    "x_InstanceType",
    "x_UsageType",
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
_DAY = re.compile(r"(\d{4})-(\d{2})(?:-(\d{2}))?")


class FileRefused(Exception):
    """The file as a whole cannot be read (not CSV, no header, a required column missing)."""

    def __init__(self, reason: str = "", missing: Sequence[str] = ()) -> None:
        super().__init__(reason or ", ".join(missing))
        self.reason = reason
        self.missing = tuple(missing)


class NotConvertible(Exception):
    """`convert` has no rate for the currency on the day; str() says why."""


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
# The rate of 1 unit of a currency in the project's currency on a day; raises NotConvertible.
type Convert = Callable[[str, date], ExchangeRate]


@dataclass(slots=True)
class Total:
    amount: Decimal = ZERO
    accelerator_hours: float = 0.0
    tokens: int = 0
    rows: int = 0
    first_row: int = 0
    description: str = ""

    def merge(self, other: "Total", rate: Decimal) -> None:
        self.amount += other.amount * rate
        self.accelerator_hours += other.accelerator_hours
        self.tokens += other.tokens
        self.rows += other.rows
        self.first_row = min(self.first_row or other.first_row, other.first_row)


@dataclass
class Reading:
    """What a file holds, summed (see the module's docstring). `totals` of kind "" are the
    unmatched rows, their key's model holding what describes them (service, SKU, category).
    `exchange_rates`: the rates amounts in another currency were converted at, by currency and
    day."""

    format: str = ""
    rows_read: int = 0
    rows_matched: int = 0
    rows_unmatched: int = 0
    amount_unmatched: Decimal = ZERO
    errors: list[tuple[int, str]] = field(default_factory=list)
    error_count: int = 0
    totals: dict[Key, Total] = field(default_factory=dict)
    # Rows in another currency, summed in it: (key, currency, charge day) → total.
    billed: dict[tuple[Key, str, date], Total] = field(default_factory=dict)
    exchange_rates: list[ExchangeRate] = field(default_factory=list)
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

    def convert(self, convert: Convert) -> None:
        """Fold the rows billed in another currency into `totals` at the rate of each currency
        and charge day (one `convert` a currency and day); a currency without a rate is one
        error at its first row, its rows counted as errors."""
        rates: dict[tuple[str, date], ExchangeRate | NotConvertible] = {}
        refused: dict[str, tuple[int, str, int]] = {}  # currency → (first row, why, rows)
        for (key, currency, day), billed in sorted(
            self.billed.items(), key=lambda item: item[1].first_row
        ):
            rate = rates.get((currency, day))
            if rate is None:
                try:
                    rate = convert(currency, day)
                except NotConvertible as error:
                    rate = error
                rates[currency, day] = rate
            if isinstance(rate, NotConvertible):
                row, why, count = refused.get(currency, (billed.first_row, str(rate), 0))
                refused[currency] = (row, why, count + billed.rows)
                continue
            total = self.totals.get(key)
            if total is None:
                total = self.totals[key] = Total(
                    first_row=billed.first_row, description=billed.description
                )
            total.merge(billed, rate.rate)
        self.billed = {}
        self.exchange_rates = sorted(
            (rate for rate in rates.values() if isinstance(rate, ExchangeRate)),
            key=lambda rate: (rate.from_currency, rate.asked or date.min),
        )
        if refused:
            for row, why, count in refused.values():
                self.error_count += count
                self.errors.append((row, why))
            self.errors = sorted(self.errors)[:MAX_ERRORS]

    def count_unmatched(self) -> None:
        self.amount_unmatched = sum(
            (total.amount for key, total in self.totals.items() if not key[2]), ZERO
        )


def _text_lines(stream: BinaryIO) -> io.TextIOWrapper:
    """The file's text, gunzipped if it is gzip, decoded as UTF-8 (a BOM dropped), as the csv
    module reads it (newline="")."""
    head = stream.read(2)
    stream.seek(0)
    raw = gzip.GzipFile(fileobj=stream) if head == b"\x1f\x8b" else stream
    return io.TextIOWrapper(raw, encoding="utf-8-sig", errors="strict", newline="")


def _is_parquet(stream: BinaryIO) -> bool:
    head = stream.read(4)
    stream.seek(0)
    return head == PARQUET_MAGIC


def _strings(column) -> list[str]:
    """A Parquet column's cells (a pyarrow Array) as the text a CSV export would hold: numbers
    and dates as Arrow writes them ("98.32", "2025-05-01 00:00:00.000000Z"), a map or struct
    (Tags, SkuPriceDetails) as JSON, an empty cell as ""."""
    import pyarrow as pa  # see _parquet_rows
    import pyarrow.compute as pc

    kind = column.type
    if pa.types.is_map(kind) or pa.types.is_nested(kind):
        cells = column.to_pylist()
        if pa.types.is_map(kind):  # a list of (key, value) pairs
            cells = [None if cell is None else dict(cell) for cell in cells]
        return ["" if cell is None else json.dumps(cell, default=str) for cell in cells]
    if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)):
        column = pc.cast(column, pa.string())
    return pc.fill_null(column, "").to_pylist()


def _parquet_rows(
    stream: BinaryIO, rules: Sequence[Rule]
) -> tuple[list[str], Iterator[tuple[str, ...]]]:
    """A Parquet file's header and rows of text, batch by batch, only the columns a FOCUS or a
    plain reading and the rules use (a FOCUS export has dozens). FileRefused when pyarrow cannot
    read it."""
    # pyarrow is imported when a Parquet file is read, not with this module: it weighs 80 MiB
    # in every process that imports the actuals app (web workers, Celery workers).
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(stream)
    except pa.ArrowException as error:
        raise FileRefused(str(error)) from None
    names = parquet.schema_arrow.names
    wanted = {*FOCUS_REQUIRED, *FOCUS_OPTIONAL, "Tags", *PLAIN_COLUMNS}
    wanted |= {"Tags" if rule.column.startswith("Tags.") else rule.column for rule in rules}
    header = [name for name in names if name in wanted or name.lower() in wanted]

    def rows() -> Iterator[tuple[str, ...]]:
        try:
            for batch in parquet.iter_batches(batch_size=PARQUET_BATCH_ROWS, columns=header):
                yield from zip(*(_strings(column) for column in batch.columns), strict=True)
        except pa.ArrowException as error:
            raise FileRefused(str(error)) from None

    return header, rows()


def read_billing(
    stream: BinaryIO,
    *,
    currency: str,
    rules: Sequence[Rule],
    kinds: Iterable[str],
    convert: Convert,
    words: Words,
    progress: Callable[[int], None] | None = None,
) -> Reading:
    """Read a FOCUS export (CSV, gzipped CSV or Parquet) or a plain CSV into a Reading; raises
    FileRefused when the file as a whole cannot be read. Rows in error are listed (the first
    MAX_ERRORS, with their row number, the header being row 1, a Parquet file's first row
    row 2 as in its CSV) and counted; the caller refuses a file with any."""
    try:
        if _is_parquet(stream):
            header, rows = _parquet_rows(stream, rules)
            return _read(rows, header, "parquet", currency, rules, kinds, convert, words, progress)
        with _text_lines(stream) as text:
            reader = csv.reader(text)
            header = next(reader, None)
            return _read(reader, header, "", currency, rules, kinds, convert, words, progress)
    except (OSError, EOFError, UnicodeDecodeError, csv.Error) as error:
        raise FileRefused(str(error)) from None


def _read(rows, header, container, currency, rules, kinds, convert, words, progress) -> Reading:
    if not header:
        raise FileRefused()
    header = [name.strip() for name in header]
    reading = Reading()
    if "BilledCost" in header:
        reading.format = container or "focus"
        _read_focus(rows, header, reading, currency, rules, words, progress)
    else:
        reading.format = container or "csv"
        _read_plain(rows, header, reading, currency, set(kinds), words, progress)
    if progress is not None:
        progress(reading.rows_read)
    reading.convert(convert)
    reading.count_unmatched()
    return reading


def _day(text: str) -> tuple[date, date] | None:
    """The first day of the month, and the day, of an ISO date or date-time
    ("2025-05-01T00:00:00Z"; "2025-05" is the first of May)."""
    match = _DAY.match(text.strip())
    if match is None:
        return None
    year, month, day = int(match[1]), int(match[2]), int(match[3] or 1)
    try:
        return date(year, month, 1), date(year, month, day)
    except ValueError:
        return None


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
        if len(cache) < MAX_CACHED:
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


def _instance_name(details: dict, instance_column: str, usage_type: str) -> str:
    """The instance type a row bills: SkuPriceDetails' InstanceType, a provider's
    x_InstanceType column, or the part after the last ':' of AWS's x_UsageType."""
    name = details.get("InstanceType")
    if name:
        return str(name)
    if instance_column:
        return instance_column
    if ":" in usage_type:
        return usage_type.rpartition(":")[2]
    return ""


def _cells(columns: dict[str, int], names: Sequence[str]) -> Callable[[Sequence[str]], tuple]:
    """The cells of `names` a row has, as a tuple, by one C-level itemgetter (columns the file
    has not are left out)."""
    present = [columns[name] for name in names if name in columns]
    if len(present) > 1:
        return itemgetter(*present)
    if present:
        index = present[0]
        return lambda row: (row[index],)
    return lambda row: ()


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
            if len(self.cache) < MAX_CACHED:
                self.cache[key] = found
        return found


# What a matched row's usage cells say: accelerator, model, token type, how its quantity
# counts (0 not at all, 1 instance-hours, 2 tokens) and the accelerators of one instance.
type Usage = tuple[str, str, str, int, int]
USAGE_CELLS = ("ConsumedUnit", "SkuPriceDetails", "SkuMeter", "x_InstanceType", "x_UsageType")


def _usage(cells: dict[str, str], details_cache: dict[str, dict]) -> Usage:
    unit = cells.get("ConsumedUnit", "").strip().lower()
    details = _details(cells.get("SkuPriceDetails", ""), details_cache)
    if unit in HOUR_UNITS:
        name = _instance_name(
            details, cells.get("x_InstanceType", ""), cells.get("x_UsageType", "")
        )
        instance = instance_type(name)
        if instance is not None:
            return instance.accelerator, "", "", 1, instance.count
    elif unit in TOKEN_UNITS:
        model = str(details.get("ModelId", ""))
        return "", model, token_type(details, cells.get("SkuMeter", "")), 2, 0
    return "", "", "", 0, 0


def _read_focus(rows, header, reading, currency, rules, words, progress) -> None:
    """The FOCUS rows summed. The loop is the import's cost per row (10^6 rows in seconds): the
    cells that decide where a row goes (its dates, category, currency, the cells the rules and
    its usage read) are taken by one C-level itemgetter, and what they decide is worked out
    once per different combination (`_Sorter`) and looked up after, down to the sum the row
    adds to; a row then costs its amount's Decimal and its quantity's float."""
    missing = [name for name in FOCUS_REQUIRED if name not in header]
    if missing:
        raise FileRefused(missing=missing)
    columns = {name: index for index, name in enumerate(header)}
    cost = columns["BilledCost"]
    quantity_at = columns.get("ConsumedQuantity")
    sorter = _Sorter(columns, reading, currency, rules, words)
    places = sorter.places
    width = len(header)
    number = 1
    rows_read = matched = unmatched = 0
    isfinite = math.isfinite
    for row in rows:
        number += 1
        if len(row) != width:
            if not row:
                continue
            rows_read += 1
            reading.error(number, words.missing % {"column": header[min(len(row), width - 1)]})
            continue
        rows_read += 1
        if progress is not None and rows_read % PROGRESS_EVERY == 0:
            progress(rows_read)
        try:
            amount = Decimal(row[cost])
        except InvalidOperation:
            amount = None
        if amount is None or not amount.is_finite():
            reading.error(number, words.bad_amount % {"column": "BilledCost"})
            continue
        place = places.get(sorter.cells(row)) or sorter.place(row)
        if place.error:
            reading.error(number, place.error)
            continue
        if not reading.first_source:
            reading.first_source = _source(row, columns)
        quantity = 0.0
        if place.matched:
            quantity_text = row[quantity_at] if quantity_at is not None else ""
            if quantity_text:
                try:
                    quantity = float(quantity_text)
                except ValueError:
                    quantity = math.nan
                if not isfinite(quantity):
                    reading.error(number, words.bad_quantity % {"column": "ConsumedQuantity"})
                    continue
            matched += 1
        else:
            unmatched += 1
        if quantity and place.counts:
            total = place.used or sorter.total(place, number, used=True)
            if place.counts == 1:
                total.accelerator_hours += quantity * place.per_instance
            else:
                total.tokens += int(quantity)
        else:
            total = place.plain or sorter.total(place, number, used=False)
        total.amount += amount
        total.rows += 1
    reading.rows_read += rows_read
    reading.rows_matched += matched
    reading.rows_unmatched += unmatched


@dataclass(slots=True)
class _Place:
    """Where the rows of one combination of deciding cells go: an error, or the keys of their
    sums (`key_used` when the row has a quantity of usage that counts, accelerator-hours or
    tokens; `key_plain` otherwise) in the project's currency or, `foreign`, in theirs on
    their charge day; the sums themselves once made."""

    error: str = ""
    matched: bool = False
    key_plain: tuple = ()
    key_used: tuple = ()
    foreign: bool = False
    counts: int = 0  # 0: the quantity does not count, 1: instance-hours, 2: tokens
    per_instance: int = 0
    description: str = ""
    plain: Total | None = None
    used: Total | None = None


class _Sorter:
    """Works out where a row goes from the cells that decide it, once per different
    combination of them (at most MAX_CACHED kept)."""

    def __init__(self, columns, reading, currency, rules, words) -> None:
        self.columns = columns
        self.reading = reading
        self.currency = currency
        self.words = words
        self.period, self.charged, self.category, self.billing_currency = (
            columns[name]
            for name in (
                "BillingPeriodStart",
                "ChargePeriodStart",
                "ChargeCategory",
                "BillingCurrency",
            )
        )
        self.matcher = _Matcher(rules, columns)
        rule_columns = sorted(
            {
                "Tags" if rule.column.startswith("Tags.") else rule.column
                for rule in rules
                if ("Tags" if rule.column.startswith("Tags.") else rule.column) in columns
            }
        )
        self.usage_names = [name for name in USAGE_CELLS if name in columns]
        self.describe = _cells(columns, ("ServiceName", "SkuId"))
        deciding = (
            "BillingPeriodStart",
            "ChargePeriodStart",
            "ChargeCategory",
            "BillingCurrency",
            *rule_columns,
            *self.usage_names,
            "ServiceName",
            "SkuId",
        )
        self.cells = _cells(columns, list(dict.fromkeys(deciding)))
        self.usage_cells = _cells(columns, self.usage_names)
        self.places: dict[tuple, _Place] = {}
        self.days: dict[str, tuple[date, date] | bool] = {}
        self.details: dict[str, dict] = {}

    def _dated(self, text: str) -> tuple[date, date] | bool:
        found = self.days.get(text)
        if found is None:
            found = _day(text) or False
            if len(self.days) < MAX_CACHED:
                self.days[text] = found
        return found

    def place(self, row: Sequence[str]) -> _Place:
        place = self._place(row)
        if len(self.places) < MAX_CACHED:
            self.places[self.cells(row)] = place
        return place

    def _place(self, row: Sequence[str]) -> _Place:
        words = self.words
        billing_period, charge = self._dated(row[self.period]), self._dated(row[self.charged])
        if not billing_period or not charge:
            column = "ChargePeriodStart" if billing_period else "BillingPeriodStart"
            return _Place(error=words.bad_month % {"column": column})
        category = row[self.category]
        if category.strip().lower() not in CHARGE_CATEGORIES:
            return _Place(error=words.bad_category % {"value": category})
        row_currency = row[self.billing_currency]
        foreign = row_currency != self.currency

        def keyed(key: tuple) -> tuple:
            return (key, row_currency.strip().upper(), charge[1]) if foreign else key

        kind = self.matcher.kind(row)
        if not kind:
            text = " · ".join(part for part in (*self.describe(row), category) if part)
            key = (billing_period[0], charge[0], "", "", text, "")
            if key not in self.reading.totals and len(self.reading.totals) >= MAX_UNMATCHED_GROUPS:
                key = (billing_period[0], charge[0], "", "", "…", "")
            return _Place(key_plain=keyed(key), foreign=foreign, description=text)
        cells = dict(zip(self.usage_names, self.usage_cells(row), strict=True))
        accelerator, model, token_kind, counts, per_instance = _usage(cells, self.details)
        plain = (billing_period[0], charge[0], kind, "", "", "")
        used = (billing_period[0], charge[0], kind, accelerator, model, token_kind)
        return _Place(
            matched=True,
            key_plain=keyed(plain),
            key_used=keyed(used),
            foreign=foreign,
            counts=counts,
            per_instance=per_instance,
        )

    def total(self, place: _Place, number: int, *, used: bool) -> Total:
        """The sum the rows of `place` add to, made at its first row."""
        key = place.key_used if used else place.key_plain
        sums = self.reading.billed if place.foreign else self.reading.totals
        total = sums.get(key)
        if total is None:
            total = sums[key] = Total(first_row=number, description=place.description)
        if used:
            place.used = total
        else:
            place.plain = total
        return total


def _source(row: Sequence[str], columns: dict[str, int]) -> str:
    """Who billed: the invoice issuer (or provider) and the billing account."""

    def cell(name: str) -> str:
        index = columns.get(name)
        return "" if index is None else row[index]

    issuer = cell("InvoiceIssuerName") or cell("ProviderName") or cell("ServiceProviderName")
    return " ".join(part for part in (issuer, cell("BillingAccountId")) if part)


def _read_plain(rows, header, reading, currency, kinds, words, progress) -> None:
    named = [PLAIN_COLUMNS.get(name.lower(), "") for name in header]
    missing = [name for name in PLAIN_REQUIRED if name not in named]
    if missing:
        raise FileRefused(missing=missing)
    columns = {name: index for index, name in enumerate(named) if name}
    number = 1
    for row in rows:
        number += 1
        if not row or (row[0].startswith("#")):
            continue
        reading.rows_read += 1
        if progress is not None and reading.rows_read % PROGRESS_EVERY == 0:
            progress(reading.rows_read)
        row = [*row, *[""] * (len(header) - len(row))]
        charge = _day(row[columns["month"]])
        if charge is None:
            reading.error(number, words.bad_month % {"column": header[columns["month"]]})
            continue
        month, day = charge
        kind = row[columns["kind"]].strip()
        if kind not in kinds:
            reading.error(number, words.bad_kind % {"value": kind})
            continue
        amount = _decimal(row[columns["amount"]].strip())
        if amount is None:
            reading.error(number, words.bad_amount % {"column": header[columns["amount"]]})
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
        key = (month, month, kind, "", "", token_kind)
        given_currency = row[columns["currency"]].strip().upper()
        if given_currency == currency:
            reading.add(key, number, amount, hours, tokens)
            continue
        foreign = (key, given_currency, day)
        total = reading.billed.get(foreign)
        if total is None:
            total = reading.billed[foreign] = Total(first_row=number)
        total.amount += amount
        total.accelerator_hours += hours
        total.tokens += tokens
        total.rows += 1


def template_csv(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """The plain CSV's template: its header and example rows."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()
