"""makemessages with sorted output and without fuzzy matching.

Sorted: every catalogue lists its entries by msgid, so moving a string to another module, or
renaming one, leaves django.po as it was; module names never need to sort anywhere.
No fuzzy matching: a new string starts untranslated (the catalogue test then names it) instead of
borrowing the translation of a string that merely looks alike.
"""

from django.core.management.commands import makemessages

SORTED = "--sort-output"


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, SORTED]
    msguniq_options = [*makemessages.Command.msguniq_options, SORTED]
    msgmerge_options = [*makemessages.Command.msgmerge_options, SORTED, "--no-fuzzy-matching"]
    msgattrib_options = [*makemessages.Command.msgattrib_options, SORTED]
