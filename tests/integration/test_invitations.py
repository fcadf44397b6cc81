"""Invitations by email address: the owner invites; someone new gets an account that cannot sign
in until they set a password through the signed, expiring link; someone with an account joins
at once; the link cannot be altered, reused or used late; others may not invite."""

import re
import time
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.test import override_settings

from apps.accounts.models import Preferences
from apps.notifications import deliveries, tasks
from apps.notifications.invitations import invitation_create
from apps.notifications.links import INVITATION_SALT, invitation_id_of, invitation_token
from apps.notifications.models import Delivery, Invitation
from apps.reviews.services import project_submit
from tests.factories import make_manager, make_project, make_scenario

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password"


@pytest.fixture
def owner():
    user = make_manager("maria")
    user.email = "maria@example.org"
    user.save()
    return user


@pytest.fixture
def project(owner):
    project = make_project(owner, "Translation assistant")
    make_scenario(project, "Pilot", is_baseline=True)
    return project


@pytest.fixture
def queued(monkeypatch) -> list[int]:
    sent: list[int] = []
    monkeypatch.setattr(tasks.delivery_send, "delay", sent.append)
    return sent


def invite(client, project, email: str, language: str = "fr"):
    return client.post(
        f"/projects/{project.pk}/invitations/", {"email": email, "language": language}
    )


def test_someone_new_gets_an_account_that_cannot_sign_in_and_an_email_in_their_language(
    client, owner, project, queued, django_capture_on_commit_callbacks
):
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = invite(client, project, "Amel.Haddad@UN.example.org")
    assert response.status_code == 302
    newcomer = get_user_model().objects.get(email="Amel.Haddad@un.example.org")
    assert newcomer.username == "Amel.Haddad@un.example.org"
    assert not newcomer.is_active and not newcomer.has_usable_password()
    assert Preferences.objects.get(user=newcomer).language == "fr"
    assert not project.collaborators.filter(pk=newcomer.pk).exists()  # not until they come
    (delivery_id,) = queued
    deliveries.delivery_send(delivery_id=delivery_id)
    (message,) = mail.outbox
    assert message.subject == "Vous êtes invité·e à collaborer à Translation assistant"
    invitation = Invitation.objects.get()
    token = re.search(r"http://127\.0\.0\.1:8000/invitations/([^/\s]+)/", message.body)[1]
    assert invitation_id_of(token) == invitation.pk  # signed when the email was written
    assert "/accounts/login/?next=/projects/" in message.body
    page = client.get(f"/projects/{project.pk}/invitations/")
    assert "Amel.Haddad@un.example.org" in page.content.decode()


def test_the_link_sets_the_password_joins_the_project_and_signs_in(client, owner, project):
    invitation = invitation_create(
        project=project, invited_by=owner, email="amel@example.org", language="en-gb"
    )
    link = f"/invitations/{invitation_token(invitation.pk)}/"
    page = client.get(link)
    assert page.status_code == 200
    assert "maria invited you to collaborate" in page.content.decode()
    weak = client.post(link, {"new_password1": "amel", "new_password2": "amel"})
    assert weak.status_code == 200 and weak.context["form"].errors
    joined = client.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert joined.url == f"/projects/{project.pk}/"
    user = get_user_model().objects.get(email="amel@example.org")
    assert user.is_active and user.check_password(PASSWORD)
    assert project.collaborators.filter(pk=user.pk).exists()
    assert client.get(f"/projects/{project.pk}/").status_code == 200  # signed in
    client.logout()
    again = client.get(link)  # used: it sets no password any more
    assert again.status_code == 200
    assert "form" not in again.context
    assert "You have joined" in again.content.decode()


def test_an_altered_or_expired_link_does_not_work(client, owner, project):
    invitation = invitation_create(
        project=project, invited_by=owner, email="amel@example.org", language="en-gb"
    )
    token = invitation_token(invitation.pk)
    forged = signing.dumps(invitation.pk, salt=INVITATION_SALT, key="not-the-secret-key")
    for bad in (token[:-2] + "xx", forged):
        response = client.get(f"/invitations/{bad}/")
        assert response.status_code == 404
        assert "This invitation link does not work" in response.content.decode()
    with override_settings(INVITATION_TIMEOUT_SECONDS=-1):
        assert client.get(f"/invitations/{token}/").status_code == 404
    assert client.post(f"/invitations/{token[:-2]}xx/", {}).status_code == 404


def test_someone_with_an_account_joins_at_once_and_is_told(
    client, owner, project, queued, django_capture_on_commit_callbacks
):
    colleague = make_manager("colleague")
    colleague.email = "colleague@example.org"
    colleague.save()
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        invite(client, project, "COLLEAGUE@example.org")
    assert project.collaborators.filter(pk=colleague.pk).exists()
    assert Invitation.objects.get().is_accepted
    assert Delivery.objects.get(pk=queued[0]).kind == Delivery.Kind.ADDED


def test_an_address_that_cannot_be_invited_is_said_next_to_the_field(client, owner, project):
    client.force_login(owner)
    own = invite(client, project, "maria@example.org")
    assert own.status_code == 200
    assert own.context["form"].errors["email"] == ["This is your own address."]
    disabled = get_user_model().objects.create_user("gone", "gone@example.org", PASSWORD)
    disabled.is_active = False
    disabled.save()
    refused = invite(client, project, "gone@example.org")
    assert "is disabled" in refused.context["form"].errors["email"][0]
    bad = invite(client, project, "not an address")
    assert bad.context["form"].errors["email"]
    assert not Invitation.objects.exists()


def test_only_the_owner_invites_and_not_to_a_frozen_project(client, owner, project):
    colleague = make_manager("colleague")
    project.collaborators.add(colleague)
    client.force_login(colleague)
    assert invite(client, project, "amel@example.org").status_code == 403
    client.force_login(make_manager("stranger"))
    assert invite(client, project, "amel@example.org").status_code == 404
    project_submit(project=project, user=owner)
    client.force_login(owner)
    refused = invite(client, project, "amel@example.org")
    assert refused.url == f"/projects/{project.pk}/"
    assert not Invitation.objects.exists()
    assert (
        "is submitted for review"
        in client.get(f"/projects/{project.pk}/invitations/").content.decode()
    )


def test_invited_twice_before_coming_joins_both_projects(owner, project, client):
    other = make_project(owner, "Chat service")
    first = invitation_create(
        project=project, invited_by=owner, email="amel@example.org", language="fr"
    )
    second = invitation_create(
        project=other, invited_by=owner, email="amel@example.org", language="fr"
    )
    assert first.user_id == second.user_id
    assert Delivery.objects.filter(kind=Delivery.Kind.INVITED).count() == 2
    link = f"/invitations/{invitation_token(first.pk)}/"
    client.post(link, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    user = first.user
    assert set(user.shared_projects.all()) == {project, other}


@pytest.mark.parametrize("days_ago", [13, 15])
def test_the_invitation_link_lasts_two_weeks(client, owner, project, days_ago, monkeypatch):
    invitation = invitation_create(
        project=project, invited_by=owner, email="amel@example.org", language="fr"
    )
    token = invitation_token(invitation.pk)
    later = time.time() + timedelta(days=days_ago).total_seconds()
    monkeypatch.setattr(signing, "time", SimpleNamespace(time=lambda: later))
    expected = 200 if days_ago < 14 else 404
    assert client.get(f"/invitations/{token}/").status_code == expected


def test_someone_whose_account_was_turned_on_elsewhere_joins_when_they_sign_in(
    client, owner, project
):
    """An account turned on some other way (by staff; by the organisation's provider) before
    its invitation was taken up: opening the link changes nothing (a mail scanner may open it),
    signing in joins."""
    invitation = invitation_create(
        project=project, invited_by=owner, email="amel@example.org", language="en-gb"
    )
    user = invitation.user
    user.is_active = True
    user.set_password(PASSWORD)
    user.save()
    page = client.get(f"/invitations/{invitation_token(invitation.pk)}/")
    assert "Sign in to join" in page.content.decode()
    assert not project.collaborators.filter(pk=user.pk).exists()
    signed_in = client.post(
        "/accounts/login/", {"username": user.get_username(), "password": PASSWORD}
    )
    assert signed_in.status_code == 302
    assert project.collaborators.filter(pk=user.pk).exists()
    invitation.refresh_from_db()
    assert invitation.is_accepted
