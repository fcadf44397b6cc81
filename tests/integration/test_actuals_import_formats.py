"""Importing bills in another currency than the project's, converted at the ECB's rate of each
charge's day, and FOCUS exports written as Parquet, which import as their CSV does."""

import csv
import io
import json
from datetime import date
from decimal import Decimal

import pyarrow as pa
import pyarrow.csv
import pyarrow.parquet as pq
import pytest

from apps.actuals import reading
from apps.actuals.currency import rates_of
from apps.actuals.models import ActualAmount
from apps.actuals.services import mapping_rule_create
from tests.factories import load_ecb, make_manager, make_project
from tests.integration.test_actuals_import import (
    AI_EXAMPLES,
    FOCUS,
    provider_export,
    run_import,
    tokens,
    total,
    translation_rules,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def project():
    project = make_project(make_manager("importer"), "Billing", currency="USD")
    mapping_rule_create(
        project=project,
        column="ServiceCategory",
        value="AI and Machine Learning",
        kind="inference_compute",
    )
    return project


# Friday 30 May 2025, the Saturday and Sunday after (no ECB rate: Friday's), Monday 2 June.
CHARGE_DAYS = ("2025-05-30", "2025-05-31", "2025-06-01", "2025-06-02")


def in_euros(name: str) -> bytes:
    """A FOCUS AI example billed in euros, its rows charged on CHARGE_DAYS in turn."""
    rows = list(csv.DictReader(io.StringIO((FOCUS / name).read_text(encoding="utf-8"))))
    out = io.StringIO()
    writer = csv.DictWriter(out, list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for index, row in enumerate(rows):
        day = CHARGE_DAYS[index % len(CHARGE_DAYS)]
        writer.writerow(row | {"BillingCurrency": "EUR", "ChargePeriodStart": f"{day}T00:00:00Z"})
    return out.getvalue().encode()


def test_a_bill_in_euros_is_converted_at_the_ecb_rate_of_each_charge_day(project):
    load_ecb()  # 1 EUR = 1.1339 USD on 30 May 2025, 1.1419 USD on 2 June
    record = run_import(project, in_euros(AI_EXAMPLES[1]), source="eu")
    assert record.status == "done", record.errors
    # 50.00 EUR on Friday and 50.00 on Saturday at Friday's 1.1339, 2.25 on Sunday at Friday's,
    # 2.25 on Monday at 1.1419: 56.695 + 56.695 + 2.551275 + 2.569275.
    assert total(project, month=date(2025, 5, 1)) == Decimal("113.390000")
    assert total(project, month=date(2025, 6, 1)) == Decimal("5.120550")
    assert total(project).quantize(Decimal("0.01")) == Decimal("118.51")
    assert tokens(project, "solora-atlas-5.5", "input") == 10_000_000
    rates = rates_of(record.exchange_rates)
    assert [(r.asked.isoformat(), str(r.rate), r.date.isoformat(), r.fell_back) for r in rates] == [
        ("2025-05-30", "1.1339", "2025-05-30", False),
        ("2025-05-31", "1.1339", "2025-05-30", True),
        ("2025-06-01", "1.1339", "2025-05-30", True),
        ("2025-06-02", "1.1419", "2025-06-02", False),
    ]
    assert {(r.from_currency, r.to_currency, r.source) for r in rates} == {("EUR", "USD", "ecb")}


def test_unmatched_rows_in_euros_are_reported_in_the_projects_currency(project):
    load_ecb()
    project.mapping_rules.all().delete()
    record = run_import(project, in_euros(AI_EXAMPLES[1]))
    assert record.rows_unmatched == 4
    assert record.amount_unmatched == Decimal("118.510550")


def test_a_currency_without_a_rate_refuses_the_file_naming_it(project):
    load_ecb()
    content = in_euros(AI_EXAMPLES[1]).replace(b",EUR,", b",SEK,")
    record = run_import(project, content)
    assert record.status == "failed"
    assert record.error_count == 4
    assert [error["row"] for error in record.errors] == [2]
    assert "SEK" in record.errors[0]["message"]
    assert not ActualAmount.objects.filter(project=project).exists()


def test_a_code_that_is_no_currency_is_refused_by_name(project):
    content = (FOCUS / AI_EXAMPLES[0]).read_bytes().replace(b",USD,", b",DOLLARS,", 1)
    record = run_import(project, content)
    assert record.status == "failed"
    assert "DOLLARS" in record.errors[0]["message"]


def parquet(table: pa.Table, row_group_size: int = 2) -> bytes:
    out = io.BytesIO()
    pq.write_table(table, out, row_group_size=row_group_size)
    return out.getvalue()


def typed_table(content: bytes) -> pa.Table:
    """The CSV as pyarrow reads it with its own types: costs as numbers, periods as UTC
    timestamps, as a provider's Parquet export holds them."""
    return pyarrow.csv.read_csv(io.BytesIO(content))


def test_the_focus_ai_examples_as_parquet_import_as_their_csv(project):
    for name in AI_EXAMPLES:
        content = (FOCUS / name).read_bytes()
        table = typed_table(content)
        assert pa.types.is_timestamp(table.schema.field("ChargePeriodStart").type)
        record = run_import(project, parquet(table), name.replace(".csv", ".parquet"), name)
        assert record.status == "done", record.errors
        assert record.format == "parquet"
        assert record.period_start == record.period_end == date(2025, 5, 1)
    assert total(project, source=AI_EXAMPLES[0]) == Decimal("94.50")
    assert total(project, source=AI_EXAMPLES[1]) == Decimal("104.50")
    assert total(project, source=AI_EXAMPLES[2]) == Decimal("47.50")
    assert tokens(project, "solora-saturn-4.8", "input") == 8_400_000
    assert tokens(project, "solora-neptune-5.0", "cached") == 50_000_000
    assert tokens(project, "solora-neptune-5.0", "input") == 15_000_000


def test_a_provider_export_as_parquet_with_tags_as_a_map_reads_batch_by_batch(project, monkeypatch):
    monkeypatch.setattr(reading, "PARQUET_BATCH_ROWS", 500)
    translation_rules(project)
    content = provider_export()
    from_csv = run_import(project, content, source="csv-copy")
    table = typed_table(content)
    tags = [
        list(json.loads(text).items()) if text else None
        for text in table.column("Tags").to_pylist()
    ]
    table = table.set_column(
        table.schema.get_field_index("Tags"),
        "Tags",
        pa.array(tags, pa.map_(pa.string(), pa.string())),
    )
    record = run_import(project, parquet(table, row_group_size=1000), "bill.parquet")
    assert record.status == "done", record.errors
    assert (record.rows_read, record.rows_matched, record.rows_unmatched) == (
        from_csv.rows_read,
        from_csv.rows_matched,
        from_csv.rows_unmatched,
    )
    assert record.amount_unmatched == from_csv.amount_unmatched
    assert total(project, kind="training_compute", source=record.source) == Decimal("295047.08")
    assert total(project, kind="storage", source=record.source) == Decimal("23.00")


def test_a_parquet_file_with_a_bad_row_is_refused_whole_with_its_number(project):
    table = typed_table((FOCUS / AI_EXAMPLES[1]).read_bytes())
    categories = table.column("ChargeCategory").to_pylist()
    categories[2] = "Refund"
    table = table.set_column(
        table.schema.get_field_index("ChargeCategory"), "ChargeCategory", pa.array(categories)
    )
    record = run_import(project, parquet(table), "bill.parquet")
    assert record.status == "failed"
    assert [error["row"] for error in record.errors] == [4]  # as the row of its CSV
    assert not ActualAmount.objects.filter(project=project).exists()


def test_a_broken_parquet_file_is_refused(project):
    record = run_import(project, b"PAR1 not really parquet", "bill.parquet")
    assert record.status == "failed"
    assert "Parquet" in record.errors[0]["message"]
