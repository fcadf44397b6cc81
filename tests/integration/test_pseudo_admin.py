"""The admin in the reader's language: a superuser's pseudo-locale render of the admin's index and
of every model the project registers (its list, its add form, an object's change form), every
message written ⟦message⟧ (tests/integration/test_pseudo_locale.py explains the check), in the
world of test_pseudo_every_page: one of every object a page shows.

What the check leaves out, and why:
- Django's own words go through Django's catalogues, which the pseudo-locale brackets like ours
  (pseudo_locale reads every French django.po Django ships): they pass, so they need no rule.
- Data is not interface: what people typed and the catalogue's rows (names, sources, notes, JSON
  inputs) and each object's own name (`str(obj)`, in breadcrumbs, titles and select options) are
  the same in every language (`admin_data`), and so is what a text box holds.
- Django's admin writes the alt text of its own icons outside gettext: the search box's "Search"
  (admin/search_form.html) and a yes/no column's True/False/None, Python's words rather than a
  message (admin_list._boolean_icon). Those are Django's to translate (ADMIN_ICON_ALT).
So any other word left is a label, heading, help text, choice, fieldset title, column or action
of the project's that bypassed gettext. `test_every_project_label_of_the_admin_goes_through_
gettext` reads the same strings from the models and admin classes themselves, so a field that
no page shows (or a hidden one) is checked too.
"""

import json
import re
from datetime import date
from decimal import Decimal

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import models
from django.test import Client
from django.utils import timezone, translation

from apps.exchange.models import OrganisationRate, RateTable
from apps.sweeps.models import ScenarioFreshness
from tests.integration.pseudo_world import WORLD_DATA
from tests.integration.test_langexports_pseudo_pages import catalogue_words
from tests.integration.test_pseudo_every_page import world  # noqa: F401 (a fixture)
from tests.integration.test_pseudo_locale import (  # noqa: F401 (a fixture)
    PSEUDO,
    pseudo_locale,
    untranslated,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("pseudo_locale")]

ADMIN_ICON_ALT = re.compile(r'(<img src="[^"]*/admin/img/[a-z-]+\.svg") alt="[^"]*"')
TITLE = re.compile(r"<title>(.*?)</title>", re.S)
BODY = re.compile(r"<body\b[^>]*>")
TEXTAREA = re.compile(r"(<textarea\b[^>]*>).*?(</textarea>)", re.S)


def project_admins() -> dict[type[models.Model], admin.ModelAdmin]:
    """The models the project registers in the admin (Django's users and groups are Django's)."""
    return {
        model: model_admin
        for model, model_admin in admin.site._registry.items()
        if model.__module__.startswith("apps.")
    }


@pytest.fixture
def superuser(world):  # noqa: F811 (the fixture imported above)
    """The world of every page (test_pseudo_every_page), with a scenario the catalogue no longer
    serves, an organisation's rate table with one rate, and a superuser who sees every model."""
    ScenarioFreshness.objects.create(
        scenario_id=world["ids"]["owned"],
        version=1,
        checked_at=timezone.now(),
        problem="The accelerator left the catalogue.",
    )
    table = RateTable.objects.create(name="UN operational rates", source="treasury.un.org")
    OrganisationRate.objects.create(
        table=table,
        base="USD",
        quote="EUR",
        valid_from=date(2025, 6, 1),
        rate=Decimal("0.9"),
        source="UN operational rates of exchange, June 2025",
        as_of=date(2025, 6, 1),
    )
    return get_user_model().objects.create_superuser("admin-user", password="a-long-test-password")


def admin_data() -> list[str]:
    """Every row's own words: its name (`str(obj)`) and the text it holds, of every model the
    admin shows (inlines and the users behind foreign keys included)."""
    shown = {*project_admins(), get_user_model()}
    for model_admin in project_admins().values():
        shown |= {inline.model for inline in model_admin.inlines}
    words = set(WORLD_DATA) | set(catalogue_words())
    for model in shown:
        for row in model.objects.all():
            words.add(" ".join(str(row).split()))
            for value in vars(row).values():
                if isinstance(value, dict | list):  # a JSON field, as a read-only field shows it
                    value = json.dumps(value)
                if isinstance(value, str) and len(value) > 1:
                    words.add(" ".join(value.split()))
    return sorted(words, key=len, reverse=True)


def _paths(superuser) -> list[str]:
    paths = ["/admin/"]
    request = type("Request", (), {"user": superuser})()
    for model, model_admin in project_admins().items():
        base = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        paths.append(base)
        if model_admin.has_add_permission(request):
            paths.append(f"{base}add/")
        first = model.objects.order_by("pk").first()
        assert first is not None, f"the world has no {model.__name__}: nothing to render"
        paths.append(f"{base}{first.pk}/change/")
    return paths


def _left_in_english(client: Client, path: str, data: list[str]) -> list[str]:
    response = client.get(path, headers={"accept-language": PSEUDO})
    assert response.status_code == 200, path
    assert response["Content-Language"] == PSEUDO
    html = ADMIN_ICON_ALT.sub(r"\1", response.content.decode())
    html = TEXTAREA.sub(r"\1\2", html)
    # The admin's <body> has attributes, and its <title> names the page: both are read.
    title = TITLE.search(html).group(1)
    return untranslated(BODY.sub(f"<body><h1>{title}</h1>", html, count=1), data)


def test_every_word_of_the_admin_goes_through_gettext(superuser):
    client = Client()
    client.force_login(superuser)
    data = admin_data()
    left = {path: _left_in_english(client, path, data) for path in _paths(superuser)}
    assert {path: words for path, words in left.items() if words} == {}


def _project_labels(model: type[models.Model], model_admin: admin.ModelAdmin | None) -> dict:
    """Every label, help text and choice of a model (and of its admin) the project words."""
    opts = model._meta
    labels = {
        f"{opts.label}: app": opts.app_config.verbose_name,
        f"{opts.label}: verbose name": opts.verbose_name,
        f"{opts.label}: verbose name plural": opts.verbose_name_plural,
    }
    for field in [*opts.fields, *opts.many_to_many]:
        if field.auto_created:  # the primary key Django adds, "ID": Django's word
            continue
        labels[f"{opts.label}.{field.name}"] = field.verbose_name
        if field.help_text:
            labels[f"{opts.label}.{field.name}: help"] = field.help_text
        for value, label in field.flatchoices if field.choices else ():
            labels[f"{opts.label}.{field.name}: {value}"] = label
    for position, (title, _options) in enumerate(getattr(model_admin, "fieldsets", None) or ()):
        if title is not None:
            labels[f"{opts.label}: fieldset {position}"] = title
    for action in model_admin._get_base_actions() if model_admin else ():
        labels[f"{opts.label}: action {action.name}"] = action.description
    return labels


def test_every_project_label_of_the_admin_goes_through_gettext():
    labels = {}
    for model, model_admin in project_admins().items():
        labels |= _project_labels(model, model_admin)
        for inline in model_admin.inlines:
            labels |= _project_labels(inline.model, None)
    with translation.override(PSEUDO):
        plain = {name: str(label) for name, label in labels.items()}
    assert len(plain) > 150
    # Whole messages: Django's default plural, "{verbose name}s", would read "⟦…⟧s". Django's own
    # action ("Delete selected …") is bracketed by Django's catalogue.
    whole = re.compile(r"⟦[^⟦⟧]*⟧")
    assert {name: text for name, text in plain.items() if not whole.fullmatch(text)} == {}
