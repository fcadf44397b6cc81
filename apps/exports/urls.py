"""Pages of exports: /projects/<id>/export.<format>, /scenarios/<id>/export.<format>, import."""

from django.urls import path, register_converter

from apps.exports import views
from apps.exports.formats import FORMATS


class ExportFormatConverter:
    regex = "|".join(FORMATS)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(ExportFormatConverter, "export_format")

urlpatterns = [
    path("projects/import/", views.project_import, name="project-import"),
    path(
        "projects/<int:project_id>/export.<export_format:export_format>",
        views.project_export,
        name="project-export",
    ),
    path(
        "scenarios/<int:scenario_id>/export.<export_format:export_format>",
        views.scenario_export,
        name="scenario-export",
    ),
]
