"""How PostgreSQL keeps a sweep's chunks: their results as they are, compressed once by us."""

import pytest
from django.db import connection

from apps.sweeps.models import SweepChunk

pytestmark = [pytest.mark.django_db, pytest.mark.postgres]


def test_postgresql_does_not_try_to_compress_chunk_results_again():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's column storage (CI has it)")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attstorage FROM pg_attribute"
            " WHERE attrelid = %s::regclass AND attname = 'results'",
            [SweepChunk._meta.db_table],
        )
        # "e", external: kept out of line, uncompressed ("x", extended, tries to compress).
        assert cursor.fetchone() == ("e",)
