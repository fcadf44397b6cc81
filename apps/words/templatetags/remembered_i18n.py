"""`{% load i18n %}`: Django's i18n tags, with `{% translate "…" %}` of a constant remembered per
translation catalogue (config/settings.py gives this library the name "i18n").

Django turns each `{% translate "…" %}` into a lazy translation, looks it up through every
catalogue it merged and their fallbacks (half a dozen for English, which the templates are
written in) and takes it through the template's localisation and escaping at every drawing: some
30 µs a tag, 60 of them in the live preview at each keystroke. The text it gives depends only on
the words and the catalogue, so it is worked out once per catalogue, as Django works it out;
every other form of the tag (a variable, a context, noop, a filter) is left to Django.
"""

from django import template
from django.templatetags import i18n
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from apps.words.language import remembered

register = template.Library()
register.tags.update(i18n.register.tags)
register.filters.update(i18n.register.filters)


class RememberedTranslateNode(i18n.TranslateNode):
    """Django's TranslateNode, its text remembered when it translates a constant."""

    def render(self, context):
        expression = self.filter_expression
        variable = expression.var
        if (
            self.noop
            or self.message_context is not None
            or expression.filters
            or getattr(variable, "lookups", True) is not None
            or not isinstance(variable.literal, str)
        ):
            return super().render(context)
        text = remembered(("translate", variable.literal), lambda: _translated(variable.literal))
        if self.asvar:
            context[self.asvar] = text
            return ""
        return text


def _translated(literal: str) -> SafeString:
    """What Django's TranslateNode draws for the constant `literal`: the template's constant is
    safe, so is its translation (never escaped), with its percent signs doubled for the lookup
    and restored after it."""
    return mark_safe(gettext(mark_safe(literal.replace("%", "%%"))).replace("%%", "%"))


@register.tag("translate")
@register.tag("trans")
def do_translate(parser, token):
    node = i18n.do_translate(parser, token)
    return RememberedTranslateNode(
        node.filter_expression, node.noop, node.asvar, node.message_context
    )
