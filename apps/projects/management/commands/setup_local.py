"""`manage.py setup_local`: everything `make run` needs before serving, in one process."""

from django.core.management import call_command
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Migrate, load the catalogues and the ECB's rates, create the demo account and project."

    def handle(self, *args, **options) -> None:
        call_command("migrate", interactive=False, verbosity=0, stdout=self.stdout)
        self.stdout.write("Database migrated.")
        call_command("load_catalogue", stdout=self.stdout)
        call_command("load_api_prices", stdout=self.stdout)
        call_command("load_ecb_rates", stdout=self.stdout)
        call_command("seed_demo", stdout=self.stdout)
