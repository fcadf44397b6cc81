"""The data every test starts from, and a quick way back to it after a transactional test.

A test that uses `live_server` or `transactional_db` commits for real, so Django empties the
database after it (its `flush`: TRUNCATE of every table, then post_migrate creating the content
types, permissions and role groups again), and the next such test had to load the catalogue again:
about 1.5 s to 6 s a test, most of it TRUNCATE and the catalogue's validated inserts.

Instead, once the test database is set up (migrated, the catalogue and the API prices loaded), a
copy of every table's rows is kept in the database itself, and after each transactional test
every table is emptied and filled again from its copy, in one transaction (a few hundredths of a
second). Every test, transactional or not, so starts from the same rows: those a test in a
transaction that is rolled back sees.

On PostgreSQL only the tables a test wrote to are put back: a statement-level trigger on every
table notes its name in DIRTY (an INSERT, UPDATE, DELETE or TRUNCATE, whatever the rows), and the
catalogue's and the API prices' thousands of rows, which few tests touch, are left as they are.
The schema has no cascading foreign key (ON DELETE is Django's, in Python), so putting one table
back changes no other.
"""

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.core.cache import cache
from django.db import connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import TransactionTestCase

# The copy of table T is the table COPY_PREFIX + T, in the same database (and schema).
COPY_PREFIX = "start__"
# The aliases of the databases whose rows are kept.
KEPT: set[str] = set()
# PostgreSQL: the names of the tables written to since their rows were last put back, and the
# trigger function that notes them.
DIRTY = COPY_PREFIX + "dirty"
_NOTE_DIRTY = f"""CREATE OR REPLACE FUNCTION {DIRTY}_note() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO {DIRTY} (name) VALUES (TG_TABLE_NAME) ON CONFLICT DO NOTHING;
    RETURN NULL;
END $$"""


def _tables(connection: BaseDatabaseWrapper) -> list[str]:
    """The tables of the installed models: the ones Django's flush empties."""
    return sorted(
        connection.introspection.django_table_names(only_existing=True, include_views=False)
    )


def _copy_of(connection: BaseDatabaseWrapper, table: str) -> str:
    return connection.ops.quote_name(COPY_PREFIX + table)


def starting_data_keep(connection: BaseDatabaseWrapper) -> None:
    """Keep a copy of every table's rows, as they are now."""
    quote = connection.ops.quote_name
    postgresql = connection.vendor == "postgresql"
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        if postgresql:
            cursor.execute(f"CREATE UNLOGGED TABLE IF NOT EXISTS {DIRTY} (name text PRIMARY KEY)")
            cursor.execute(_NOTE_DIRTY)
        for table in _tables(connection):
            cursor.execute(f"DROP TABLE IF EXISTS {_copy_of(connection, table)}")
            cursor.execute(
                f"CREATE TABLE {_copy_of(connection, table)} AS SELECT * FROM {quote(table)}"
            )
            if postgresql:
                cursor.execute(f"DROP TRIGGER IF EXISTS {DIRTY} ON {quote(table)}")
                cursor.execute(
                    f"CREATE TRIGGER {DIRTY} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE "
                    f"ON {quote(table)} FOR EACH STATEMENT EXECUTE FUNCTION {DIRTY}_note()"
                )
        if postgresql:
            cursor.execute(f"DELETE FROM {DIRTY}")
    KEPT.add(connection.alias)


def starting_data_restore(connection: BaseDatabaseWrapper) -> None:
    """Put every table back as starting_data_keep found it: the rows a test added, changed or
    deleted are gone, the kept ones are back (sequences go on, as after Django's flush)."""
    quote = connection.ops.quote_name
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        tables = _tables(connection)
        if connection.vendor == "postgresql":
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")  # foreign keys checked at the commit
            cursor.execute(f"SELECT name FROM {DIRTY}")
            written = {name for (name,) in cursor.fetchall()}
            tables = [table for table in tables if table in written]
        for table in tables:
            cursor.execute(f"DELETE FROM {quote(table)}")
        for table in tables:
            cursor.execute(
                f"INSERT INTO {quote(table)} SELECT * FROM {_copy_of(connection, table)}"
            )
        if connection.vendor == "postgresql":
            cursor.execute(f"DELETE FROM {DIRTY}")  # this restore's own writes included
    # The cache holds copies of rows (sessions, roles, the catalogue's version): gone with them.
    cache.clear()


def _restore_instead_of_flush(test_case: TransactionTestCase) -> None:
    """TransactionTestCase._fixture_teardown: Django's flush only where no rows were kept, or
    for a test that limits the apps or asks for serialized rollback."""
    aliases = test_case._databases_names(include_mirrors=False)
    if (
        test_case.available_apps is not None
        or test_case.serialized_rollback
        or not KEPT.issuperset(aliases)
    ):
        FLUSH(test_case)
        return
    for alias in aliases:
        starting_data_restore(connections[alias])


FLUSH = TransactionTestCase._fixture_teardown


@contextmanager
def transactional_tests_restore_the_starting_data() -> Iterator[None]:
    """While open, a transactional test ends with starting_data_restore rather than a flush."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(TransactionTestCase, "_fixture_teardown", _restore_instead_of_flush)
        yield
