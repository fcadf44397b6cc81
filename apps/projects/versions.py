"""Versions of a scenario: what was saved, what it gave, and the catalogue figures it used."""

from apps.api.views import estimate_response
from apps.catalogue.resolve import Catalogue
from apps.estimates import ENGINE_VERSION
from apps.projects.models import Scenario, ScenarioVersion


def catalogue_figures(inputs: dict) -> dict:
    """The catalogue rows an estimate of `inputs` uses, with their sources, as plain JSON."""
    catalogue = Catalogue.for_request(inputs)
    return {
        "accelerators": {
            slug: {
                "name": f"{a.vendor} {a.name}",
                "peak_tflops": a.peak_tflops_by_precision,
                "memory_gb": a.memory_gb,
                "memory_bandwidth_tbps": a.memory_bandwidth_tbps,
                "power_watts": a.power_watts,
                "price_offers": [
                    {
                        "kind": o.kind,
                        "provider": o.provider,
                        "price_per_accelerator_hour": (
                            str(o.price_per_accelerator_hour)
                            if o.price_per_accelerator_hour is not None
                            else None
                        ),
                        "purchase_price": (
                            str(o.purchase_price) if o.purchase_price is not None else None
                        ),
                        "as_of": o.as_of.isoformat(),
                    }
                    for o in a.price_offers.all()
                ],
                "source": a.source,
                "as_of": a.as_of.isoformat(),
            }
            for slug, a in catalogue.accelerators.items()
        },
        "energy_profiles": {
            slug: {
                "name": p.name,
                "pue": p.pue,
                "kg_co2e_per_kwh": p.kg_co2e_per_kwh,
                "source": p.source,
                "as_of": p.as_of.isoformat(),
            }
            for slug, p in catalogue.energy_profiles.items()
        },
        "thresholds": [
            {"name": t.name, "flop": t.flop, "status": t.status} for t in catalogue.thresholds
        ],
    }


def version_record(*, scenario: Scenario, user) -> ScenarioVersion:
    """Store the scenario as it now stands as version `scenario.version`."""
    return ScenarioVersion.objects.create(
        scenario=scenario,
        number=scenario.version,
        name=scenario.name,
        inputs=scenario.inputs,
        results=estimate_response(scenario.inputs),
        catalogue=catalogue_figures(scenario.inputs),
        engine_version=ENGINE_VERSION,
        created_by=user if user is not None and user.is_authenticated else None,
    )
