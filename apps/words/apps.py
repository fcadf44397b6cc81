"""Words: the ground floor that writes figures, dates and the engine's messages for a reader."""

from django.apps import AppConfig


class WordsConfig(AppConfig):
    name = "apps.words"
