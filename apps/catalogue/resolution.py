"""What an estimate request's sections resolve to: the catalogue rows used, notes, and errors.

`Resolution` is what the caller gets back with the engine inputs: the rows an estimate used and
plain-language notes on where figures came from. `RequestErrors` collects the request's problems,
keyed by the request field, and raises them together as one EstimateInputError. Notes and errors
are `Message`s, worded for a reader at the page or the API (apps.words.messages), never here.
"""

from dataclasses import dataclass, field

from apps.catalogue.models import Accelerator, EnergyProfile, LanguageModel
from apps.estimates import EstimateInputError
from apps.estimates.messages import Message


@dataclass
class Resolution:
    """The catalogue rows an estimate used, and plain-language notes on where figures came from."""

    accelerators: dict[str, Accelerator] = field(default_factory=dict)
    energy_profile: EnergyProfile | None = None
    model: LanguageModel | None = None
    notes: dict[str, list[Message]] = field(default_factory=dict)
    api_models: dict = field(default_factory=dict)  # slug → apps.apiprices PriceInForce

    def note(self, section: str, text: Message) -> None:
        self.notes.setdefault(section, []).append(text)


class RequestErrors:
    def __init__(self) -> None:
        self.errors: dict[str, list[Message]] = {}

    def add(self, key: str, message: Message) -> None:
        self.errors.setdefault(key, []).append(message)

    def raise_if_any(self) -> None:
        if self.errors:
            raise EstimateInputError(self.errors)
