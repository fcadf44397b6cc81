"""Glossary: the terms the pages use, explained in plain words, in every interface language."""

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GlossaryConfig(AppConfig):
    name = "apps.glossary"
    verbose_name = _("Glossary")
