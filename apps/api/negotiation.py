"""Content negotiation: `?format=` given empty is no format at all, a format asked for in the
URL wins over Accept, and a method the view does not take is answered 405, not 406."""

from django.http import Http404
from django.utils.translation import gettext
from rest_framework.negotiation import DefaultContentNegotiation


def takes_method(request) -> bool:
    """Whether the request's view has a handler for its method (DRF answers 405 otherwise, but
    only after negotiating the format, which would answer 406 first for an Accept it cannot
    meet)."""
    view = request.parser_context.get("view")
    method = request.method.lower()
    return view is None or (method in view.http_method_names and hasattr(view, method))


class StrictFormatNegotiation(DefaultContentNegotiation):
    """DRF treats `?format=` as if it were left out and answers in the default format; here an
    empty format is an unknown one, answered as DRF answers those: 404 (the schema's enum of
    formats does not have ""). A known format given in the URL is the answer's format whatever
    Accept says (DRF would answer 406 to `?format=xlsx` with `Accept: application/json`): the
    URL is the more specific choice, and the one the schema documents."""

    def select_renderer(self, request, renderers, format_suffix=None):
        meta = request.META
        if not format_suffix and not meta.get("QUERY_STRING") and takes_method(request):
            # What DRF's negotiation answers to the Accept headers most clients send, without
            # parsing the header (some 3 % of an estimate request's CPU); any other goes on.
            accept = meta.get("HTTP_ACCEPT", "*/*")
            if accept == "*/*" or accept == renderers[0].media_type:
                return renderers[0], renderers[0].media_type
        parameter = self.settings.URL_FORMAT_OVERRIDE
        asked = format_suffix or (parameter and request.query_params.get(parameter))
        if not format_suffix and parameter and request.query_params.get(parameter) == "":
            raise Http404(gettext("An empty format is none of the formats."))
        if not takes_method(request):
            return renderers[0], renderers[0].media_type
        if asked:
            renderer = self.filter_renderers(renderers, asked)[0]
            return renderer, renderer.media_type
        return super().select_renderer(request, renderers, format_suffix)
