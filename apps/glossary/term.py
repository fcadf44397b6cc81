"""A glossary term and a common misconception about it: plain data, worded through gettext."""

from dataclasses import dataclass

from django.utils.functional import Promise


@dataclass(frozen=True)
class Misconception:
    belief: Promise  # what people often think
    correction: Promise  # what holds instead


@dataclass(frozen=True)
class Term:
    """One term: `slug` names its page (/glossary/<slug>/) and never changes with the language."""

    slug: str
    name: Promise
    definition: Promise  # in plain words
    example: Promise | None = None  # an everyday comparison, where one helps
    limits: Promise | None = None  # where that comparison stops working
    misconceptions: tuple[Misconception, ...] = ()
    related: tuple[str, ...] = ()  # slugs of other terms
    page: str | None = None  # URL name of the page that shows the term at work
    page_label: Promise | None = None  # the link's words
