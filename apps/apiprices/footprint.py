"""An external model API's footprint per request, from EcoLogits' methodology and model data.

EcoLogits (GenAI Impact, the `ecologits` package) estimates a request to a provider's model from
the model's parameter count (a range where the provider has not released it), the tokens it
generates and the provider's data centres (their PUE, water usage effectiveness and grid): the
facility energy, the emissions of that energy (usage) and of making the servers (embodied), and
the water consumed on site and at the power plant. Its figures are used as the package gives
them; where it knows neither the provider nor the model, there is no footprint.
"""

import math
from importlib.metadata import version

from ecologits.tracers.utils import llm_impacts
from ecologits.utils.range_value import RangeValue

from apps.estimates import RequestFootprint

# The price catalogue's provider slugs (genai-prices) as EcoLogits names them.
ECOLOGITS_PROVIDERS = {
    "anthropic": "anthropic",
    "openai": "openai",
    "google": "google_genai",
    "mistral": "mistralai",
    "cohere": "cohere",
}
ECOLOGITS_VERSION = version("ecologits")


def _ends(value: float | RangeValue) -> tuple[float, float]:
    if isinstance(value, RangeValue):
        return float(value.min), float(value.max)
    return float(value), float(value)


def request_footprint(
    provider: str, model: str, decoded_tokens: float, latency_seconds: float | None = None
) -> RequestFootprint | None:
    """One request's footprint: `decoded_tokens` generated (visible output and reasoning) by
    `model` of `provider` (the price catalogue's slugs); None where EcoLogits lacks either."""
    ecologits_provider = ECOLOGITS_PROVIDERS.get(provider)
    if ecologits_provider is None or not decoded_tokens > 0:
        return None
    impacts = llm_impacts(
        provider=ecologits_provider,
        model_name=model,
        output_token_count=float(decoded_tokens),
        request_latency=math.inf if latency_seconds is None else float(latency_seconds),
    )
    if impacts.errors or impacts.energy is None:
        return None
    energy = _ends(impacts.energy.value)
    usage = _ends(impacts.usage.gwp.value)
    embodied = _ends(impacts.embodied.gwp.value)
    water = _ends(impacts.usage.wcf.value)
    return RequestFootprint(
        energy_kwh_low=energy[0],
        energy_kwh_high=energy[1],
        usage_kg_co2e_low=usage[0],
        usage_kg_co2e_high=usage[1],
        embodied_kg_co2e_low=embodied[0],
        embodied_kg_co2e_high=embodied[1],
        water_litres_low=water[0],
        water_litres_high=water[1],
    )
