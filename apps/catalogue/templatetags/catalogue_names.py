"""`{% load catalogue_names %}{{ threshold.name|catalogue_name }}`: a catalogue name in the
reader's language (apps.catalogue.names)."""

from django import template

from apps.catalogue import names

register = template.Library()


@register.filter
def catalogue_name(name: str) -> str:
    return names.catalogue_name(name)
