"""Importing billing files into a project's actuals: the FOCUS specification's AI examples, a
provider-style export of thousands of rows, the plain CSV; idempotent, all or nothing."""

import csv
import gzip
import io
import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Sum

from apps.actuals.models import ActualAmount, ActualsImport
from apps.actuals.runs import actuals_import_run
from apps.actuals.services import actuals_import_create, mapping_rule_create
from tests.factories import make_manager, make_project

pytestmark = pytest.mark.django_db

FOCUS = Path(__file__).parent / "data" / "focus"
AI_EXAMPLES = (
    "per_token_foundation_model_api.csv",
    "multi_model_usage.csv",
    "cached_tokens_via_csp_marketplace.csv",
)


@pytest.fixture
def project():
    return make_project(make_manager("importer"), "Billing", currency="USD")


def run_import(project, content: bytes, name="bill.csv", source="") -> ActualsImport:
    record = actuals_import_create(
        project=project,
        user=project.owner,
        upload=SimpleUploadedFile(name, content, "text/csv"),
        source=source,
    )
    return actuals_import_run(import_id=record.pk)


def total(project, **filters) -> Decimal:
    return ActualAmount.objects.filter(project=project, **filters).aggregate(s=Sum("amount"))["s"]


def tokens(project, model: str, token_type: str) -> int:
    return ActualAmount.objects.filter(
        project=project, model=model, token_type=token_type
    ).aggregate(s=Sum("tokens"))["s"]


def test_focus_ai_examples_import_to_the_cent_with_tokens_by_model(project):
    mapping_rule_create(
        project=project,
        column="ServiceCategory",
        value="AI and Machine Learning",
        kind="inference_compute",
    )
    for name in AI_EXAMPLES:
        # One source each: the three examples bill the same period from different issuers.
        record = run_import(project, (FOCUS / name).read_bytes(), name, source=name)
        assert record.status == "done", record.errors
        assert record.rows_unmatched == 0
        assert record.period_start == record.period_end == date(2025, 5, 1)
    # 42.00 + 52.50; 50.00 + 50.00 + 2.25 + 2.25; 10.00 + 37.50
    assert total(project, source=AI_EXAMPLES[0]) == Decimal("94.50")
    assert total(project, source=AI_EXAMPLES[1]) == Decimal("104.50")
    assert total(project, source=AI_EXAMPLES[2]) == Decimal("47.50")
    assert total(project, kind="inference_compute") == Decimal("246.50")
    assert tokens(project, "solora-saturn-4.8", "input") == 8_400_000
    assert tokens(project, "solora-saturn-4.8", "output") == 2_100_000
    assert tokens(project, "solora-atlas-5.5", "input") == 10_000_000
    assert tokens(project, "solora-atlas-5.5", "output") == 2_000_000
    assert tokens(project, "solora-atlas-5.4-mini", "input") == 3_000_000
    assert tokens(project, "solora-atlas-5.4-mini", "output") == 500_000
    # Cache read is cached input; a cache write is input written, billed as input.
    assert tokens(project, "solora-neptune-5.0", "cached") == 50_000_000
    assert tokens(project, "solora-neptune-5.0", "input") == 15_000_000


def test_unmatched_rows_are_reported_with_their_amount(project):
    record = run_import(project, (FOCUS / AI_EXAMPLES[1]).read_bytes())
    assert record.status == "done"
    assert (record.rows_read, record.rows_matched, record.rows_unmatched) == (4, 0, 4)
    assert record.amount_unmatched == Decimal("104.50")
    # Kept by service · SKU · category, each with its rows, amount and first row number.
    unmatched = ActualAmount.objects.filter(project=project, kind="").order_by("first_row")
    assert [(u.first_row, u.rows, u.amount) for u in unmatched] == [
        (2, 1, Decimal("50.00")),
        (3, 1, Decimal("50.00")),
        (4, 1, Decimal("2.25")),
        (5, 1, Decimal("2.25")),
    ]
    assert unmatched[0].description == ("Solora Generative AI API · solora-atlas-5.5-input · Usage")
    assert total(project, kind="inference_compute") is None


FIELDS = [
    "BilledCost",
    "EffectiveCost",
    "BillingCurrency",
    "BillingPeriodStart",
    "BillingPeriodEnd",
    "ChargePeriodStart",
    "ChargePeriodEnd",
    "ChargeCategory",
    "ConsumedQuantity",
    "ConsumedUnit",
    "PricingUnit",
    "ServiceName",
    "SkuId",
    "SkuMeter",
    "SkuPriceDetails",
    "ResourceId",
    "SubAccountId",
    "SubAccountName",
    "Tags",
    "InvoiceIssuerName",
    "BillingAccountId",
]


def provider_export(month: int = 3, gpu_price: str = "98.32") -> bytes:
    """A provider-style FOCUS export of one month (2026-`month`): per day and hour-slot GPU
    instance-hours, storage, a credit per week, a tax line and corrections; 4,000+ rows."""
    out = io.StringIO()
    writer = csv.DictWriter(out, FIELDS, lineterminator="\n")
    writer.writeheader()
    period = f"2026-{month:02d}-01T00:00:00Z"
    end = f"2026-{month + 1:02d}-01T00:00:00Z"

    def row(cost, category, **more):
        writer.writerow(
            {
                "BilledCost": cost,
                "EffectiveCost": cost,
                "BillingCurrency": "USD",
                "BillingPeriodStart": period,
                "BillingPeriodEnd": end,
                "ChargePeriodStart": f"2026-{month:02d}-05T00:00:00Z",
                "ChargePeriodEnd": f"2026-{month:02d}-05T01:00:00Z",
                "ChargeCategory": category,
                "InvoiceIssuerName": "Amazon Web Services",
                "BillingAccountId": "123456789012",
                "SubAccountId": "210987654321",
                "SubAccountName": "ml-team",
                **more,
            }
        )

    for slot in range(3000):  # 3,000 instance-hours of p5.48xlarge (8 × H100)
        row(
            gpu_price,
            "Usage",
            ConsumedQuantity="1",
            ConsumedUnit="Hours",
            ServiceName="Amazon Elastic Compute Cloud",
            SkuId="P5-OD",
            SkuPriceDetails=json.dumps({"InstanceType": "p5.48xlarge"}),
            ResourceId=f"i-{slot % 4}",
            Tags=json.dumps({"project": "translation"}),
        )
    for _ in range(600):  # 600 × 2 h of p4d.24xlarge (8 × A100 40GB), another project
        row(
            "65.376",
            "Usage",
            ConsumedQuantity="2",
            ConsumedUnit="Hours",
            ServiceName="Amazon Elastic Compute Cloud",
            SkuId="P4D-OD",
            SkuPriceDetails=json.dumps({"InstanceType": "p4d.24xlarge"}),
            Tags=json.dumps({"project": "vision"}),
        )
    for _ in range(400):  # 400 storage lines of 0.0575 (2.5 GB-month × 0.023)
        row(
            "0.0575",
            "Usage",
            ConsumedQuantity="2.5",
            ConsumedUnit="GB-Mo",
            ServiceName="Amazon Simple Storage Service",
            SkuId="S3-STD",
            Tags=json.dumps({"project": "translation"}),
        )
    for _ in range(4):  # credits
        row(
            "-250.00",
            "Credit",
            ServiceName="Amazon Elastic Compute Cloud",
            SkuId="CREDIT",
            Tags=json.dumps({"project": "translation"}),
        )
    row(
        "1234.56",
        "Tax",
        ServiceName="Amazon Elastic Compute Cloud",
        SkuId="TAX",
        Tags=json.dumps({"project": "translation"}),
    )
    for correction in ("-98.32", "-98.32", "49.16"):  # two hours refunded, half an hour added
        row(
            correction,
            "Adjustment",
            ServiceName="Amazon Elastic Compute Cloud",
            SkuId="P5-OD",
            Tags=json.dumps({"project": "translation"}),
        )
    row("19.99", "Purchase", ServiceName="AWS Support (Business)", SkuId="SUPPORT")
    return out.getvalue().encode()


def translation_rules(project):
    mapping_rule_create(
        project=project, column="ServiceName", value="Amazon Simple Storage Service", kind="storage"
    )
    mapping_rule_create(
        project=project, column="Tags.project", value="translation", kind="training_compute"
    )


def test_a_provider_export_sums_to_the_hand_summed_reference(project):
    translation_rules(project)
    record = run_import(project, provider_export())
    assert record.status == "done", record.errors
    assert record.rows_read == 3000 + 600 + 400 + 4 + 1 + 3 + 1
    assert record.rows_matched == 3000 + 400 + 4 + 1 + 3
    assert record.rows_unmatched == 600 + 1
    # 600 × 65.376 = 39,225.60 (another project's A100s) + 19.99 of support
    assert record.amount_unmatched == Decimal("39245.59")
    # 3,000 × 98.32 = 294,960.00; − 4 × 250 credits; + 1,234.56 tax; − 98.32 × 2 + 49.16
    assert total(project, kind="training_compute") == Decimal("295047.08")
    # 400 × 0.0575 = 23.00 (storage, ruled first although tagged "translation")
    assert total(project, kind="storage") == Decimal("23.00")
    hours = ActualAmount.objects.filter(project=project, accelerator="nvidia-h100-sxm")
    assert hours.aggregate(s=Sum("accelerator_hours"))["s"] == 3000 * 8
    assert record.source == "Amazon Web Services 123456789012"
    # Summed while reading: a handful of rows, not one per billed line.
    assert ActualAmount.objects.filter(project=project).count() < 10


def test_importing_the_same_file_again_changes_nothing(project):
    translation_rules(project)
    content = provider_export()
    run_import(project, content)
    before = list(ActualAmount.objects.filter(project=project).values_list("pk", "amount", "kind"))
    again = run_import(project, content)
    assert again.status == "done" and again.unchanged
    assert (
        list(ActualAmount.objects.filter(project=project).values_list("pk", "amount", "kind"))
        == before
    )


def test_a_new_export_of_a_billed_period_replaces_that_period_only(project):
    translation_rules(project)
    run_import(project, provider_export(month=3))
    run_import(project, provider_export(month=4))
    assert total(project, kind="training_compute") == Decimal("295047.08") * 2
    # March re-exported at 98.33 an hour: 3,000 × 0.01 = 30.00 more, April untouched.
    corrected = run_import(project, provider_export(month=3, gpu_price="98.33"))
    assert corrected.status == "done" and not corrected.unchanged
    assert total(project, kind="training_compute", month=date(2026, 3, 1)) == Decimal("295077.08")
    assert total(project, kind="training_compute", month=date(2026, 4, 1)) == Decimal("295047.08")


def test_a_file_with_bad_rows_is_refused_whole_with_row_numbers(project):
    translation_rules(project)
    lines = provider_export().decode().splitlines()
    lines[3] = lines[3].replace("98.32", "ninety", 1)  # row 4 (the header is row 1)
    lines[10] = lines[10].replace(",USD,", ",EUR,", 1)  # row 11
    lines[20] = lines[20].replace(",Usage,", ",Refund,", 1)  # row 21
    record = run_import(project, "\n".join(lines).encode())
    assert record.status == "failed"
    assert [error["row"] for error in record.errors] == [4, 11, 21]
    assert "BilledCost" in record.errors[0]["message"]
    assert "no rate from EUR to USD" in record.errors[1]["message"]  # no ECB rates loaded
    assert "Refund" in record.errors[2]["message"]
    assert not ActualAmount.objects.filter(project=project).exists()


def test_errors_list_the_first_fifty_and_count_them_all(project):
    lines = provider_export().decode().splitlines()
    for index in range(1, 81):
        lines[index] = lines[index].replace("98.32", "x", 1)
    record = run_import(project, "\n".join(lines).encode())
    assert record.status == "failed"
    assert len(record.errors) == 50 and record.error_count == 80
    assert record.errors[0]["row"] == 2 and record.errors[-1]["row"] == 51


def test_a_gzipped_export_imports_as_the_csv(project):
    translation_rules(project)
    record = run_import(project, gzip.compress(provider_export()), "bill.csv.gz")
    assert record.status == "done"
    assert total(project, kind="training_compute") == Decimal("295047.08")


PLAIN = """month,kind,amount,currency,quantity,unit
2026-01,storage,120.50,USD,,
2026-01,inference_compute,1000.00,USD,2000000,output_tokens
2026-02,training_compute,5000,USD,400,accelerator_hours
"""


def test_the_plain_csv_imports_by_kind_with_usage(project):
    record = run_import(project, PLAIN.encode())
    assert record.status == "done", record.errors
    assert (record.rows_read, record.rows_matched) == (3, 3)
    assert total(project) == Decimal("6120.50")
    assert tokens(project, "", "output") == 2_000_000
    hours = ActualAmount.objects.get(project=project, kind="training_compute")
    assert hours.accelerator_hours == 400


def test_the_plain_csv_in_french_headers_and_its_refusals(project):
    french = "mois,nature,montant,devise\n2026-01,storage,10,USD\n2026-13,staff,1,USD\n"
    french += "2026-02,cafe,1,USD\n2026-02,staff,1,CHF\n"
    record = run_import(project, french.encode())
    assert record.status == "failed"
    assert [error["row"] for error in record.errors] == [3, 4, 5]


def test_a_file_that_is_neither_format_is_refused(project):
    record = run_import(project, b"name,value\na,1\n")
    assert record.status == "failed"
    assert "month" in record.errors[0]["message"]
