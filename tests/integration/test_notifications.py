"""Email notifications in the database: who gets a delivery for which event, that it is queued
only once the transaction commits, written once, sent once, in the recipient's language, and
skipped when its recipient turned it off. The real SMTP server and Celery worker are in
test_notifications_smtp.py; here the mail goes to Django's test outbox."""

from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import Preferences
from apps.notifications import deliveries, reminders, tasks
from apps.notifications.models import Delivery
from apps.projects.models import StatusChange
from apps.reviews import services as review_services
from apps.sharing.services import share_link_create, share_link_revoke
from tests.factories import make_front_office, make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db


def person(make, username: str, language: str = "", **choices):
    user = make(username)
    user.email = f"{username}@example.org"
    user.save(update_fields=["email"])
    if language or choices:
        Preferences.objects.create(user=user, language=language, **choices)
    return user


@pytest.fixture
def owner():
    return person(make_manager, "maria")


@pytest.fixture
def colleague():
    return person(make_manager, "colleague", "fr")


@pytest.fixture
def reviewer():
    return person(make_front_office, "fiona")


@pytest.fixture
def project(owner, colleague):
    project = make_project(owner, "Translation assistant", unit="Language services")
    project.collaborators.add(colleague)
    make_scenario(project, "Pilot", is_baseline=True)
    return project


@pytest.fixture
def queued(monkeypatch) -> list[int]:
    """The delivery ids whose sending a commit queues, recorded instead of sent to the broker."""
    sent: list[int] = []
    monkeypatch.setattr(tasks.delivery_send, "delay", sent.append)
    return sent


def send_all(delivery_ids) -> None:
    for delivery_id in delivery_ids:
        deliveries.delivery_send(delivery_id=delivery_id)


def test_a_submission_is_queued_for_the_front_office_once_it_commits(
    project, owner, reviewer, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        review_services.project_submit(project=project, user=owner)
    assert queued == []  # nothing before the commit
    for callback in callbacks:
        callback()
    delivery = Delivery.objects.get()
    assert queued == [delivery.pk]
    assert (delivery.kind, delivery.recipient) == (Delivery.Kind.SUBMITTED, reviewer)
    assert delivery.event == f"status-change:{StatusChange.objects.get().pk}"


def test_a_submission_rolled_back_writes_and_queues_nothing(
    project, owner, reviewer, queued, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=True),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        review_services.project_submit(project=project, user=owner)
        raise RuntimeError("rolled back")
    assert queued == []
    assert not Delivery.objects.exists()


def test_a_returned_workplan_goes_to_owner_and_collaborators_each_in_their_language(
    project, owner, colleague, reviewer, queued, django_capture_on_commit_callbacks
):
    review_services.project_submit(project=project, user=owner)
    with django_capture_on_commit_callbacks(execute=True):
        review_services.project_return(project=project, user=reviewer, comment="Add energy.")
    send_all(queued)
    by_address = {message.to[0]: message for message in mail.outbox}
    assert set(by_address) == {"maria@example.org", "colleague@example.org"}
    english, french = by_address["maria@example.org"], by_address["colleague@example.org"]
    assert english.subject == "Returned for changes: Translation assistant"
    assert french.subject == "Renvoyé pour modification\u00a0: Translation assistant"
    link = f"http://127.0.0.1:8000/projects/{project.pk}/"
    for message in (english, french):
        assert "Add energy." in message.body
        assert link in message.body
        html, kind = message.alternatives[0]
        assert kind == "text/html"
        assert f'href="{link}"' in html
    assert '<html lang="fr">' in french.alternatives[0][0]


def test_the_person_who_acts_is_not_told_of_their_own_action(
    project, owner, colleague, reviewer, queued, django_capture_on_commit_callbacks
):
    review_services.project_submit(project=project, user=owner)
    with django_capture_on_commit_callbacks(execute=True):
        review_services.comment_create(project=project, author=colleague, body="Looks right?")
    recipients = set(Delivery.objects.filter(kind="commented").values_list("recipient", flat=True))
    # The owner, and the front office (it took part by... nothing yet: only members here).
    assert recipients == {owner.pk}
    with django_capture_on_commit_callbacks(execute=True):
        review_services.comment_create(project=project, author=reviewer, body="Energy?")
    with django_capture_on_commit_callbacks(execute=True):
        review_services.comment_create(project=project, author=owner, body="Added.")
    last = Delivery.objects.filter(kind="commented").order_by("-pk").first()
    told = set(Delivery.objects.filter(event=last.event).values_list("recipient", flat=True))
    assert told == {colleague.pk, reviewer.pk}  # the reviewer took part in the review


def test_an_email_turned_off_on_the_preferences_is_not_written(
    project, owner, colleague, reviewer, queued, django_capture_on_commit_callbacks
):
    Preferences.objects.filter(user=colleague).update(email_reviewed=False)
    review_services.project_submit(project=project, user=owner)
    with django_capture_on_commit_callbacks(execute=True):
        review_services.project_clear(project=project, user=reviewer)
    assert set(Delivery.objects.filter(kind="cleared").values_list("recipient", flat=True)) == {
        owner.pk
    }


def test_people_without_an_address_or_disabled_get_nothing(project, owner, reviewer):
    reviewer.email = ""
    reviewer.save()
    person(make_front_office, "gone").__class__.objects.filter(username="gone").update(
        is_active=False
    )
    review_services.project_submit(project=project, user=owner)
    assert not Delivery.objects.exists()


def test_an_event_noticed_twice_makes_one_delivery(owner, colleague):
    first = deliveries.deliveries_create(
        kind="submitted", event="status-change:1", recipients=[colleague, colleague]
    )
    again = deliveries.deliveries_create(
        kind="submitted", event="status-change:1", recipients=[colleague]
    )
    assert len(first) == 1
    assert again == []
    assert Delivery.objects.count() == 1


def test_a_delivery_is_sent_once_however_often_its_task_runs(
    project, owner, reviewer, queued, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        review_services.project_submit(project=project, user=owner)
    (delivery_id,) = queued
    assert deliveries.delivery_send(delivery_id=delivery_id).sent
    assert not deliveries.delivery_send(delivery_id=delivery_id).sent
    assert len(mail.outbox) == 1
    delivery = Delivery.objects.get()
    assert delivery.sent_at is not None
    assert delivery.attempts == 1
    assert mail.outbox[0].extra_headers["Message-ID"] == f"<delivery-{delivery_id}@127.0.0.1>"
    assert reminders.deliveries_unsent() == []


def test_a_share_link_expiring_within_seven_days_warns_its_creator_once(owner, project):
    version = project.scenarios.get().versions.get()
    soon, _ = share_link_create(subject=version, user=owner, label="Board, 12 March")
    later, _ = share_link_create(subject=version, user=owner, label="Audit", expires_in_days=30)
    gone, _ = share_link_create(subject=version, user=owner, label="Old")
    share_link_revoke(link=gone, user=owner)
    soon.expires_at = timezone.now() + timedelta(days=6)
    soon.save(update_fields=["expires_at"])
    first = reminders.share_links_expiring()
    assert reminders.share_links_expiring() == []  # run again the same day, or the next
    assert [Delivery.objects.get(pk=pk).object_id for pk in first] == [soon.pk]
    send_all(first)
    (message,) = mail.outbox
    assert message.to == ["maria@example.org"]
    assert "Board, 12 March" in message.subject
    assert "http://127.0.0.1:8000/share-links/" in message.body
    assert later.pk not in Delivery.objects.values_list("object_id", flat=True)


def test_a_share_link_revoked_before_its_reminder_is_sent_sends_nothing(owner, project):
    version = project.scenarios.get().versions.get()
    link, _ = share_link_create(subject=version, user=owner, label="Board", expires_in_days=3)
    (delivery_id,) = reminders.share_links_expiring()
    share_link_revoke(link=link, user=owner)
    outcome = deliveries.delivery_send(delivery_id=delivery_id)
    assert not outcome.sent
    assert mail.outbox == []
    assert Delivery.objects.get().failed_at is not None


def test_deliveries_left_unsent_are_queued_again_and_given_up_after_two_days(owner, colleague):
    stale, fresh, ancient = (
        deliveries.deliveries_create(kind="submitted", event=f"e:{n}", recipients=[colleague])[0]
        for n in range(3)
    )
    now = timezone.now()
    Delivery.objects.filter(pk=stale).update(created_at=now - timedelta(hours=1))
    Delivery.objects.filter(pk=ancient).update(created_at=now - timedelta(days=3))
    assert reminders.deliveries_unsent() == [stale]
    assert Delivery.objects.get(pk=ancient).failed_at is not None
    assert Delivery.objects.get(pk=fresh).failed_at is None


def test_what_people_typed_is_escaped_in_the_html_and_left_as_typed_in_the_text(
    owner, colleague, reviewer, queued, django_capture_on_commit_callbacks
):
    project = make_project(owner, "Q&A <assistant>")
    make_scenario(project, "Pilot", is_baseline=True)
    review_services.project_submit(project=project, user=owner)
    with django_capture_on_commit_callbacks(execute=True):
        review_services.comment_create(project=project, author=reviewer, body="<b>Why</b> & how?")
    send_all(queued[-1:])
    (message,) = mail.outbox
    assert message.subject == "New comment on Q&A <assistant>"
    assert "<b>Why</b> & how?" in message.body
    html = message.alternatives[0][0]
    assert "&lt;b&gt;Why&lt;/b&gt; &amp; how?" in html and "<b>Why" not in html
    assert "<title>New comment on Q&amp;A &lt;assistant&gt;</title>" in html
