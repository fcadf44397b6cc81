"""`manage.py refresh_api_prices`: rewrite the vendored API prices from genai-prices."""

import datetime
import json
from importlib import metadata
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from apps.apiprices.loading import PRICES_FILE
from apps.apiprices.vendoring import SOURCE, vendored_catalogue


class Command(BaseCommand):
    help = (
        "Rewrite apps/apiprices/data/genai-prices.json from the installed genai-prices package "
        "(pinned in pyproject.toml; nothing is downloaded). Then run load_api_prices."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--checked-on",
            type=datetime.date.fromisoformat,
            default=None,
            help="Date the prices were checked (YYYY-MM-DD); default today.",
        )
        parser.add_argument(
            "--output", type=Path, default=PRICES_FILE, help="Where to write (default: vendored)."
        )

    def handle(self, *args, checked_on: datetime.date | None, output: Path, **options) -> None:
        try:
            from genai_prices.data import providers
        except ImportError as error:
            raise CommandError(
                "genai-prices is not installed: it is a development dependency "
                "(uv sync installs it)."
            ) from error
        version = metadata.version(SOURCE)
        document = vendored_catalogue(providers, version, checked_on or datetime.date.today())
        output.write_text(
            json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        count = sum(len(provider["models"]) for provider in document["providers"])
        self.stdout.write(f"API prices: {count} models of genai-prices {version} written.")
