"""`make bench` (actuals): a FOCUS export of 10^6 rows read and summed as an import reads it
(apps.actuals.reading: the whole of an import's work but the few rows of sums it then writes),
its time and the reading process's peak memory, against the targets of issue 24: under 30 s
and under 500 MiB on the 2-core machine.

Not a pytest file. The export is written to a temporary file first (GPU instance-hours, tokens
by model, storage, credits, taxes and corrections, tagged for three projects), then read in a
fresh process so that its peak memory is the reading's own. `--rows` for a smaller run,
`--strict` turns a missed target into exit status 1.
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.bench.common import PYTHON, say  # noqa: E402

TARGET_SECONDS = 30.0
TARGET_MIB = 500.0
FIELDS = [
    "BilledCost", "EffectiveCost", "ListCost", "BillingCurrency", "BillingPeriodStart",
    "BillingPeriodEnd", "ChargePeriodStart", "ChargePeriodEnd", "ChargeCategory",
    "ChargeDescription", "ConsumedQuantity", "ConsumedUnit", "PricingQuantity", "PricingUnit",
    "ServiceName", "ServiceCategory", "SkuId", "SkuMeter", "SkuPriceDetails", "ResourceId",
    "SubAccountId", "SubAccountName", "Tags", "InvoiceIssuerName", "BillingAccountId",
]  # fmt: skip

READ = """
import resource, sys, time
from apps.actuals.reading import Rule, Words, read_billing
words = Words(*["%(column)s %(value)s"] * 7)
rules = [Rule("ServiceName", "Amazon Simple Storage Service", "storage"),
         Rule("Tags.project", "translation", "training_compute"),
         Rule("Tags.project", "assistant", "inference_compute")]
start = time.perf_counter()
with open(sys.argv[1], "rb") as stream:
    reading = read_billing(stream, currency="USD", rules=rules, kinds=(),
                           convert=lambda currency, day: None, words=words)
seconds = time.perf_counter() - start
peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
assert reading.error_count == 0, reading.errors[:3]
print(seconds, peak_mib, reading.rows_read, reading.rows_matched, len(reading.totals))
"""


def write_export(path: Path, rows: int) -> None:
    tokens = [
        ("solora-atlas-5.5", "Input", "Input Tokens"),
        ("solora-atlas-5.5", "Output", "Output Tokens"),
        ("solora-saturn-4.8", "Input", "Input Tokens"),
    ]
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(FIELDS)
        for index in range(rows):
            day = index % 28 + 1
            month = index % 3 + 1
            kind = index % 10
            base = {
                "BillingCurrency": "USD",
                "BillingPeriodStart": f"2026-{month:02d}-01T00:00:00Z",
                "BillingPeriodEnd": f"2026-{month + 1:02d}-01T00:00:00Z",
                "ChargePeriodStart": f"2026-{month:02d}-{day:02d}T{index % 24:02d}:00:00Z",
                "ChargePeriodEnd": f"2026-{month:02d}-{day:02d}T{index % 24:02d}:59:59Z",
                "ChargeCategory": "Usage",
                "SubAccountId": "210987654321",
                "SubAccountName": "ml-team",
                "InvoiceIssuerName": "Amazon Web Services",
                "BillingAccountId": "123456789012",
                "ResourceId": f"arn:aws:ec2:us-east-1:210987654321:instance/i-{index % 997:08x}",
                "Tags": json.dumps({"project": ("translation", "assistant", "vision")[index % 3]}),
            }
            if kind < 5:
                base |= {
                    "BilledCost": "98.32", "ConsumedQuantity": "1", "ConsumedUnit": "Hours",
                    "ServiceName": "Amazon Elastic Compute Cloud", "SkuId": "P5-OD",
                    "SkuMeter": "On-demand p5.48xlarge",
                    "SkuPriceDetails": '{"InstanceType": "p5.48xlarge"}',
                    "ChargeDescription": "p5.48xlarge on-demand instance-hour",
                }  # fmt: skip
            elif kind < 8:
                model, direction, meter = tokens[index % 3]
                base |= {
                    "BilledCost": "0.25", "ConsumedQuantity": "50000", "ConsumedUnit": "Tokens",
                    "ServiceName": "Amazon Bedrock", "SkuId": f"{model}-{direction}",
                    "SkuMeter": meter,
                    "SkuPriceDetails": json.dumps({"ModelId": model, "TokenDirection": direction}),
                }  # fmt: skip
            elif kind == 8:
                base |= {
                    "BilledCost": "0.0575", "ConsumedQuantity": "2.5", "ConsumedUnit": "GB-Mo",
                    "ServiceName": "Amazon Simple Storage Service", "SkuId": "S3-STD",
                }  # fmt: skip
            else:
                category = ("Credit", "Tax", "Adjustment")[index % 3]
                base |= {
                    "BilledCost": ("-1.00", "2.50", "-0.49")[index % 3],
                    "ChargeCategory": category, "ServiceName": "Amazon Elastic Compute Cloud",
                    "SkuId": category.upper(),
                }  # fmt: skip
            base["EffectiveCost"] = base["ListCost"] = base["BilledCost"]
            writer.writerow([base.get(name, "") for name in FIELDS])


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--strict", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "focus.csv"
        write_export(path, args.rows)
        size_mib = path.stat().st_size / 2**20
        answer = subprocess.run(
            [PYTHON, "-c", READ, str(path)],
            check=True,
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    seconds, peak, read, matched, sums = answer.stdout.split()
    seconds, peak = float(seconds), float(peak)
    say(
        f"actuals: {int(read):,} FOCUS rows ({size_mib:.0f} MiB of CSV) read in {seconds:.1f} s"
        f" (target < {TARGET_SECONDS:.0f} s), peak {peak:.0f} MiB (target < {TARGET_MIB:.0f}),"
        f" {int(matched):,} matched, {int(sums)} sums kept"
    )
    missed = seconds >= TARGET_SECONDS or peak >= TARGET_MIB
    return 1 if (missed and args.strict) else 0


if __name__ == "__main__":
    sys.exit(main())
