"""What remembered words depend on: the active language and the catalogue its words come from;
and the translations of the code's own messages, remembered per catalogue."""

from collections.abc import Callable

from django.conf import settings
from django.utils import translation
from django.utils.translation import trans_real


def active_words() -> tuple:
    """A key for text remembered per language: the active language's code and its translation
    catalogue. The code alone is not enough: a catalogue is loaded again when LOCALE_PATHS or
    LANGUAGES change (a pseudo-locale written per test, a reload), and words remembered from the
    old one would be handed out under the same code. The catalogue object is kept alive by the
    key, so a reloaded one never shares an identity with the old. The code is the catalogue's
    own, as translation.get_language() gives it (the active language is looked up once: a figure
    asks for this key each time it is drawn)."""
    catalog = trans_real.catalog()
    try:
        return catalog.to_language(), catalog
    except AttributeError:  # not a translation of Django's
        return settings.LANGUAGE_CODE, catalog


# The code's messages in each catalogue, as gettext and ngettext give them: a page words the same
# few hundred messages at every request, and the live preview at every keystroke, while Django
# looks each one up through every catalogue it merged and their fallbacks (for English, which the
# messages are written in, half a dozen before it gives the message back as it is).
_TRANSLATED: dict[object, dict] = {}
_CATALOGUES_KEPT = 8
_MESSAGES_KEPT = 8192  # per catalogue; a plural message is kept per count


def _translated_in(catalog: object) -> dict:
    translated = _TRANSLATED.get(catalog)
    if translated is None or len(translated) >= _MESSAGES_KEPT:
        if len(_TRANSLATED) >= _CATALOGUES_KEPT:
            _TRANSLATED.clear()
        translated = _TRANSLATED[catalog] = {}
    return translated


def gettext(message: str) -> str:
    """Django's gettext of a message the catalogue translates (the code's own, a catalogue
    row's name), remembered per translation catalogue."""
    translated = _translated_in(trans_real.catalog())
    text = translated.get(message)
    if text is None:
        text = translated[message] = translation.gettext(message)
    return text


def ngettext(singular: str, plural: str, number: int) -> str:
    """Django's ngettext of one of the code's messages, remembered per catalogue and count."""
    translated = _translated_in(trans_real.catalog())
    key = (singular, plural, number)
    text = translated.get(key)
    if text is None:
        text = translated[key] = translation.ngettext(singular, plural, number)
    return text


def remembered(key: object, work: Callable[[], str]) -> str:
    """A text that depends on nothing but the active catalogue's words (work() gives it),
    remembered per catalogue under `key`."""
    translated = _translated_in(trans_real.catalog())
    text = translated.get(key)
    if text is None:
        text = translated[key] = work()
    return text
