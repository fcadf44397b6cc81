"""PostgreSQL stores a chunk's results as they are, without trying to compress them again.

They are zlib-compressed already (apps.sweeps.storage), so PostgreSQL's own compression never
saves the quarter it asks for, yet trying it on every ~0.45 MB chunk took most of the server's
processor time for the insert (the 1,000,000-point sweep benchmark's chunks on PostgreSQL 15:
about 4.5 ms of 6).
"""

from django.db import migrations


def _set_storage(apps, schema_editor, storage: str) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    table = schema_editor.quote_name(apps.get_model("sweeps", "SweepChunk")._meta.db_table)
    schema_editor.execute(f"ALTER TABLE {table} ALTER COLUMN results SET STORAGE {storage}")


def results_stored_as_they_are(apps, schema_editor) -> None:
    _set_storage(apps, schema_editor, "EXTERNAL")


def results_compressed_again(apps, schema_editor) -> None:
    _set_storage(apps, schema_editor, "EXTENDED")


class Migration(migrations.Migration):
    dependencies = [("sweeps", "0002_field_names_for_people")]

    operations = [migrations.RunPython(results_stored_as_they_are, results_compressed_again)]
