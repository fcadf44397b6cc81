"""Reading billing files without a database: instance types to accelerators with their sources,
token rows by type, and files refused whole."""

import io
from datetime import date
from decimal import Decimal

import pytest

from apps.actuals.instances import INSTANCE_TYPES, instance_type
from apps.actuals.reading import FileRefused, Rule, Words, read_billing, token_type

WORDS = Words(*["%(column)s %(value)s"] * 7)


def read(content: bytes, rules=()):
    return read_billing(
        io.BytesIO(content),
        currency="USD",
        rules=rules,
        kinds=("storage",),
        convert=lambda currency, day: None,
        words=WORDS,
    )


def test_the_issues_instance_types_hold_their_accelerators_with_a_source_each():
    assert (instance_type("p5.48xlarge").accelerator, instance_type("p5.48xlarge").count) == (
        "nvidia-h100-sxm",
        8,
    )
    assert instance_type("P4D.24XLARGE").accelerator == "nvidia-a100-sxm-40gb"
    assert instance_type("a3-highgpu-8g").count == 8
    assert instance_type("standard_nd96isr_h100_v5").accelerator == "nvidia-h100-sxm"
    assert instance_type("m5.large") is None
    for row in INSTANCE_TYPES:
        assert row.source.startswith("https://") and row.evidence in {"P", "S"}
        assert date.fromisoformat(row.as_of)


@pytest.mark.parametrize(
    ("details", "meter", "expected"),
    [
        ({"TokenCacheAction": "Read", "TokenDirection": "Input"}, "", "cached"),
        ({"TokenCacheAction": "Write", "TokenDirection": "Input"}, "", "input"),
        ({"TokenType": "Output"}, "", "output"),
        ({}, "Cache Read Input Tokens", "cached"),
        ({}, "Output Tokens", "output"),
        ({}, "Input Tokens", "input"),
        ({}, "Requests", ""),
    ],
)
def test_token_rows_are_input_cached_or_output(details, meter, expected):
    assert token_type(details, meter) == expected


def test_a_gpu_row_becomes_accelerator_hours_by_the_aws_usage_type():
    content = (
        b"BilledCost,BillingCurrency,BillingPeriodStart,ChargeCategory,ChargePeriodStart,"
        b"ConsumedQuantity,ConsumedUnit,x_UsageType,ServiceName\n"
        b"49.16,USD,2026-03-01,Usage,2026-03-04T10:00:00Z,0.5,Hrs,"
        b"USE1-BoxUsage:p5.48xlarge,EC2\n"
    )
    reading = read(content, [Rule("ServiceName", "EC2", "training_compute")])
    ((key, total),) = reading.totals.items()
    assert key == (
        date(2026, 3, 1),
        date(2026, 3, 1),
        "training_compute",
        "nvidia-h100-sxm",
        "",
        "",
    )
    assert (total.amount, total.accelerator_hours) == (Decimal("49.16"), 4.0)


def test_a_file_not_in_utf8_is_refused_whole():
    with pytest.raises(FileRefused):
        read("month,kind,amount,currency\n2026-01,storage,1,USD\n".encode("utf-16"))


def test_a_plain_csv_skips_comment_lines():
    reading = read(b"month,kind,amount,currency\n# a note\n2026-01,storage,1.5,USD\n")
    assert (reading.rows_read, reading.error_count) == (1, 0)
