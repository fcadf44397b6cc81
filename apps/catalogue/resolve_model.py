"""A request's language model, resolved against the model catalogue: the figures it fills in
where the request gives none, and notes saying where they came from."""

from apps.catalogue.models import LanguageModel
from apps.catalogue.resolution import RequestErrors, Resolution
from apps.catalogue.snapshot import Catalogue
from apps.catalogue.suggestions import unknown_slug_message
from apps.estimates.messages import Day, Number, _, exact, number
from apps.estimates.modification import BaseModel


def _catalogue_model(
    slug: str, key: str, catalogue: Catalogue, errors: RequestErrors
) -> LanguageModel | None:
    """The catalogue's model `slug`, or None with an error at the request's `key`."""
    model = catalogue.models.get(slug)
    if model is None:
        message = _("No model %(slug)s in the catalogue.", slug=repr(slug))
        errors.add(key, unknown_slug_message(message, slug, catalogue.models))
    return model


def _model_numbers(model: LanguageModel) -> dict:
    """A catalogue model's figures as inference inputs (active parameters as `parameters`)."""
    numbers = {
        "parameters": model.active_parameters,
        "total_parameters": model.total_parameters,
        "layers": model.layers,
        "query_heads": model.query_heads,
        "head_dim": model.head_dim,
        "hidden_size": model.hidden_size,
        "experts_total": model.experts_total,
        "experts_active": model.experts_active,
        "sliding_window": model.sliding_window,
        "sliding_window_layers": model.sliding_window_layers,
    }
    if model.uses_mla:
        numbers["kv_latent_width"] = model.mla_kv_lora_rank + model.mla_rope_head_dim
    else:
        numbers["kv_heads"] = model.kv_heads
    return {name: value for name, value in numbers.items() if value is not None}


def _billions(parameters: float) -> Number:
    """Parameters in billions to four significant figures."""
    return exact(f"{parameters / 1e9:.4g}")


def model_numbers_for(
    data: dict, catalogue: Catalogue, errors: RequestErrors, resolution: Resolution
) -> dict:
    """The numbers the chosen catalogue model fills in, where the request gives none."""
    slug = data.get("model")
    if not slug:
        return {}
    model = _catalogue_model(slug, "inference.model", catalogue, errors)
    if model is None:
        return {}
    resolution.model = model
    filled = {
        name: value for name, value in _model_numbers(model).items() if data.get(name) is None
    }
    resolution.note(
        "inference",
        _(
            "Model %(name)s: %(attention)s attention, %(layers)s layers, %(total)s B parameters "
            "(%(active)s B active) from the model catalogue (%(source)s, as of %(date)s).",
            name=str(model.name),
            attention=model.attention_kind,
            layers=exact(model.layers),
            total=_billions(model.total_parameters),
            active=_billions(model.active_parameters),
            source=str(model.source),
            date=Day(model.as_of),
        ),
    )
    if model.sliding_window is not None and model.sliding_window_layers is not None:
        resolution.note(
            "inference",
            _(
                "%(sliding)s of its %(layers)s layers keep only the last %(window)s tokens in "
                "their KV cache (sliding window).",
                sliding=exact(model.sliding_window_layers),
                layers=exact(model.layers),
                window=exact(model.sliding_window),
            ),
        )
    return filled


def base_model_for(
    data: dict, catalogue: Catalogue, errors: RequestErrors, resolution: Resolution
) -> BaseModel | None:
    """The catalogue model a training run fine-tunes (`training.base_model`), with its published
    training compute, for the one-third rule; None where the request names none."""
    slug = data.get("base_model")
    if not slug:
        return None
    model = _catalogue_model(slug, "training.base_model", catalogue, errors)
    if model is None:
        return None
    name = f"{model.developer} {model.name}"
    if model.training_compute_flop is None:
        resolution.note(
            "training",
            _(
                "Base model %(name)s: its training compute is not published, so the one-third "
                "rule falls back on a third of 10^23 FLOP.",
                name=name,
            ),
        )
    else:
        resolution.note(
            "training",
            _(
                "Base model %(name)s: %(flop)s FLOP of training compute, as published "
                "(%(source)s).",
                name=name,
                flop=number(model.training_compute_flop, "g4"),
                source=str(model.training_compute_source),
            ),
        )
    return BaseModel(name=name, training_flop=model.training_compute_flop)
