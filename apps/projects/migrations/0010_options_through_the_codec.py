"""Every options record kept with a version as a record of the codec (KeptOptions), read from
the options API's JSON kept until now (see _legacy_records)."""

from django.db import migrations

from apps.estimates.record import dump, is_record
from apps.projects.migrations._legacy_records import legacy_options


def options_through_the_codec(apps, schema_editor):
    ScenarioVersion = apps.get_model("projects", "ScenarioVersion")
    versions = ScenarioVersion.objects.filter(budget__has_key="options").select_related(
        "scenario__project"
    )
    for version in versions.iterator(chunk_size=200):
        record = version.budget["options"]
        if not record or is_record(record):
            continue
        project = version.scenario.project
        kept = legacy_options(record, project.fiscal_year_start_month, project.fiscal_year_label)
        version.budget = {**version.budget, "options": dump(kept)}
        version.save(update_fields=["budget"])


class Migration(migrations.Migration):
    dependencies = [("projects", "0009_records_through_the_codec")]

    operations = [
        migrations.RunPython(options_through_the_codec, migrations.RunPython.noop, elidable=True),
    ]
