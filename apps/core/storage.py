"""Static files storages whose URLs are worked out once per name and process.

`{% static %}` asks the storage for a URL on every render; a name's URL cannot change while the
process runs (the manifest is read at start), so each is kept after its first use.
"""

from django.contrib.staticfiles.storage import StaticFilesStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage


class RememberedUrls:
    def url(self, name: str, force: bool = False) -> str:
        if force:
            return super().url(name, force)
        urls = self.__dict__.setdefault("_remembered_urls", {})
        try:
            return urls[name]
        except KeyError:
            urls[name] = url = super().url(name)
            return url


class StaticFiles(RememberedUrls, StaticFilesStorage):
    """Development and tests: files served from the apps' folders."""


class ManifestStaticFiles(RememberedUrls, CompressedManifestStaticFilesStorage):
    """Production: hashed, compressed copies collected into STATIC_ROOT."""
