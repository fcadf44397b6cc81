"""`manage.py load_api_prices`: load the vendored API prices."""

from apps.apiprices.loading import api_prices_load
from apps.audit.load_command import LoadCommand


class Command(LoadCommand):
    help = "Load the vendored API prices; models already present are kept unless --overwrite."
    overwrite_help = "Reset models that exist, and their prices, to the vendored file."
    load = staticmethod(api_prices_load)
    what, title = "API prices", "API prices"
