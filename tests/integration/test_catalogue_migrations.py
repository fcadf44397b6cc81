"""Migration 0002 fills the node figures of accelerators loaded before it existed."""

import json
from importlib import import_module

import pytest
from django.apps import apps

from apps.catalogue.loading import CATALOGUE_FILE
from apps.catalogue.models import Accelerator

pytestmark = pytest.mark.django_db
MIGRATION = import_module("apps.catalogue.migrations.0002_accelerator_node_and_fp4")


def test_the_migration_fills_the_figures_a_database_loaded_before_it_lacks():
    # What 0002's AddFields leave in rows loaded before it: its defaults.
    Accelerator.objects.update(
        accelerators_per_node=1, interconnect_gb_per_second=None, peak_tflops_fp4=None
    )
    MIGRATION.fill_node_figures(apps, schema_editor=None)
    h100 = Accelerator.objects.get(slug="nvidia-h100-sxm")
    assert (h100.accelerators_per_node, h100.interconnect_gb_per_second) == (8, 900)
    assert Accelerator.objects.get(slug="nvidia-b200").peak_tflops_fp4 == 9000
    # Rows added after 0002 come from the loader, not the migration.
    assert Accelerator.objects.get(slug="nvidia-b300").accelerators_per_node == 1


def test_the_migration_and_the_data_file_agree_on_every_accelerator_it_names():
    rows = {r["slug"]: r for r in json.loads(CATALOGUE_FILE.read_text())["accelerators"]}
    for slug, (per_node, interconnect, fp4) in MIGRATION.NODE_FIGURES.items():
        row = rows[slug]
        assert (row["accelerators_per_node"], row["interconnect_gb_per_second"]) == (
            per_node,
            interconnect,
        ), slug
        assert row["peak_tflops"]["fp4"] == fp4, slug
