"""Catalogue pages: the start page, the accelerator table and the model table, with sources."""

from django.http import HttpRequest
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET

from apps.catalogue.models import Accelerator, ComputeThreshold, EnergyProfile, LanguageModel


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
        },
    )


@require_GET
def model_list(request: HttpRequest) -> TemplateResponse:
    return TemplateResponse(
        request, "catalogue/model_list.html", {"models": LanguageModel.objects.all()}
    )
