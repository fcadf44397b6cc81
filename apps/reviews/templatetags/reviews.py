"""Template filters of the review: `{% load reviews %}`."""

from django import template

from apps.reviews import selectors

register = template.Library()


@register.filter
def can_review(user) -> bool:
    """`{% if user|can_review %}`: whether to show the way to the review queue (roles cached)."""
    return selectors.can_review(user, cached=True)
