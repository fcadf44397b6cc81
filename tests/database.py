"""The test database as a DATABASE_URL, for the processes the tests start (workers, servers)."""

from urllib.parse import quote

from django.db import connection


def database_url_of_tests() -> str:
    """The test database, for processes other than this one."""
    db = connection.settings_dict
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    host = db["HOST"] or "127.0.0.1"
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{user}{password}@{host}{port}/{db['NAME']}"
