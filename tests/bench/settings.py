"""Settings of `make bench`: the project's own, plus an empty view to compare the API against."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "tests.bench.urls"
