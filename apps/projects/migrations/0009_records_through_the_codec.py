"""Every stored estimate and budget as a record of the codec (apps.estimates.record), read
from the API JSON kept until now (see _legacy_records)."""

import django.core.serializers.json
from django.db import migrations, models

from apps.estimates.record import dump, is_record
from apps.projects.migrations._legacy_records import legacy_budget, legacy_estimate


def _budget(record: dict | None) -> dict | None:
    if not record or is_record(record):
        return record
    return dump(legacy_budget(record))


def records_through_the_codec(apps, schema_editor):
    ScenarioVersion = apps.get_model("projects", "ScenarioVersion")
    ProjectSnapshot = apps.get_model("projects", "ProjectSnapshot")
    for version in ScenarioVersion.objects.only("results", "budget").iterator(chunk_size=200):
        if not is_record(version.results):
            version.results = dump(legacy_estimate(version.results))
        if version.budget and version.budget.get("drawn_up"):
            version.budget = {**version.budget, "drawn_up": _budget(version.budget["drawn_up"])}
        version.save(update_fields=["results", "budget"])
    for snapshot in ProjectSnapshot.objects.only("budget").iterator(chunk_size=200):
        snapshot.budget = _budget(snapshot.budget)
        snapshot.save(update_fields=["budget"])


class Migration(migrations.Migration):
    dependencies = [("projects", "0008_planning_dates")]

    operations = [
        migrations.RunPython(records_through_the_codec, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(
            model_name="projectsnapshot",
            name="budget",
            field=models.JSONField(
                blank=True,
                encoder=django.core.serializers.json.DjangoJSONEncoder,
                help_text="The baseline scenario's budget when the project was submitted, a "
                "record of the codec (apps.projects.frozen_budget): a submitted project is "
                "frozen, so its budget is too. Null when there was no budget to draw up (or "
                "before it was kept).",
                null=True,
            ),
        ),
        migrations.AlterField(
            model_name="scenarioversion",
            name="results",
            field=models.JSONField(
                help_text="The estimate when it was saved, with its ranges: a record of the "
                "codec (apps.estimates.record)."
            ),
        ),
    ]
