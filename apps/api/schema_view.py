"""The OpenAPI schema served at /api/schema/: made once a process for each language and format.

The schema is the code's (apps.api.schema): it changes with a release, never with the data or
with who asks (it is served whole to everyone, SERVE_PUBLIC). Generating and rendering it takes
about a second, which every client that reads it (Swagger UI, a client generator, the fuzzer)
would otherwise pay on each request. A version, a language or a format's parameters that are not
the site's own (`?version=`, `?lang=`, the Accept header: free text) are generated each time, as
before, and never kept.
"""

from django.conf import settings
from django.http import HttpResponse
from django.utils import translation
from drf_spectacular.views import SpectacularAPIView
from rest_framework.request import Request

# (language, media type) -> (body, Content-Type, Content-Disposition)
_rendered: dict[tuple[str, str], tuple[bytes, str, str]] = {}


class SchemaView(SpectacularAPIView):
    def _get_schema_response(self, request: Request) -> HttpResponse:
        language = translation.get_language()
        version = self.api_version or request.version or self._get_version_parameter(request)
        media_type = request.accepted_media_type  # with the Accept header's parameters, if any
        if (
            version is not None
            or language not in {code for code, _ in settings.LANGUAGES}
            or media_type != request.accepted_renderer.media_type
        ):
            return super()._get_schema_response(request)
        key = (language, media_type)
        if key not in _rendered:
            response = super()._get_schema_response(request)
            response.accepted_renderer = request.accepted_renderer
            response.accepted_media_type = request.accepted_media_type
            response.renderer_context = self.get_renderer_context()
            response.render()
            _rendered[key] = (
                response.content,
                response["Content-Type"],
                response["Content-Disposition"],
            )
        content, content_type, disposition = _rendered[key]
        return HttpResponse(
            content, content_type=content_type, headers={"Content-Disposition": disposition}
        )
