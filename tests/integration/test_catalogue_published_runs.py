"""The catalogue rows that published results ran on (issue 20): the H800 SXM DeepSeek-V3 trained on,
Llama 2 70B (the MLPerf model) and Llama 3.1 70B, each sourced, each resolving and computing."""

import datetime
import json
from decimal import Decimal

import pytest

from apps.catalogue.models import Accelerator, LanguageModel, PriceOffer

pytestmark = pytest.mark.django_db
URL = "/api/v1/estimate/"


def post(client, body: dict):
    return client.post(URL, data=json.dumps(body), content_type="application/json")


def test_the_h800_is_the_h100_sxm_with_nvlink_cut_to_400_gb_per_second():
    h800 = Accelerator.objects.get(slug="nvidia-h800-sxm")
    h100 = Accelerator.objects.get(slug="nvidia-h100-sxm")
    for precision in ("fp32", "tf32", "bf16", "fp16", "fp8", "int8"):
        assert h800.peak_tflops(precision) == h100.peak_tflops(precision), precision
    assert (h800.memory_gb, h800.memory_bandwidth_tbps) == (80, 3.35)
    assert (h800.accelerators_per_node, h800.interconnect_gb_per_second) == (8, 400)
    # No source read gives its maximum power: left empty and said so, not borrowed from the H100.
    assert h800.power_watts is None and "Power not published" in h800.notes
    assert h800.evidence == "S" and h800.as_of == datetime.date(2023, 3, 21)
    assert "arXiv:2412.19437" in h800.source


def test_the_h800_price_is_deepseeks_own_costing_assumption_and_says_so():
    offer = PriceOffer.objects.get(accelerator__slug="nvidia-h800-sxm")
    assert offer.kind == "rent" and offer.price_per_accelerator_hour == 2
    assert "Not a market offer" in offer.notes and "Table 1" in offer.source
    assert offer.as_of == datetime.date(2024, 12, 27)


@pytest.mark.parametrize(
    ("slug", "figures"),
    [
        (
            "llama-2-70b",
            {
                "layers": 80,
                "hidden_size": 8192,
                "query_heads": 64,
                "kv_heads": 8,
                "head_dim": 128,
                "ffn_hidden_size": 28672,
                "vocabulary": 32000,
                "context_length": 4096,
                "tied_embeddings": False,
            },
        ),
        (
            "llama-3.1-70b",
            {
                "layers": 80,
                "hidden_size": 8192,
                "query_heads": 64,
                "kv_heads": 8,
                "head_dim": 128,
                "ffn_hidden_size": 28672,
                "vocabulary": 128256,
                "context_length": 131072,
            },
        ),
    ],
)
def test_the_mlperf_and_llama_3_1_models_carry_their_config_figures_and_source(slug, figures):
    model = LanguageModel.objects.get(slug=slug)
    assert {name: getattr(model, name) for name in figures} == figures
    assert model.evidence == "S" and "config.json" in model.source and model.as_of


def test_llama_3_1_70b_has_llama_3_3_70bs_architecture():
    names = ("layers", "hidden_size", "query_heads", "kv_heads", "head_dim", "ffn_hidden_size")
    old, new = (LanguageModel.objects.get(slug=s) for s in ("llama-3.1-70b", "llama-3.3-70b"))
    assert [getattr(old, n) for n in names] == [getattr(new, n) for n in names]
    assert old.as_of == datetime.date(2024, 7, 23)


def test_llama_2_70b_in_fp8_on_h100_is_served_with_its_gqa_kv_cache(api_client):
    inference = {
        "method": "tokens",
        "model": "llama-2-70b",
        "accelerator": "nvidia-h100-sxm",
        "precision": "fp8",
        "input_tokens": 300,
        "output_tokens": 291,
        "requests_per_month": 100_000_000,
    }
    response = post(api_client, {"inference": inference})
    assert response.status_code == 200, response.content
    serving = response.json()["inference"]["serving"]
    assert serving["fits"] is True
    # 80 layers x K and V x 8 KV heads x 128 x 2 bytes (bf16 cache).
    assert serving["kv_cache_bytes_per_token"] == 80 * 2 * 8 * 128 * 2
    assert serving["weights_gb"] == pytest.approx(70.0)  # 70e9 weights at 1 byte


def test_deepseek_v3s_training_flop_on_h800_gives_accelerator_hours(api_client):
    # 6 x 37e9 active parameters x 14.8e12 tokens, on 2,048 H800s in FP8, as DeepSeek did.
    training = {
        "method": "parameters_tokens",
        "parameters": 37e9,
        "tokens": 14.8e12,
        "accelerator": "nvidia-h800-sxm",
        "precision": "fp8",
        "accelerator_count": 2048,
    }
    response = post(api_client, {"training": training})
    assert response.status_code == 200, response.content
    result = response.json()["training"]
    assert result["flop"] == pytest.approx(6 * 37e9 * 14.8e12)
    assert result["accelerator_hours"] > 0 and result["energy_kwh"] is None


def test_tpu_v4_has_googles_dated_on_demand_price_per_chip_hour():
    offer = PriceOffer.objects.get(accelerator__slug="google-tpu-v4", provider="Google Cloud")
    assert offer.price_per_accelerator_hour == Decimal("3.22")
    assert (
        offer.as_of == datetime.date(2022, 8, 11) and "cloud.google.com/tpu/pricing" in offer.source
    )


def test_tpu_v6e_price_is_googles_evaluation_price_at_general_availability():
    offer = PriceOffer.objects.get(accelerator__slug="google-tpu-v6e", provider="Google Cloud")
    assert offer.price_per_accelerator_hour == Decimal("2.70")
    assert offer.as_of == datetime.date(2024, 12, 11) and "per chip-hour" in offer.source
