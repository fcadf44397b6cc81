"""Template filters: the engine's notes, budget lines and errors in the reader's language, and
the text the engine quotes as its source."""

from django import template

from apps.estimates import modification
from apps.estimates.budget import COMPUTED_KINDS
from apps.words.messages import message_text

register = template.Library()


@register.filter
def engine_text(text: object) -> str:
    """An engine message in the active language; any other text as it is."""
    return message_text(text)


@register.filter
def budget_line_name(name: object, kind: str) -> str:
    """A budget line's name: the engine's words for a line the estimate adds, translated; the
    name someone gave their own line, as they wrote it."""
    return message_text(name) if kind in COMPUTED_KINDS else str(name)


@register.simple_tag
def modification_guidelines() -> dict[str, str]:
    """`{% modification_guidelines as guidelines %}`: the EU guidelines' words the one-third
    rule follows (rule, fallback), as published in English, and where they are from."""
    return {
        "rule": modification.GUIDELINES_RULE_QUOTE,
        "fallback": modification.GUIDELINES_FALLBACK_QUOTE,
        "source": modification.GUIDELINES_SOURCE,
    }
