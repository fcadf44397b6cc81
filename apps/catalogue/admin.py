"""Admin pages where catalogue editors keep figures, prices and thresholds current."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from apps.catalogue.models import (
    PRECISIONS,
    Accelerator,
    CommitmentDiscount,
    ComputeThreshold,
    EnergyProfile,
    LanguageModel,
    PriceOffer,
)

SOURCE_FIELDS = ("evidence", "source", "as_of", "notes")


class PriceOfferInline(admin.StackedInline):
    model = PriceOffer
    extra = 0


@admin.register(Accelerator)
class AcceleratorAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "vendor",
        "year",
        "peak_tflops_bf16",
        "memory_gb",
        "power_watts",
        "evidence",
        "as_of",
    )
    list_filter = ("vendor", "evidence")
    search_fields = ("name", "slug", "vendor")
    prepopulated_fields = {"slug": ("vendor", "name")}
    inlines = [PriceOfferInline]
    fieldsets = (
        (None, {"fields": ("slug", "vendor", "name", "year")}),
        (_("Memory and power"), {"fields": ("memory_gb", "memory_bandwidth_tbps", "power_watts")}),
        (_("Node"), {"fields": ("accelerators_per_node", "interconnect_gb_per_second")}),
        (_("Dense peak TFLOP/s"), {"fields": tuple(f"peak_tflops_{p}" for p in PRECISIONS)}),
        (
            _("Embodied emissions"),
            {"fields": ("embodied_kg_co2e", "embodied_lifetime_years", "embodied_source")},
        ),
        (_("Source"), {"fields": SOURCE_FIELDS}),
    )


@admin.register(PriceOffer)
class PriceOfferAdmin(admin.ModelAdmin):
    list_display = (
        "accelerator",
        "kind",
        "provider",
        "region",
        "price_per_accelerator_hour",
        "purchase_price",
        "currency",
        "as_of",
    )
    list_filter = ("kind", "provider", "currency")
    list_select_related = ("accelerator",)
    search_fields = ("accelerator__name", "provider", "description")


@admin.register(EnergyProfile)
class EnergyProfileAdmin(admin.ModelAdmin):
    list_display = ("name", "pue", "kg_co2e_per_kwh", "electricity_price_per_kwh", "as_of")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}


@admin.register(ComputeThreshold)
class ComputeThresholdAdmin(admin.ModelAdmin):
    list_display = ("name", "jurisdiction", "flop", "status", "as_of")
    list_filter = ("status", "jurisdiction")
    search_fields = ("name", "slug")


@admin.register(LanguageModel)
class LanguageModelAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "developer",
        "architecture",
        "total_parameters",
        "active_parameters",
        "context_length",
        "evidence",
        "as_of",
    )
    list_filter = ("developer", "architecture", "evidence")
    search_fields = ("name", "slug", "developer")
    prepopulated_fields = {"slug": ("name",)}
    fieldsets = (
        (None, {"fields": ("slug", "name", "developer", "architecture", "licence")}),
        (
            _("Shape"),
            {
                "fields": (
                    "layers",
                    "hidden_size",
                    "ffn_hidden_size",
                    "vocabulary",
                    "tied_embeddings",
                    "context_length",
                )
            },
        ),
        (
            _("Attention"),
            {
                "fields": (
                    "query_heads",
                    "kv_heads",
                    "head_dim",
                    "attention_bias",
                    "sliding_window",
                    "sliding_window_layers",
                    "mla_kv_lora_rank",
                    "mla_q_lora_rank",
                    "mla_rope_head_dim",
                )
            },
        ),
        (
            _("Mixture of experts"),
            {
                "fields": (
                    "moe_ffn_hidden_size",
                    "experts_total",
                    "experts_active",
                    "experts_shared",
                    "dense_layers",
                )
            },
        ),
        (_("Parameters"), {"fields": ("total_parameters", "active_parameters")}),
        (_("Source"), {"fields": SOURCE_FIELDS}),
    )


@admin.register(CommitmentDiscount)
class CommitmentDiscountAdmin(admin.ModelAdmin):
    list_display = ("provider", "term_years", "payment", "discount", "evidence", "as_of")
    list_filter = ("provider", "term_years", "payment", "evidence")
    fieldsets = (
        (None, {"fields": ("provider", "program", "applies_to", "term_years", "payment")}),
        (_("Discount"), {"fields": ("discount",)}),
        (_("Source"), {"fields": SOURCE_FIELDS}),
    )
