"""Versions of a scenario: what was saved, what it gave, and the catalogue figures it used.

A save computes the scenario's figures once and keeps them with the version it records: the
estimate (with its ranges), and what apps above keep with it (the budget drawn up from that
estimate, the options compared). The version also keeps a key of everything those figures were
computed from (`figures_key`); while the scenario's key is still that one, its page reads the
latest version's figures (`current_version`) instead of computing them again.
"""

import datetime
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings

from apps.api.estimate import estimate_kept
from apps.apiprices.selectors import price_in_force
from apps.catalogue.snapshot import Catalogue
from apps.estimates import ENGINE_VERSION
from apps.estimates.kept import KeptEstimate
from apps.estimates.record import dump, load
from apps.projects import page_parts
from apps.projects.currency import exchange_key, project_exchange
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
        **_model_figures(inputs, catalogue),
        "api_prices": api_prices_used(inputs),
    }


def _model_figures(inputs: dict, catalogue: Catalogue) -> dict:
    """The language model a scenario serves, with its figures and source (none: no key)."""
    model = catalogue.models.get((inputs.get("inference") or {}).get("model") or "")
    if model is None:
        return {}
    fields = ("layers", "query_heads", "kv_heads", "head_dim", "hidden_size", "experts_total")
    return {
        "models": {
            model.slug: {
                "name": model.name,
                "total_parameters": model.total_parameters,
                "active_parameters": model.active_parameters,
                **{name: getattr(model, name) for name in fields},
                "experts_active": model.experts_active,
                "mla_kv_lora_rank": model.mla_kv_lora_rank,
                "mla_rope_head_dim": model.mla_rope_head_dim,
                "source": model.source,
                "as_of": model.as_of.isoformat(),
            }
        }
    }


def api_prices_used(inputs: dict, day: datetime.date | None = None) -> dict:
    """The API price catalogue's prices an estimate of `inputs` uses on `day` (today), by slug."""
    inference = inputs.get("inference") or {}
    slug = inference.get("api_model") if inference.get("method") == "external_api" else None
    row = price_in_force(slug, day or datetime.date.today()) if slug else None
    tier = inference.get("api_price_tier") or "standard"
    price = None if row is None else row.tier_price(tier)
    if price is None:
        return {}

    def decimal(value):
        return None if value is None else f"{value.normalize():f}"

    return {
        slug: {
            "name": f"{row.api_model.provider_name} {row.api_model.name}",
            "provider": row.api_model.provider,
            "model": row.api_model.model,
            "input": decimal(price.input),
            "cached_input": decimal(price.cached_input),
            "output": decimal(price.output),
            "tier": tier,
            "valid_from": price.valid_from.isoformat() if price.valid_from else None,
            "checked_on": row.api_model.as_of.isoformat(),
            "source_url": row.api_model.source,
            "catalogue_version": row.api_model.catalogue_version,
        }
    }


# What apps above projects keep with each version (the budget, the options compared), each a
# function of the scenario and its estimate as kept, giving plain JSON merged into
# `ScenarioVersion.budget`; registered by each app when Django starts it, so that projects
# imports none of them.
_KEPT_WITH_VERSIONS: list[Callable[[Scenario, KeptEstimate], dict]] = []


def keep_with_versions(part: Callable[[Scenario, KeptEstimate], dict]) -> None:
    if part not in _KEPT_WITH_VERSIONS:
        _KEPT_WITH_VERSIONS.append(part)


def kept_with_version(scenario: Scenario, kept: KeptEstimate) -> dict:
    return {
        key: value for part in _KEPT_WITH_VERSIONS for key, value in part(scenario, kept).items()
    }


@dataclass(frozen=True)
class Estimated:
    """An estimate already worked out for `inputs` on the catalogue whose digest is
    `catalogue_digest` (the scenario form's, which validates inputs by estimating them), so
    that saving those inputs keeps it instead of estimating them again."""

    inputs: dict
    catalogue_digest: str
    kept: KeptEstimate


def figures_key(scenario: Scenario, catalogue: Catalogue) -> str:
    """A digest of everything the scenario's estimate and budget are computed from: its inputs,
    the project's currency, the catalogue's rows, the API prices in force today for an external
    API, the engine and the release (code that computes them otherwise), and what the page's
    other parts are drawn from (apps.projects.page_parts: the timing, cost lines, budget
    settings, planning period, and the month when the period is left to its default)."""
    parts = [
        scenario.inputs,
        scenario.project.currency,
        exchange_key(scenario.project, catalogue),
        catalogue.digest,
        api_prices_used(scenario.inputs),
        ENGINE_VERSION,
        settings.RELEASE_ID,
        page_parts.scenario_stamp(scenario),
    ]
    payload = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(payload.encode()).hexdigest()


def version_record(
    *, scenario: Scenario, user, estimated: Estimated | None = None
) -> ScenarioVersion:
    """Store the scenario as it now stands as version `scenario.version`, with its figures
    computed once: its estimate (`estimated` when it was worked out for these inputs on this
    catalogue), and from it what apps above keep."""
    catalogue = Catalogue.load()
    # Keyed before computing: figures computed on a catalogue changed meanwhile are then read
    # as out of date, never as current.
    key = figures_key(scenario, catalogue)
    if (
        estimated is not None
        and estimated.inputs == scenario.inputs
        and estimated.catalogue_digest == catalogue.digest
    ):
        kept = estimated.kept
    else:
        # The fan kept for its pages; the rate pinned with the figures it converted.
        exchange = project_exchange(scenario.project, catalogue)
        kept = estimate_kept(scenario.inputs, fan=True, exchange=exchange)
    return ScenarioVersion.objects.create(
        scenario=scenario,
        number=scenario.version,
        name=scenario.name,
        inputs=scenario.inputs,
        results=dump(kept),
        catalogue=catalogue_figures(scenario.inputs),
        budget=kept_with_version(scenario, kept),
        figures_key=key,
        engine_version=ENGINE_VERSION,
        created_by=user if user is not None and user.is_authenticated else None,
    )


def current_version(scenario: Scenario, catalogue: Catalogue) -> ScenarioVersion | None:
    """The scenario's latest version when the figures it keeps are the scenario's now (its
    `figures_key` is the scenario's), for its page to read; None when anything they were
    computed from has changed since, or the version was saved before versions kept a key."""
    version = scenario.versions.filter(number=scenario.version).defer("catalogue").first()
    if version is None or version.figures_key != figures_key(scenario, catalogue):
        return None
    return version


def version_estimate(version: ScenarioVersion) -> KeptEstimate:
    """The estimate a version kept when it was saved (its result and ranges), never estimated
    again, so later changes to the catalogue or the engine leave it as it was."""
    return load(version.results, KeptEstimate)
