"""Template tags of the review: `{% load reviews %}`."""

from django import template
from django.template.loader import render_to_string

from apps.core.fragments import cached_fragment, fragment_key
from apps.projects.roles import navigation_of

register = template.Library()


@register.simple_tag(takes_context=True)
def signed_in_navigation(context: template.Context) -> str:
    """`{% signed_in_navigation %}`: the main navigation of a signed-in user (whose review role
    shows the review queue), rendered once per user and role; its sign-out button submits the
    layout's #sign-out form, which carries the request's CSRF token."""
    user, nav = context["user"], context["nav"]
    values = {"nav": nav, **navigation_of(user)}
    return cached_fragment(
        fragment_key(
            "signed-in-navigation",
            user.pk,
            sorted(nav.items()),
            values["username"],
            values["reviews"],
            values["audit"],
        ),
        lambda: render_to_string("includes/navigation_signed_in.html", values),
    )
