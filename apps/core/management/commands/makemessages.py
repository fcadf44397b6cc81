"""makemessages without fuzzy matching: a new string starts untranslated (the catalogue test
then names it) instead of borrowing the translation of a string that merely looks alike."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    msgmerge_options = [*makemessages.Command.msgmerge_options, "--no-fuzzy-matching"]
