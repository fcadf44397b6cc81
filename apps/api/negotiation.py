"""Content negotiation that takes `?format=` given empty for what it is: no format at all."""

from django.http import Http404
from django.utils.translation import gettext
from rest_framework.negotiation import DefaultContentNegotiation


class StrictFormatNegotiation(DefaultContentNegotiation):
    """DRF treats `?format=` as if it were left out and answers in the default format; here an
    empty format is an unknown one, answered as DRF answers those: 404 (the schema's enum of
    formats does not have "")."""

    def select_renderer(self, request, renderers, format_suffix=None):
        parameter = self.settings.URL_FORMAT_OVERRIDE
        if not format_suffix and parameter and request.query_params.get(parameter) == "":
            raise Http404(gettext("An empty format is none of the formats."))
        return super().select_renderer(request, renderers, format_suffix)
