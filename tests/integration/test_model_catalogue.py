"""The shipped language model catalogue: real architectures, each sourced, that add up."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.catalogue.loading import MODELS_FILE, catalogue_load
from apps.catalogue.models import LanguageModel

pytestmark = pytest.mark.django_db

REQUIRED_SLUGS = {"llama-3.1-8b", "llama-3.3-70b", "llama-3.1-405b", "deepseek-v3"}


def attention_parameters(m: LanguageModel) -> int:
    """Weights (and biases) of one attention block: q, k, v and o, or MLA's projections."""
    h = m.hidden_size
    if m.uses_mla:
        q_width = m.query_heads * (m.head_dim + m.mla_rope_head_dim)
        q = (
            h * m.mla_q_lora_rank + m.mla_q_lora_rank * q_width
            if m.mla_q_lora_rank
            else h * q_width
        )
        kv_down = h * (m.mla_kv_lora_rank + m.mla_rope_head_dim)
        kv_up = m.mla_kv_lora_rank * m.query_heads * 2 * m.head_dim
        return q + kv_down + kv_up + m.query_heads * m.head_dim * h
    q, kv = m.query_heads * m.head_dim, m.kv_heads * m.head_dim
    biases = q + 2 * kv if m.attention_bias else 0
    return h * q + 2 * h * kv + q * h + biases


def parameter_count(m: LanguageModel) -> float:
    """Total parameters from the dimensions: embeddings, attention, gated MLPs, norms."""
    h = m.hidden_size
    embeddings = m.vocabulary * h * (1 if m.tied_embeddings else 2)
    gated_mlp = 3 * h
    if m.architecture == LanguageModel.Architecture.DENSE:
        mlp = [(m.layers, gated_mlp * m.ffn_hidden_size)]
    else:
        dense = m.dense_layers or 0
        experts = m.experts_total + m.experts_shared
        moe = gated_mlp * m.moe_ffn_hidden_size * experts + h * m.experts_total  # + router
        # Pairs, not a dict: as many dense as MoE layers (Llama 4 Maverick) must not collide.
        mlp = [(m.layers - dense, moe), (dense, gated_mlp * (m.ffn_hidden_size or 0))]
    layers = sum(count * (attention_parameters(m) + width + 2 * h) for count, width in mlp)
    return embeddings + layers + h


def test_the_catalogue_holds_15_or_more_models_dense_and_moe_with_gqa_and_mla():
    models = list(LanguageModel.objects.all())
    assert len(models) >= 15
    assert {m.architecture for m in models} == {"dense", "moe"}
    assert {"GQA", "MLA"} <= {m.attention_kind for m in models}
    assert {m.slug for m in models} >= REQUIRED_SLUGS


def test_every_dense_model_adds_up_to_its_published_size_within_2_percent():
    dense = LanguageModel.objects.filter(architecture="dense")
    assert dense.count() >= 10
    for m in dense:
        counted = parameter_count(m)
        assert counted == pytest.approx(m.total_parameters, rel=0.02), (m.slug, counted)


def test_every_mixture_of_experts_adds_up_to_its_published_total_within_2_percent():
    """Memory holds the total: the experts, shared experts, dense layers and MLA all count."""
    moe = LanguageModel.objects.filter(architecture="moe")
    assert moe.count() >= 5
    for m in moe:
        counted = parameter_count(m)
        assert counted == pytest.approx(m.total_parameters, rel=0.02), (m.slug, counted)
        assert m.active_parameters < m.total_parameters / 3


@pytest.mark.parametrize(
    ("slug", "figures"),
    [
        (
            "llama-3.1-8b",
            {"layers": 32, "hidden_size": 4096, "query_heads": 32, "kv_heads": 8, "head_dim": 128},
        ),
        # Copies of the config made in July 2024 say 16 KV heads; Meta's config says 8.
        ("llama-3.1-405b", {"layers": 126, "kv_heads": 8, "ffn_hidden_size": 53248}),
        ("llama-3.2-1b", {"tied_embeddings": True, "head_dim": 64}),
        ("qwen2.5-7b", {"attention_bias": True, "kv_heads": 4}),
        ("gemma-2-9b", {"head_dim": 256, "sliding_window": 4096}),
        (
            "deepseek-v3",
            {
                "mla_kv_lora_rank": 512,
                "mla_q_lora_rank": 1536,
                "mla_rope_head_dim": 64,
                "experts_total": 256,
                "experts_active": 8,
                "experts_shared": 1,
                "dense_layers": 3,
                "total_parameters": 671e9,
                "active_parameters": 37e9,
            },
        ),
        ("mixtral-8x7b", {"experts_total": 8, "experts_active": 2, "ffn_hidden_size": None}),
    ],
)
def test_figures_are_those_of_the_published_config(slug, figures):
    m = LanguageModel.objects.get(slug=slug)
    assert {name: getattr(m, name) for name in figures} == figures


def test_the_catalogue_holds_the_models_deployed_in_2025_26():
    slugs = set(LanguageModel.objects.values_list("slug", flat=True))
    assert {
        "llama-4-scout",
        "llama-4-maverick",
        "qwen3-8b",
        "qwen3-14b",
        "qwen3-32b",
        "gemma-3-12b",
        "gemma-3-27b",
        "mistral-small-3.1-24b",
        "deepseek-v3.1",
    } <= slugs
    maverick = LanguageModel.objects.get(slug="llama-4-maverick")
    assert (maverick.experts_total, maverick.experts_active, maverick.experts_shared) == (128, 1, 1)
    assert maverick.dense_layers == 24 and maverick.total_parameters == 400e9


def test_every_model_row_says_where_its_figures_come_from():
    for m in LanguageModel.objects.all():
        assert "https://" in m.source, m.slug
        assert m.evidence in {"P", "S", "D", "U"}, m.slug
        assert m.as_of is not None, m.slug
        assert m.licence.strip(), m.slug


def test_a_dense_model_with_experts_is_refused():
    m = LanguageModel.objects.get(slug="llama-3.1-8b")
    m.experts_total = 8
    m.active_parameters = 1e9
    with pytest.raises(ValidationError) as refused:
        m.full_clean()
    assert {"experts_total", "active_parameters"} <= set(refused.value.message_dict)


def test_a_mixture_of_experts_needs_its_expert_figures_and_heads_must_group():
    m = LanguageModel.objects.get(slug="mixtral-8x7b")
    m.experts_active = 9
    m.kv_heads = 5
    with pytest.raises(ValidationError) as refused:
        m.full_clean()
    assert {"experts_active", "kv_heads"} <= set(refused.value.message_dict)


def test_loading_again_keeps_edits_and_overwrite_restores_the_file():
    m = LanguageModel.objects.get(slug="qwen2.5-7b")
    m.context_length = 32768
    m.save(update_fields=["context_length"])
    assert catalogue_load().created == 0
    m.refresh_from_db()
    assert m.context_length == 32768
    catalogue_load(overwrite=True)
    m.refresh_from_db()
    assert m.context_length == 131072


def test_loading_refuses_a_model_row_with_a_figure_missing(tmp_path):
    data = json.loads(MODELS_FILE.read_text(encoding="utf-8"))
    del data["models"][0]["sliding_window"]
    path = tmp_path / "models.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="sliding_window"):
        catalogue_load(models_path=path)


def test_models_api_lists_the_catalogue_with_sources(api_client):
    with CaptureQueriesContext(connection) as queries:
        response = api_client.get("/api/v1/models/")
    assert response.status_code == 200
    assert len(queries) == 1
    rows = {row["slug"]: row for row in response.json()}
    assert set(rows) >= REQUIRED_SLUGS
    v3 = rows["deepseek-v3"]
    assert v3["architecture"] == "moe"
    assert (v3["mla_kv_lora_rank"], v3["mla_rope_head_dim"]) == (512, 64)
    assert v3["total_parameters"] == 671e9 and v3["active_parameters"] == 37e9
    assert v3["sources"][0]["source"] and v3["sources"][0]["as_of"] == "2024-12-26"
    llama = rows["llama-3.1-8b"]
    assert llama["experts_total"] is None and llama["moe_ffn_hidden_size"] is None


def test_model_detail_by_slug_with_its_dots_and_404s(api_client):
    response = api_client.get("/api/v1/models/llama-3.1-405b/")
    assert response.status_code == 200
    assert response.json()["kv_heads"] == 8
    missing = api_client.get("/api/v1/models/no-such-model/")
    assert missing.status_code == 404
    assert missing.json() == {"detail": "No LanguageModel matches the given query."}
    for slug in ("%00", "llama%003", "Llama-3.1-8B"):
        response = api_client.get(f"/api/v1/models/{slug}/")
        assert response.status_code == 404, slug
        assert response.json() == {"detail": "Not found."}


def test_models_api_is_read_only_and_in_the_schema(api_client):
    assert api_client.post("/api/v1/models/", {}, format="json").status_code == 405
    schema = api_client.get("/api/schema/", {"format": "json"}).json()
    detail = schema["paths"]["/api/v1/models/{slug}/"]["get"]["responses"]
    assert set(detail) == {"200", "401", "404", "406", "429"}
    fields = schema["components"]["schemas"]["LanguageModel"]["properties"]
    assert fields["experts_total"]["nullable"] is True
    assert {"mla_kv_lora_rank", "sliding_window", "total_parameters", "sources"} <= set(fields)


def test_model_catalogue_page_lists_models_with_sources(client):
    response = client.get("/catalogue/models/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "DeepSeek-V3" in html and "Llama 3.1 405B" in html
    assert "671" in html and "MLA" in html
    assert "Source, as of" in html


def test_every_sliding_window_says_how_many_layers_use_it():
    windowed = {
        m.slug: (m.sliding_window, m.sliding_window_layers, m.layers)
        for m in LanguageModel.objects.exclude(sliding_window=None)
    }
    assert windowed["gemma-2-9b"] == (4096, 21, 42)
    assert windowed["gemma-3-27b"] == (1024, 52, 62)  # five local layers per global one
    assert windowed["gpt-oss-120b"] == (128, 18, 36)
    assert windowed["llama-4-scout"] == (8192, 36, 48)
    assert all(layers <= total for _, layers, total in windowed.values())
    assert not LanguageModel.objects.filter(sliding_window=None).exclude(sliding_window_layers=None)
