"""The language model catalogue in the API: architectures with their sources, read-only."""

from rest_framework import serializers

from apps.api.serializers import SourcesField
from apps.api.views import CatalogueViewSet
from apps.catalogue.language_models import MODEL_SLUG_PATTERN, LanguageModel


class LanguageModelSerializer(serializers.ModelSerializer):
    sources = SourcesField()

    class Meta:
        model = LanguageModel
        fields = (
            "slug",
            "name",
            "developer",
            "architecture",
            "layers",
            "hidden_size",
            "query_heads",
            "kv_heads",
            "head_dim",
            "ffn_hidden_size",
            "moe_ffn_hidden_size",
            "vocabulary",
            "tied_embeddings",
            "experts_total",
            "experts_active",
            "experts_shared",
            "dense_layers",
            "mla_kv_lora_rank",
            "mla_q_lora_rank",
            "mla_rope_head_dim",
            "attention_bias",
            "sliding_window",
            "sliding_window_layers",
            "context_length",
            "total_parameters",
            "active_parameters",
            "licence",
            "sources",
        )
        read_only_fields = fields


class LanguageModelViewSet(CatalogueViewSet):
    """Open-weight language models: layers, widths, heads, experts, MLA widths, parameters."""

    queryset = LanguageModel.objects.all()
    serializer_class = LanguageModelSerializer
    # Anything else in a slug's place is a 404 from the URL resolver, before any lookup.
    lookup_value_regex = MODEL_SLUG_PATTERN
