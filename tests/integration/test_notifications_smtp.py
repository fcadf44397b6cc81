"""Every email from the action that causes it to the message a real SMTP server receives: the
action through the pages (as a person does it), its delivery queued when the transaction
commits, sent by a real Celery worker process over SMTP to aiosmtpd (tests/mailbox.py), in the
recipient's language, English and French, with the link, which then opens. A delivery is sent
once however often its task runs; a temporary refusal (451) is retried and the email arrives
once; a permanent one (550) is given up without retrying.

Like the sweeps' worker tests these need the Redis broker and PostgreSQL (a worker process shares
the test database): without them they skip, and in CI, where a skip is a failure, both are
there.
"""

import re
import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from apps.accounts.models import Preferences
from apps.notifications import tasks
from apps.notifications.models import Delivery, Invitation
from apps.sharing.models import ShareLink
from tests.factories import make_front_office, make_manager, make_project, make_scenario
from tests.integration.test_sweeps_worker import (
    CeleryWorker,
    _needs_broker_and_postgres,
    own_queue,
    workers_on,
)
from tests.mailbox import Mailbox, SmtpServer, text_and_html

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.redis,
    pytest.mark.postgres,
]

SITE = "http://127.0.0.1:8000"
PASSWORD = "a-long-test-password"
NBSP = "\u00a0"

# What each email says, by language: its subject, and a sentence of its plain text.
SUBJECTS = {
    "en-gb": {
        "invited": "You are invited to collaborate on Translation assistant",
        "added": "You are now a collaborator on Translation assistant",
        "submitted": "Submitted for review: Translation assistant",
        "commented": "New comment on Translation assistant",
        "returned": "Returned for changes: Translation assistant",
        "cleared": "Cleared: Translation assistant",
        "share_expiring": "Your share link “Board, 12 March” expires soon",
        "password_reset": "Choose a new password for Compute Planner",
    },
    "fr": {
        "invited": "Vous êtes invité·e à collaborer à Translation assistant",
        "added": "Vous collaborez désormais à Translation assistant",
        "submitted": f"Soumis pour revue{NBSP}: Translation assistant",
        "commented": "Nouveau commentaire sur Translation assistant",
        "returned": f"Renvoyé pour modification{NBSP}: Translation assistant",
        "cleared": f"Validé{NBSP}: Translation assistant",
        "share_expiring": f"Votre lien de partage «{NBSP}Board, 12 March{NBSP}» expire bientôt",
        "password_reset": "Choisissez un nouveau mot de passe pour Compute Planner",
    },
}
GREETING = {"en-gb": "Hello", "fr": "Bonjour"}


@pytest.fixture(scope="module")
def smtp() -> Iterator[SmtpServer]:
    server = SmtpServer().start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def worker(django_db_setup, smtp, tmp_path_factory) -> Iterator[CeleryWorker]:
    """One worker for the module, sending through the test's SMTP server, retrying after a
    second (the worker reads its settings from the environment it starts in)."""
    _needs_broker_and_postgres()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("EMAIL_URL", smtp.url)
        patch.setenv("EMAIL_RETRY_SECONDS", "1")
        patch.setenv("EMAIL_MAX_RETRIES", "3")
        patch.setenv("SITE_URL", SITE)
        with own_queue() as queue, workers_on(queue, tmp_path_factory.mktemp("mail")) as start:
            patch.setenv("CELERY_QUEUE", queue)  # where the worker's own tasks queue emails
            yield start()


@pytest.fixture
def mailbox(smtp, worker) -> Iterator[Mailbox]:
    smtp.mailbox.clear()
    yield smtp.mailbox
    smtp.mailbox.clear()


def person(make, username: str, language: str):
    user = make(username, PASSWORD)
    user.email = f"{username}@example.org"
    user.save(update_fields=["email"])
    Preferences.objects.create(user=user, language=language)
    return user


def check_email(message, *, to: str, kind: str, language: str) -> str:
    """Assert the email's address, subject and language, plain text and HTML; its link."""
    assert message["To"] == to
    assert message["Subject"] == SUBJECTS[language][kind]
    assert message["Content-Language"] == language
    text, html = text_and_html(message)
    assert GREETING[language] in text and GREETING[language] in html
    assert f'<html lang="{language}">' in html
    links = re.findall(rf"{re.escape(SITE)}/\S+", text)
    assert links, text
    assert f'href="{links[0]}"' in html
    return links[0].removeprefix(SITE)


class Inbox:
    """The emails of one test, read in the order they arrive."""

    def __init__(self, mailbox: Mailbox, language: str) -> None:
        self.mailbox, self.language, self.read = mailbox, language, 0

    def next(self, kind: str, *recipients) -> list[str]:
        """The next emails, one to each recipient (in any order), each checked; their links."""
        count = len(recipients)
        messages = self.mailbox.wait_for(self.read + count)[self.read : self.read + count]
        self.read += count
        addresses = {r if isinstance(r, str) else r.email for r in recipients}
        assert {message["To"] for message in messages} == addresses
        return [
            check_email(message, to=message["To"], kind=kind, language=self.language)
            for message in messages
        ]


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_each_notification_from_the_action_to_the_email_received(client, mailbox, language):
    owner = person(make_manager, "maria", language)
    colleague = person(make_manager, "colleague", language)
    reviewer = person(make_front_office, "fiona", language)
    project = make_project(owner, "Translation assistant", unit="Language services")
    make_scenario(project, "Pilot", is_baseline=True)
    inbox = Inbox(mailbox, language)
    project_page, review_page = f"/projects/{project.pk}/", f"/reviews/{project.pk}/"

    # An invitation to someone without an account: its link sets a password and joins.
    client.force_login(owner)
    invite = {"email": "newcomer@example.org", "language": language}
    assert client.post(f"{project_page}invitations/", invite).status_code == 302
    (link,) = inbox.next("invited", "newcomer@example.org")
    client.logout()
    assert client.get(link).status_code == 200
    joined = client.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert joined.url == project_page
    newcomer = get_user_model().objects.get(email="newcomer@example.org")
    assert newcomer.is_active and newcomer.check_password(PASSWORD)
    assert project.collaborators.filter(pk=newcomer.pk).exists()
    Preferences.objects.filter(user=newcomer).update(email_commented=False, email_reviewed=False)

    # A colleague with an account joins at once, and is told.
    client.force_login(owner)
    invite = {"email": colleague.email, "language": "en-gb"}  # their own language wins
    client.post(f"{project_page}invitations/", invite)
    assert inbox.next("added", colleague) == [project_page]

    # Submitted: to the front office.
    assert client.post(f"{project_page}submit/").status_code == 302
    assert inbox.next("submitted", reviewer) == [review_page]

    # A comment of the front office's: to the owner and the collaborators.
    client.force_login(reviewer)
    client.post(f"{review_page}comments/", {"body": "Where is the energy?"})
    assert inbox.next("commented", owner, colleague) == [review_page] * 2
    assert "Where is the energy?" in text_and_html(mailbox.messages[-1])[0]

    # Returned, then submitted again and cleared: to the owner and the collaborators.
    client.post(f"{review_page}return/", {"comment": "Add the energy."})
    assert inbox.next("returned", owner, colleague) == [project_page] * 2
    assert "Add the energy." in text_and_html(mailbox.messages[-1])[0]
    client.force_login(owner)
    client.post(f"{project_page}submit/")
    inbox.next("submitted", reviewer)
    client.force_login(reviewer)
    client.post(f"{review_page}clear/", {"comment": ""})
    assert inbox.next("cleared", owner, colleague) == [project_page] * 2

    # A share link expiring within seven days: to its creator, by the daily task on the worker.
    client.force_login(owner)
    share = {"label": "Board, 12 March", "expires_in_days": "5"}
    client.post(f"{project_page}share/", share)
    assert ShareLink.objects.filter(project=project).count() == 1
    tasks.share_links_expiring_remind.delay()
    assert inbox.next("share_expiring", owner) == ["/share-links/"]
    assert client.get("/share-links/").status_code == 200

    # A password reset: its link sets a new password.
    client.logout()
    asked = client.post("/accounts/password/reset/", {"email": owner.email})
    assert asked.url == "/accounts/password/reset/sent/"
    (link,) = inbox.next("password_reset", owner)
    page = client.get(link, follow=True)
    assert page.status_code == 200 and page.context["validlink"]
    new_password = {"new_password1": "another-long-pass", "new_password2": "another-long-pass"}
    done = client.post(page.redirect_chain[-1][0], new_password)
    assert done.url == "/accounts/reset/done/"
    owner.refresh_from_db()
    assert owner.check_password("another-long-pass")

    assert len(mailbox.messages) == inbox.read  # nothing else, and nothing twice
    assert not Delivery.objects.filter(sent_at=None).exists()
    assert Invitation.objects.filter(project=project).count() == 2


def test_an_email_whose_task_runs_three_times_is_received_once(mailbox, client):
    owner = person(make_manager, "maria", "en-gb")
    reviewer = person(make_front_office, "fiona", "fr")
    project = make_project(owner, "Translation assistant")
    make_scenario(project, "Pilot", is_baseline=True)
    client.force_login(owner)
    client.post(f"/projects/{project.pk}/submit/")
    mailbox.wait_for(1)
    delivery = Delivery.objects.get()
    for _ in range(2):  # the broker hands it out again; the periodic resend queues it again
        tasks.delivery_send.delay(delivery.pk)
    Delivery.objects.filter(pk=delivery.pk).update(created_at=timezone.now() - timedelta(hours=1))
    tasks.deliveries_resend.delay()
    # One worker takes its queue in order: once a later email arrives, those tasks have run.
    client.force_login(reviewer)
    client.post(f"/reviews/{project.pk}/comments/", {"body": "Seen."})
    first, later = mailbox.wait_for(2)
    assert (first["To"], later["To"]) == (reviewer.email, owner.email)
    assert mailbox.attempts == 2
    delivery.refresh_from_db()
    assert delivery.attempts == 1 and delivery.sent_at is not None


def test_a_temporary_refusal_is_retried_and_the_email_arrives_once(mailbox, client):
    owner = person(make_manager, "maria", "fr")
    reviewer = person(make_front_office, "fiona", "fr")
    project = make_project(owner, "Translation assistant")
    make_scenario(project, "Pilot", is_baseline=True)
    mailbox.temporary_failures = 2  # 451 twice, then accepted
    client.force_login(owner)
    client.post(f"/projects/{project.pk}/submit/")
    (message,) = mailbox.wait_for(1, timeout_seconds=90)
    assert message["Subject"] == SUBJECTS["fr"]["submitted"]
    assert mailbox.attempts == 3
    # The server has the message a moment before the worker's transaction records it as sent.
    delivery = Delivery.objects.get(recipient=reviewer)
    deadline = time.monotonic() + 30
    while delivery.sent_at is None and time.monotonic() < deadline:
        time.sleep(0.05)
        delivery.refresh_from_db()
    assert delivery.attempts == 3
    assert delivery.sent_at is not None and delivery.failed_at is None


def test_a_permanent_refusal_is_given_up_without_retrying(mailbox, client, worker):
    owner = person(make_manager, "maria", "en-gb")
    person(make_front_office, "fiona", "en-gb")
    reviewer = person(make_front_office, "fabien", "en-gb")
    mailbox.refused_addresses.add("fiona@example.org")
    project = make_project(owner, "Translation assistant")
    make_scenario(project, "Pilot", is_baseline=True)
    client.force_login(owner)
    client.post(f"/projects/{project.pk}/submit/")
    (message,) = mailbox.wait_for(1)
    assert message["To"] == reviewer.email
    refused = Delivery.objects.get(recipient__username="fiona")
    deadline = time.monotonic() + 30
    while refused.failed_at is None and time.monotonic() < deadline:
        time.sleep(0.1)
        refused.refresh_from_db()
    assert refused.failed_at is not None and refused.sent_at is None
    assert refused.attempts == 1
    assert "550" in refused.error
