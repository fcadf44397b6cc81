"""A JSON parser that refuses oversized bodies, non-finite numbers and pathological nesting."""

import codecs
import json

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


class BoundedJSONParser(JSONParser):
    """Reads at most API_MAX_BODY_BYTES, so no request can make the server do unbounded work."""

    def parse(self, stream, media_type=None, parser_context=None):
        if stream is None:
            return None
        limit = settings.API_MAX_BODY_BYTES
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise ParseError(f"The request body is larger than {limit // 1024} KB.")
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.decode(raw, encoding)
            return json.loads(text, parse_constant=_reject_constant)
        except (ValueError, RecursionError) as error:
            raise ParseError(f"The request body is not valid JSON: {error}") from None
