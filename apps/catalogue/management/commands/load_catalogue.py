"""`manage.py load_catalogue`: load the shipped catalogue figures."""

from apps.audit.load_command import LoadCommand
from apps.catalogue.loading import catalogue_load


class Command(LoadCommand):
    help = "Load the real hardware catalogue; rows already present are kept unless --overwrite."
    overwrite_help = (
        "Reset rows that exist to the shipped figures (undoes edits made in the admin)."
    )
    load = staticmethod(catalogue_load)
    what, title = "hardware catalogue", "Catalogue"
