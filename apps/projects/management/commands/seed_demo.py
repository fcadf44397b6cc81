"""`manage.py seed_demo`: the demo manager account and demo project (local use only)."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.projects.demo import demo_seed


class Command(BaseCommand):
    help = "Create the demo manager and the demo project once, and print the credentials."

    def handle(self, *args, **options) -> None:
        if settings.PRODUCTION:
            raise CommandError(
                "The demo account is for local use; it is not created in production."
            )
        username, password, created = demo_seed(
            credentials_file=settings.DATA_DIR / "demo-login.txt"
        )
        state = "created" if created else "already there"
        self.stdout.write(f"Demo manager ({state}): username {username!r}, password {password!r}")
