"""Email with `make run`'s embedded default: no mail server and no broker, each email written to
a file in data/mail/ by the task run in-process; `manage.py send_reminders` does what celery beat
does elsewhere, and the beat schedule names tasks that exist."""

import email
import email.policy
import subprocess
import sys

from django.conf import settings

from config.celery import app
from tests.mailbox import text_and_html
from tests.servers import embedded_env, embedded_setup

MAKE_SHARE_LINK_EXPIRE_SOON = """
from apps.projects.models import Project
from apps.sharing.services import share_link_create
project = Project.objects.order_by("pk").first()
owner = project.owner
owner.email = "demo@example.org"
owner.save()
version = project.scenarios.first().versions.order_by("-number").first()
share_link_create(subject=version, user=owner, label="Board, 12 March", expires_in_days=3)
"""


def manage(*args: str, env: dict[str, str]) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_make_run_writes_the_emails_to_files_in_data_mail(tmp_path):
    env = embedded_env(tmp_path)
    embedded_setup(tmp_path, env)
    manage("shell", "-c", MAKE_SHARE_LINK_EXPIRE_SOON, env=env)
    first = manage("send_reminders", env=env)
    again = manage("send_reminders", env=env)
    assert "1 share link reminder(s) queued" in first
    assert "0 share link reminder(s) queued" in again  # once a link
    (written,) = (tmp_path / "mail").iterdir()
    message = email.message_from_bytes(written.read_bytes(), policy=email.policy.default)
    assert message["To"] == "demo@example.org"
    assert message["Subject"] == "Your share link “Board, 12 March” expires soon"
    text, html = text_and_html(message)
    assert "http://127.0.0.1:8000/share-links/" in text
    assert 'href="http://127.0.0.1:8000/share-links/"' in html


def test_the_beat_schedule_names_tasks_that_exist():
    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks
