"""What remembered words depend on: the active language and the catalogue its words come from."""

from django.utils import translation
from django.utils.translation import trans_real


def active_words() -> tuple:
    """A key for text remembered per language: the active language's code and its translation
    catalogue. The code alone is not enough: a catalogue is loaded again when LOCALE_PATHS or
    LANGUAGES change (a pseudo-locale written per test, a reload), and words remembered from the
    old one would be handed out under the same code. The catalogue object is kept alive by the
    key, so a reloaded one never shares an identity with the old."""
    return translation.get_language(), trans_real.catalog()
