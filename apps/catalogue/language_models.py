"""Open-weight language model architectures: the model catalogue's rows."""

from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.catalogue.sourced import Sourced, optional_figure

# Model slugs keep the version's dots ("llama-3.1-8b"), which a SlugField refuses.
MODEL_SLUG_PATTERN = r"[a-z0-9][-a-z0-9_.]*"
# How a model keys and values its attention, by the abbreviation the literature uses.
ATTENTION_LABELS = {
    "MHA": _("multi-head attention (MHA)"),
    "MQA": _("multi-query attention (MQA)"),
    "GQA": _("grouped-query attention (GQA)"),
    "MLA": _("multi-head latent attention (MLA)"),
}
validate_model_slug = RegexValidator(
    rf"^{MODEL_SLUG_PATTERN}\Z",
    _("Lower-case letters, digits, dots, hyphens and underscores only, e.g. llama-3.1-8b."),
)


def _count_field(verbose_name: str, help_text: str = "", *, null: bool = False):
    if null:
        return optional_figure(verbose_name, 1, help_text, field=models.PositiveIntegerField)
    return models.PositiveIntegerField(
        verbose_name, validators=[MinValueValidator(1)], help_text=help_text
    )


class LanguageModel(Sourced):
    """An open-weight language model's architecture: what serving memory and FLOP are made of.

    Widths are as the model's config.json gives them; parameter counts are the published ones
    (the notes say where a count is nominal and what the dimensions give).
    """

    class Architecture(models.TextChoices):
        DENSE = "dense", _("Dense")
        MOE = "moe", _("Mixture of experts")

    slug = models.CharField(
        _("slug"),
        max_length=80,
        unique=True,
        validators=[validate_model_slug],
        help_text=_("e.g. llama-3.1-8b"),
    )
    name = models.CharField(_("name"), max_length=80)
    developer = models.CharField(_("developer"), max_length=80)
    architecture = models.CharField(_("architecture"), max_length=5, choices=Architecture)
    layers = _count_field(_("layers"))
    hidden_size = _count_field(_("hidden size"))
    query_heads = _count_field(_("query heads"))
    kv_heads = _count_field(_("key/value heads"), _("Equal to the query heads for MHA, 1 for MQA."))
    head_dim = _count_field(_("head dimension"))
    ffn_hidden_size = _count_field(
        _("dense MLP width"),
        _("For a mixture of experts, the width of its dense layers; empty if it has none."),
        null=True,
    )
    moe_ffn_hidden_size = _count_field(
        _("expert MLP width"), _("Per expert; empty for a dense model."), null=True
    )
    vocabulary = _count_field(_("vocabulary (tokens)"))
    tied_embeddings = models.BooleanField(
        _("tied embeddings"),
        default=False,
        help_text=_("The output layer reuses the input embedding."),
    )
    experts_total = _count_field(_("experts"), _("Routed experts per MoE layer."), null=True)
    experts_active = _count_field(_("active experts"), _("Routed experts per token."), null=True)
    experts_shared = models.PositiveIntegerField(
        _("shared experts"),
        null=True,
        blank=True,
        help_text=_("Experts every token passes through, besides the routed ones; empty if dense."),
    )
    dense_layers = models.PositiveIntegerField(
        _("leading dense layers"),
        null=True,
        blank=True,
        help_text=_("MoE models whose first layers are dense: how many; empty otherwise."),
    )
    mla_kv_lora_rank = _count_field(
        _("MLA key/value latent width"), _("Multi-head latent attention only."), null=True
    )
    mla_q_lora_rank = _count_field(
        _("MLA query latent width"), _("Multi-head latent attention only."), null=True
    )
    mla_rope_head_dim = _count_field(
        _("MLA rotary key width"), _("Multi-head latent attention only."), null=True
    )
    attention_bias = models.BooleanField(
        _("attention biases"), default=False, help_text=_("Biases on the q/k/v projections.")
    )
    sliding_window = _count_field(
        _("sliding window (tokens)"),
        _("Empty if no layer uses one; the notes say which layers do."),
        null=True,
    )
    sliding_window_layers = models.PositiveIntegerField(
        _("sliding-window layers"),
        null=True,
        blank=True,
        help_text=_(
            "How many layers keep only the last window of tokens in their KV cache; empty if none."
        ),
    )
    context_length = _count_field(_("context length (tokens)"))
    total_parameters = models.FloatField(
        _("total parameters"), validators=[MinValueValidator(1)], help_text=_("What memory holds.")
    )
    active_parameters = models.FloatField(
        _("active parameters"),
        validators=[MinValueValidator(1)],
        help_text=_("Used per token: what the FLOP count uses (the total for a dense model)."),
    )
    licence = models.CharField(_("licence"), max_length=120)
    training_compute_flop = optional_figure(
        _("published training compute (FLOP)"),
        1,
        _(
            "As its developer published it; empty where not published. Compared with a "
            "fine-tune's compute under the EU guidelines' one-third rule."
        ),
    )
    training_compute_source = models.TextField(
        _("source of the training compute"),
        blank=True,
        help_text=_("The document that publishes it, quoted and dated; empty where not published."),
    )

    class Meta:
        ordering = ["developer", "name"]
        verbose_name = _("language model")
        verbose_name_plural = _("language models")

    def __str__(self) -> str:
        return self.name

    @property
    def developer_and_name(self) -> str:
        """ "Meta Llama 3.1 8B": how a list of models to choose from names each one."""
        return f"{self.developer} {self.name}"

    @property
    def total_parameters_billions(self) -> float:
        return self.total_parameters / 1e9

    @property
    def active_parameters_billions(self) -> float:
        return self.active_parameters / 1e9

    @property
    def uses_mla(self) -> bool:
        return self.mla_kv_lora_rank is not None

    @property
    def attention_kind(self) -> str:
        """MLA, MHA, MQA or GQA: how the model keys and values its attention."""
        if self.uses_mla:
            return "MLA"
        if self.kv_heads == self.query_heads:
            return "MHA"
        return "MQA" if self.kv_heads == 1 else "GQA"

    @property
    def attention_label(self) -> str:
        """The attention kind in words of the active language, with its usual abbreviation."""
        return str(ATTENTION_LABELS[self.attention_kind])

    def clean(self) -> None:
        errors: dict[str, str] = {}
        moe_fields = ("moe_ffn_hidden_size", "experts_total", "experts_active", "experts_shared")
        if self.architecture == self.Architecture.DENSE:
            for name in (*moe_fields, "dense_layers"):
                if getattr(self, name) is not None:
                    errors[name] = _("A dense model has no experts: leave this empty.")
            if self.ffn_hidden_size is None:
                errors["ffn_hidden_size"] = _("A dense model needs its MLP width.")
            if self.active_parameters != self.total_parameters:
                errors["active_parameters"] = _("A dense model uses all its parameters.")
        elif self.architecture == self.Architecture.MOE:
            for name in moe_fields:
                if getattr(self, name) is None:
                    errors[name] = _("A mixture of experts needs this figure.")
            if None not in (self.experts_active, self.experts_total) and (
                self.experts_active > self.experts_total
            ):
                errors["experts_active"] = _("More active experts than experts.")
            if self.dense_layers is not None and self.ffn_hidden_size is None:
                errors["ffn_hidden_size"] = _("The dense layers need their MLP width.")
        if (self.sliding_window is None) != (self.sliding_window_layers is None):
            errors["sliding_window_layers"] = _(
                "Give both the sliding window and how many layers use it, or neither."
            )
        elif None not in (self.sliding_window_layers, self.layers) and (
            self.sliding_window_layers > self.layers
        ):
            errors["sliding_window_layers"] = _("More sliding-window layers than layers.")
        if None not in (self.dense_layers, self.layers) and self.dense_layers >= self.layers:
            errors["dense_layers"] = _("Fewer dense layers than layers, or leave it empty.")
        if None not in (self.active_parameters, self.total_parameters) and (
            self.active_parameters > self.total_parameters
        ):
            errors["active_parameters"] = _("More active parameters than parameters.")
        if self.query_heads and self.kv_heads and self.query_heads % self.kv_heads:
            errors["kv_heads"] = _("The query heads must be a multiple of the key/value heads.")
        mla = (self.mla_kv_lora_rank, self.mla_rope_head_dim)
        if (None in mla) != (mla == (None, None)):
            errors["mla_rope_head_dim"] = _("MLA needs both its latent and rotary widths.")
        if errors:
            raise ValidationError(errors)
