"""`manage.py send_reminders`: what celery beat starts on a schedule, for a deployment without
beat (run it daily from cron) and for `make run`: warn of share links expiring within seven days,
and queue again the emails still unsent."""

from django.core.management.base import BaseCommand

from apps.notifications import tasks


class Command(BaseCommand):
    help = "Email the creators of share links expiring within 7 days; resend unsent emails."

    def handle(self, *args, **options) -> None:
        reminded = tasks.share_links_expiring_remind()
        resent = tasks.deliveries_resend()
        self.stdout.write(
            f"{reminded} share link reminder(s) queued; {resent} unsent email(s) queued again."
        )
