"""A JSON parser that refuses oversized bodies, non-finite numbers and pathological nesting."""

import codecs
import json

from django.conf import settings
from django.utils.translation import gettext
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


def reject_constant(name: str):
    """For json.loads: NaN and the infinities are not numbers JSON allows."""
    raise ValueError(gettext("%(name)s is not a number JSON allows") % {"name": name})


# json.loads with parse_constant builds a decoder (and its scanner) on every call; one serves all.
_DECODER = json.JSONDecoder(parse_constant=reject_constant)


def _loads(text: str) -> object:
    """json.loads(text, parse_constant=reject_constant), with its decoder made once."""
    if text.startswith("\ufeff"):  # as json.loads refuses it
        raise json.JSONDecodeError(
            gettext("Unexpected UTF-8 BOM (decode using utf-8-sig)"), text, 0
        )
    return _DECODER.decode(text)


class BoundedJSONParser(JSONParser):
    """Reads at most API_MAX_BODY_BYTES, so no request can make the server do unbounded work."""

    def parse(self, stream, media_type=None, parser_context=None):
        if stream is None:
            return None
        limit = settings.API_MAX_BODY_BYTES
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise ParseError(
                gettext("The request body is larger than %(kilobytes)d KB.")
                % {"kilobytes": limit // 1024}
            )
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.decode(raw, encoding)
            return _loads(text)
        except (ValueError, RecursionError) as error:
            raise ParseError(
                gettext("The request body is not valid JSON: %(error)s") % {"error": error}
            ) from None
