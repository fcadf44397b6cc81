"""The accelerator catalogue brought to 2026-12: the parts added, the written scope rule, the checks
every row passes (source, evidence, date, dense peaks in order, memory in GB) and the price rows."""

import datetime
import json

import pytest

from apps.catalogue.loading import CATALOGUE_FILE, catalogue_load
from apps.catalogue.models import Accelerator, PriceOffer

DATA = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
ROWS = DATA["accelerators"]
ADDED_2026_12 = [
    "nvidia-h20",
    "nvidia-h100-nvl",
    "nvidia-h200-nvl",
    "nvidia-gh200",
    "nvidia-a100-sxm-40gb",
    "nvidia-a100-pcie-80gb",
    "nvidia-a30",
    "nvidia-a10",
    "nvidia-a40",
    "nvidia-l40",
    "nvidia-l20",
    "amd-mi300a",
    "amd-mi250",
    "google-tpu-v3",
    "aws-inferentia",
    "intel-gaudi-3-pcie",
]


def _row(slug: str) -> dict:
    return next(row for row in ROWS if row["slug"] == slug)


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row["slug"])
def test_every_accelerator_row_is_sourced_dated_and_tagged(row):
    assert row["source"].strip() and row["notes"].strip()
    assert row["evidence"] in {"P", "S", "D", "U"}
    assert datetime.date.fromisoformat(row["as_of"]) <= datetime.date(2026, 12, 1)
    assert row["memory_gb"] > 0 and row["memory_bandwidth_tbps"] > 0
    assert row["accelerators_per_node"] >= 1


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row["slug"])
def test_dense_peaks_never_fall_as_precision_falls(row):
    """FP4 >= FP8 >= BF16 >= FP32 wherever both are given; a sparse copy breaks FP8 <= 4 x BF16.

    INT8 is not in the chain: Blackwell Ultra (GB300) cut INT8 to 165 TOPS, below its BF16."""
    peaks = row["peak_tflops"]
    if peaks["bf16"] and peaks["fp8"]:
        assert peaks["bf16"] <= peaks["fp8"] <= 4 * peaks["bf16"]
    if peaks["fp8"] and peaks["fp4"]:
        assert peaks["fp8"] <= peaks["fp4"]
    if peaks["fp32"] and peaks["bf16"]:
        assert peaks["fp32"] <= peaks["bf16"]


@pytest.mark.parametrize("slug", ADDED_2026_12)
def test_rows_added_in_2026_12_cite_an_address_and_say_why_a_figure_is_empty(slug):
    row = _row(slug)
    assert "http://" in row["source"] or "https://" in row["source"], slug
    empty = [name for name, value in row["peak_tflops"].items() if value is None]
    if row["interconnect_gb_per_second"] is None or row["power_watts"] is None:
        assert "not published" in row["notes"], slug
    # Every empty peak is explained: unsupported formats are named, missing ones "not published".
    if set(empty) >= {"bf16", "fp8"}:
        assert "not published" in row["notes"], slug


@pytest.mark.django_db
def test_the_loader_puts_every_added_part_in_the_database_and_the_api(api_client):
    assert set(ADDED_2026_12) <= set(Accelerator.objects.values_list("slug", flat=True))
    listed = {row["slug"]: row for row in api_client.get("/api/v1/accelerators/").json()}
    assert set(ADDED_2026_12) <= set(listed)
    nvl = listed["nvidia-h200-nvl"]
    assert (nvl["memory_gb"], nvl["accelerators_per_node"], nvl["interconnect_gb_per_second"]) == (
        141,
        4,
        900,
    )
    assert nvl["sources"][0]["as_of"] == "2024-11-18"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("slug", "precision", "dense"),
    [
        ("nvidia-h100-nvl", "bf16", 835.5),  # 1,671 "with sparsity" / 2
        ("nvidia-h200-nvl", "fp8", 1670.5),  # 3,341 "with sparsity" / 2
        ("nvidia-h20", "bf16", 148),  # called the dense figure by its sources
        ("nvidia-gh200", "fp8", 1978.9),  # the H100 GPU's dense FP8
        ("nvidia-l40", "fp8", 362),  # 724 "with sparsity" / 2
        ("nvidia-a30", "int8", 330),  # 661 "with sparsity" / 2
        ("google-tpu-v3", "bf16", 123),
        ("aws-inferentia", "int8", 128),
    ],
)
def test_added_parts_carry_dense_figures(slug, precision, dense):
    assert Accelerator.objects.get(slug=slug).peak_tflops(precision) == pytest.approx(dense)


@pytest.mark.django_db
def test_peaks_no_source_verifies_stay_empty_rather_than_estimated():
    # 1,835 TFLOP/s at 600 W would be 3.1 TFLOP/s per watt: the OAM figure is not the card's.
    card = Accelerator.objects.get(slug="intel-gaudi-3-pcie")
    assert card.peak_tflops("bf16") is None and card.peak_tflops("fp8") is None
    assert Accelerator.objects.get(slug="amd-mi300a").supported_precisions == []


@pytest.mark.django_db
def test_memory_is_in_gb_as_the_vendor_writes_it():
    memory = dict(Accelerator.objects.values_list("slug", "memory_gb"))
    assert memory["amd-mi325x"] == 256  # AMD's "256 GB", not ROCm's 256 GiB converted
    assert memory["amd-mi355x"] == 288
    assert memory["nvidia-h100-nvl"] == 94
    # Only GiB published (Google, AWS): converted, 32 GiB = 34.4 GB.
    assert memory["google-tpu-v3"] == pytest.approx(34.4)
    assert memory["aws-inferentia"] == pytest.approx(8.6)


def test_the_scope_rule_is_written_and_names_every_part_left_out():
    scope = DATA["scope"]
    assert scope["catalogue_date"] == "2026-12-01"
    assert "generally available" in scope["rule"] and "GiB" in scope["memory_rule"]
    slugs = {row["slug"] for row in ROWS}
    vendors = set()
    for item in scope["left_out"]:
        assert item["part"].strip() and len(item["reason"]) > 20, item
        vendors.add(item["vendor"])
        for part in item["part"].replace("/", ",").split(","):
            # "H800, A800 (China market)" -> nvidia-h800: left out means not a row.
            token = part.strip().split(" ")[0].lower()
            assert not any(slug.endswith(f"-{token}") for slug in slugs), (token, item)
    assert vendors <= {"NVIDIA", "AMD", "Google", "AWS", "Intel"}
    assert "Data Center GPU Max 1550 / 1100 (Ponte Vecchio)" in {
        i["part"] for i in scope["left_out"]
    }


@pytest.mark.django_db
def test_price_rows_sit_on_the_part_they_price_and_say_when():
    forty = PriceOffer.objects.filter(description__contains="A100 40GB")
    assert forty.exists()
    assert set(forty.values_list("accelerator__slug", flat=True)) == {"nvidia-a100-sxm-40gb"}
    stale = PriceOffer.objects.get(
        accelerator__slug="nvidia-h100-sxm", provider="AWS", description__startswith="p5.48xlarge"
    )
    assert stale.evidence == "U" and "June 2025" in stale.notes
    for offer in PriceOffer.objects.filter(kind="rent"):
        assert offer.price_per_accelerator_hour > 0 and offer.as_of and offer.source.strip()
    assert PriceOffer.objects.filter(accelerator__slug="nvidia-h200-sxm", kind="rent").count() >= 3


@pytest.mark.django_db
def test_a_database_loaded_from_the_earlier_file_gets_the_corrections_but_keeps_edits():
    # What a database loaded before 2026-12 holds: MI325X at ROCm's GiB converted, MI355X edited by
    # a catalogue editor, and an A100 40GB price on the 80GB row.
    Accelerator.objects.filter(slug="amd-mi325x").update(memory_gb=274.9, notes="old")
    Accelerator.objects.filter(slug="amd-mi355x").update(memory_gb=300)
    eighty = Accelerator.objects.get(slug="nvidia-a100-sxm-80gb")
    PriceOffer.objects.create(
        accelerator=eighty,
        kind="rent",
        provider="Google Cloud",
        region="us-central1",
        description="A100 40GB on-demand, per GPU",
        price_per_accelerator_hour="3.10",
        source="earlier file",
        as_of=datetime.date(2026, 3, 1),
    )
    report = catalogue_load()
    assert (report.corrected, report.withdrawn) == (1, 1)
    assert "1 corrected, 1 withdrawn" in str(report)
    mi325x = Accelerator.objects.get(slug="amd-mi325x")
    assert mi325x.memory_gb == 256 and "274.9" in mi325x.notes
    assert Accelerator.objects.get(slug="amd-mi355x").memory_gb == 300  # the editor's value stays
    assert not eighty.price_offers.filter(description__contains="40GB").exists()
    assert PriceOffer.objects.filter(
        accelerator__slug="nvidia-a100-sxm-40gb", description="A100 40GB on-demand, per GPU"
    ).exists()
    assert str(catalogue_load()).endswith("kept as they were")  # nothing left to correct
