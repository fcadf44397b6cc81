"""Accelerators per node, the interconnect inside a node and the dense FP4 peak.

Databases loaded before this migration keep their rows when the catalogue is loaded again without
--overwrite, so the new figures of the 22 accelerators shipped until now are written here, as in
apps/catalogue/data/catalogue.json (which gives their sources). A row an editor added meanwhile
gets 1 accelerator per node and no interconnect figure until someone fills them in the admin.
"""

import django.core.validators
from django.db import migrations, models

# slug: (accelerators_per_node, interconnect_gb_per_second, peak_tflops_fp4)
NODE_FIGURES = {
    "nvidia-v100-sxm2": (8, 300, None),
    "nvidia-a100-sxm-80gb": (8, 600, None),
    "nvidia-h100-sxm": (8, 900, None),
    "nvidia-h100-pcie": (8, 128, None),
    "nvidia-h200-sxm": (8, 900, None),
    "nvidia-b200": (8, 1800, 9000),
    "nvidia-l4": (8, 64, None),
    "nvidia-l40s": (8, 64, None),
    "nvidia-t4": (8, 32, None),
    "nvidia-a10g": (8, None, None),
    "amd-mi250x": (4, 800, None),
    "amd-mi300x": (8, 896, None),
    "amd-mi325x": (8, 896, None),
    "google-tpu-v4": (4, None, None),
    "google-tpu-v5e": (8, 400, None),
    "google-tpu-v5p": (4, 1200, None),
    "google-tpu-v6e": (8, 800, None),
    "intel-gaudi-2": (8, 525, None),
    "intel-gaudi-3": (8, 1050, None),
    "aws-trainium": (16, 384, None),
    "aws-trainium2": (16, 1024, None),
    "aws-inferentia2": (12, 206.2, None),
}


def fill_node_figures(apps, schema_editor):
    Accelerator = apps.get_model("catalogue", "Accelerator")
    for accelerator in Accelerator.objects.filter(slug__in=NODE_FIGURES):
        per_node, interconnect, fp4 = NODE_FIGURES[accelerator.slug]
        accelerator.accelerators_per_node = per_node
        accelerator.interconnect_gb_per_second = interconnect
        accelerator.peak_tflops_fp4 = fp4
        accelerator.save(
            update_fields=["accelerators_per_node", "interconnect_gb_per_second", "peak_tflops_fp4"]
        )


class Migration(migrations.Migration):

    dependencies = [
        ("catalogue", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="accelerator",
            name="accelerators_per_node",
            field=models.PositiveSmallIntegerField(
                default=1,
                help_text="Accelerators in one server, or for TPUs in one host, that share the fast interconnect below; the notes say which.",
                validators=[django.core.validators.MinValueValidator(1)],
                verbose_name="accelerators per node",
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="accelerator",
            name="interconnect_gb_per_second",
            field=models.FloatField(
                blank=True,
                help_text="Per accelerator, both directions together, as the vendor quotes it (e.g. NVLink 4 on H100 SXM = 900); empty where not published.",
                null=True,
                validators=[django.core.validators.MinValueValidator(0.001)],
                verbose_name="interconnect inside a node (GB/s)",
            ),
        ),
        migrations.AddField(
            model_name="accelerator",
            name="peak_tflops_fp4",
            field=models.FloatField(
                blank=True,
                help_text="Dense (no structured sparsity); empty where the format is unsupported.",
                null=True,
                validators=[django.core.validators.MinValueValidator(0.001)],
                verbose_name="dense peak FP4 (TFLOP/s)",
            ),
        ),
        migrations.RunPython(fill_node_figures, migrations.RunPython.noop),
    ]
