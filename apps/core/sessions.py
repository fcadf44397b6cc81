"""The session store: Django's cached_db, refusing session keys it could never have made.

Django makes keys of lowercase letters and digits; a cookie can carry anything, including an
escaped NUL that PostgreSQL refuses in a query. A key of other characters is no key: the request
goes on without a session, as with an unknown one.
"""

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDbSessionStore

KEY_CHARACTERS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


class SessionStore(CachedDbSessionStore):
    def _validate_session_key(self, key: str | None) -> bool:
        return bool(super()._validate_session_key(key)) and set(key) <= KEY_CHARACTERS
