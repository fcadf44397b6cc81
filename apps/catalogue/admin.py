"""Admin pages where catalogue editors keep figures, prices and thresholds current."""

from django.contrib import admin

from apps.catalogue.models import Accelerator, ComputeThreshold, EnergyProfile, PriceOffer

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
        ("Memory and power", {"fields": ("memory_gb", "memory_bandwidth_tbps", "power_watts")}),
        ("Node", {"fields": ("accelerators_per_node", "interconnect_gb_per_second")}),
        (
            "Dense peak TFLOP/s",
            {
                "fields": (
                    "peak_tflops_fp32",
                    "peak_tflops_tf32",
                    "peak_tflops_bf16",
                    "peak_tflops_fp16",
                    "peak_tflops_fp8",
                    "peak_tflops_int8",
                    "peak_tflops_fp4",
                )
            },
        ),
        ("Source", {"fields": SOURCE_FIELDS}),
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
