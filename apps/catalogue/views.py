"""Catalogue pages: the start page, the accelerator table, the model table and the calibration
table, with sources."""

from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET

from apps.catalogue.calibration import BOUNDS, calibrate
from apps.catalogue.models import (
    Accelerator,
    CommitmentDiscount,
    ComputeThreshold,
    EnergyProfile,
    LanguageModel,
)


@require_GET
def home(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(
        request, "home.html", {"accelerator_count": Accelerator.objects.count()}
    )


@require_GET
def accelerator_list(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(
        request,
        "catalogue/accelerator_list.html",
        {
            "accelerators": Accelerator.objects.with_offers(),
            "energy_profiles": EnergyProfile.objects.all(),
            "thresholds": ComputeThreshold.objects.all(),
            "commitment_discounts": CommitmentDiscount.objects.all(),
        },
    )


@require_GET
def model_list(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(
        request, "catalogue/model_list.html", {"models": LanguageModel.objects.all()}
    )


@require_GET
def calibration(request: HttpRequest) -> TemplateResponse:
    rows = calibrate()
    return TemplateResponse(
        request,
        "catalogue/calibration.html",
        {
            "rows": rows,
            "holding": sum(row.holds for row in rows),
            "bounds": BOUNDS,
        },
    )
