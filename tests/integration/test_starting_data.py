"""After a transactional test the database holds the suite's starting rows again, every table
exactly as before (tests/starting_data.py), in place of Django's flush."""

import pytest
from django.db import connection
from django.test import TransactionTestCase

from apps.apiprices.models import ApiPrice
from apps.catalogue.models import Accelerator, LanguageModel
from tests.factories import make_manager, make_project, make_scenario
from tests.starting_data import starting_data_restore

pytestmark = pytest.mark.django_db(transaction=True)


def every_row() -> dict[str, list[tuple]]:
    quote = connection.ops.quote_name
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    rows = {}
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"SELECT * FROM {quote(table)}")
            rows[table] = sorted(cursor.fetchall(), key=repr)
    return rows


def test_restoring_takes_back_every_change_and_keeps_the_catalogue():
    before = every_row()
    assert Accelerator.objects.filter(slug="nvidia-h100-sxm").exists()
    assert LanguageModel.objects.exists() and ApiPrice.objects.exists()

    make_scenario(make_project(make_manager()), is_baseline=True)
    Accelerator.objects.filter(slug="nvidia-h100-sxm").update(memory_gb=1)
    LanguageModel.objects.all().delete()
    ApiPrice.objects.filter(pk=ApiPrice.objects.first().pk).delete()
    assert every_row() != before

    starting_data_restore(connection)
    assert every_row() == before


def test_transactional_tests_end_with_the_restore_rather_than_a_flush():
    assert TransactionTestCase._fixture_teardown.__module__ == "tests.starting_data"


@pytest.mark.postgres
def test_only_the_tables_written_to_are_put_back():
    """A raw statement's write is noted as the ORM's is; a table nobody wrote to keeps its rows
    where they are (their ctid, the row's place on disk, is unchanged: not deleted and copied)."""
    if connection.vendor != "postgresql":
        pytest.skip("the triggers that note the tables written to are PostgreSQL's")
    quote = connection.ops.quote_name
    language_models = quote(LanguageModel._meta.db_table)
    accelerators = quote(Accelerator._meta.db_table)
    places = "SELECT ctid::text FROM {} ORDER BY id"
    with connection.cursor() as cursor:
        cursor.execute(places.format(language_models))
        language_models_before = cursor.fetchall()
        cursor.execute(places.format(accelerators))
        accelerators_before = cursor.fetchall()
        before = every_row()
        cursor.execute(f"UPDATE {accelerators} SET memory_gb = 1")
        make_project(make_manager())

        starting_data_restore(connection)

        assert every_row() == before
        cursor.execute(places.format(language_models))
        assert cursor.fetchall() == language_models_before  # not written to: left alone
        cursor.execute(places.format(accelerators))
        assert cursor.fetchall() != accelerators_before  # written to: put back
