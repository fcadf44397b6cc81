"""What the options compared connect once Django's registry is ready: their record kept with
every version."""

from apps.options.kept import version_part
from apps.projects.versions import keep_with_versions


def connect() -> None:
    keep_with_versions(version_part)
