"""The shipped catalogue: real figures, dense only, every row sourced and dated, edits kept."""

import json
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from apps.catalogue.loading import CATALOGUE_FILE, catalogue_load
from apps.catalogue.models import Accelerator, ComputeThreshold, EnergyProfile, PriceOffer
from apps.projects.roles import CATALOGUE_EDITOR

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def test_catalogue_holds_at_least_15_accelerators_from_the_five_vendors():
    assert Accelerator.objects.count() >= 15
    vendors = set(Accelerator.objects.values_list("vendor", flat=True))
    assert {"NVIDIA", "AMD", "Google", "Intel", "AWS"} <= vendors


@pytest.mark.parametrize(
    ("slug", "precision", "dense_tflops"),
    [
        ("nvidia-h100-sxm", "bf16", 989.4),  # datasheet 1,979 "with sparsity" / 2
        ("nvidia-h100-sxm", "fp8", 1978.9),
        ("nvidia-a100-sxm-80gb", "bf16", 312),  # 624 sparse / 2
        ("amd-mi300x", "bf16", 1307.4),  # ROCm dense matrix figure
        ("google-tpu-v5e", "bf16", 197),
        ("intel-gaudi-3", "bf16", 1835),
        ("aws-trainium2", "bf16", 667),  # dense; 2,563 is the sparse FP8
    ],
)
def test_peak_figures_are_dense_not_sparse(slug, precision, dense_tflops):
    assert Accelerator.objects.get(slug=slug).peak_tflops(precision) == pytest.approx(dense_tflops)


def test_unsupported_formats_are_empty_not_zero():
    v100 = Accelerator.objects.get(slug="nvidia-v100-sxm2")
    assert v100.peak_tflops("bf16") is None  # Volta tensor cores have no BF16
    assert "bf16" not in v100.supported_precisions


def test_every_row_carries_a_source_and_an_as_of_date():
    for model in (Accelerator, PriceOffer, EnergyProfile, ComputeThreshold):
        for row in model.objects.all():
            assert row.source.strip(), f"{model.__name__} {row} has no source"
            assert row.as_of is not None
            assert row.evidence in {"P", "S", "D", "U"}


def test_thresholds_include_the_eu_ai_act_line_at_1e25_flop():
    eu = ComputeThreshold.objects.get(slug="eu-ai-act-art-51")
    assert eu.flop == 1e25
    assert eu.status == ComputeThreshold.Status.IN_FORCE


def test_price_offers_are_rentals_per_hour_or_purchases():
    h100 = Accelerator.objects.get(slug="nvidia-h100-sxm")
    rents = h100.price_offers.filter(kind="rent")
    assert rents.count() >= 3
    assert all(o.price_per_accelerator_hour > 0 for o in rents)
    assert h100.price_offers.filter(kind="purchase", purchase_price__gt=0).exists()


def test_a_second_load_keeps_what_a_catalogue_editor_changed():
    h100 = Accelerator.objects.get(slug="nvidia-h100-sxm")
    h100.power_watts = 650
    h100.save(update_fields=["power_watts"])
    report = catalogue_load()
    assert report.created == 0
    h100.refresh_from_db()
    assert h100.power_watts == 650
    catalogue_load(overwrite=True)
    h100.refresh_from_db()
    assert h100.power_watts == 700


def test_load_catalogue_command_reports_what_it_did(capsys):
    call_command("load_catalogue")
    assert "0 created" in capsys.readouterr().out


def test_catalogue_editors_may_change_every_catalogue_model():
    editors = Group.objects.get(name=CATALOGUE_EDITOR)
    codenames = set(editors.permissions.values_list("codename", flat=True))
    for model in (
        "accelerator",
        "priceoffer",
        "energyprofile",
        "computethreshold",
        "languagemodel",
    ):
        assert {f"add_{model}", f"change_{model}", f"delete_{model}"} <= codenames


def test_catalogue_page_lists_accelerators_with_sources(client):
    response = client.get("/catalogue/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "H100 SXM" in html and "989.4" in html
    assert "Source, as of" in html


def test_the_application_never_reads_the_shared_folder_at_run_time():
    for folder in ("apps", "config", "templates"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in {".py", ".html", ".json"}:
                assert "../shared" not in path.read_text(encoding="utf-8"), path


def test_every_accelerator_says_how_many_share_a_node_and_how_fast_they_talk():
    for accelerator in Accelerator.objects.all():
        assert accelerator.accelerators_per_node >= 1, accelerator
        link = accelerator.interconnect_gb_per_second
        # Between PCIe 3.0 x16 (32 GB/s) and today's fastest scale-up links (a few TB/s).
        assert link is None or 30 <= link <= 5000, accelerator
        if link is None:
            assert "not published" in accelerator.notes, accelerator


@pytest.mark.parametrize(
    ("slug", "per_node", "gb_per_second"),
    [
        ("nvidia-h100-sxm", 8, 900),  # NVLink 4, both directions
        ("nvidia-b200", 8, 1800),  # NVLink 5
        ("amd-mi300x", 8, 896),  # 7 Infinity Fabric links x 128 GB/s
        ("google-tpu-v5e", 8, 400),  # bidirectional ICI per chip, 8 chips per host
        ("aws-trainium2", 16, 1024),  # intra-instance NeuronLink-v3
        ("intel-gaudi-3", 8, 1050),  # 21 x 200 GbE, both directions
    ],
)
def test_node_and_interconnect_figures_are_the_vendors(slug, per_node, gb_per_second):
    accelerator = Accelerator.objects.get(slug=slug)
    assert accelerator.accelerators_per_node == per_node
    assert accelerator.interconnect_gb_per_second == pytest.approx(gb_per_second)


def test_fp4_is_a_dense_peak_where_supported_and_empty_elsewhere():
    b200 = Accelerator.objects.get(slug="nvidia-b200")
    assert b200.peak_tflops("fp4") == 9000  # 18,000 "with sparsity" / 2
    assert b200.peak_tflops_by_precision["fp4"] == 9000
    assert "fp4" in b200.supported_precisions  # estimates compute in FP4 where it has a peak
    h100 = Accelerator.objects.get(slug="nvidia-h100-sxm")
    assert h100.peak_tflops("fp4") is None
    assert "fp4" not in h100.supported_precisions


def test_loading_refuses_a_peak_format_the_catalogue_does_not_know(tmp_path):
    data = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
    data["accelerators"][0]["peak_tflops"]["fp6"] = 1.0
    path = tmp_path / "catalogue.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="fp6"):
        catalogue_load(path=path)


@pytest.mark.parametrize(
    ("slug", "precision", "dense_tflops"),
    [
        ("nvidia-b300", "bf16", 2250),  # 4,500 "with sparsity" / 2
        ("nvidia-gb300", "fp4", 15000),  # 1,080 PF dense per NVL72 rack / 72
        ("nvidia-gb200", "fp8", 5000),
        ("amd-mi355x", "fp8", 5033.2),  # 256 CUs x 8,192 FLOP/clock x 2.4 GHz
        ("amd-mi350x", "bf16", 2306.9),
        ("google-tpu7x", "bf16", 2307),
        ("google-tpu-v6e", "fp8", 918),
        ("aws-trainium3", "bf16", 671),  # AWS's dense figure; 2,517 is the sparse one
        ("aws-trainium3", "fp8", 2517),
    ],
)
def test_the_2025_generation_is_catalogued_with_dense_figures(slug, precision, dense_tflops):
    assert Accelerator.objects.get(slug=slug).peak_tflops(precision) == pytest.approx(dense_tflops)


def test_no_peak_looks_like_a_sparse_figure():
    """Sanity bounds a halved-by-mistake or sparse copy would break.

    Dense BF16 stays under 3 TFLOP/s per watt (the densest 2025 parts reach about 2.3, their
    sparse figures twice that). A lower precision is never slower, and at most 4x faster than
    the one above it (Trainium3's MXFP8 is 3.75x its BF16, Blackwell Ultra's FP4 3x its FP8).
    """
    for a in Accelerator.objects.all():
        p = a.peak_tflops_by_precision
        if p["bf16"] and a.power_watts:
            assert p["bf16"] / a.power_watts < 3.0, a
        if p["bf16"] and p["fp8"]:
            assert p["bf16"] <= p["fp8"] <= 4 * p["bf16"], a
        if p["fp8"] and p["fp4"]:
            assert p["fp8"] <= p["fp4"] <= 4 * p["fp8"], a
        if p["fp16"] and p["bf16"]:
            assert p["fp16"] == p["bf16"], a
