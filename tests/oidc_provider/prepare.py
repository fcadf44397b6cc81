"""`python -m tests.oidc_provider.prepare CLIENT_ID CLIENT_SECRET REDIRECT_URI`: the provider's
database, its client (the planner) and its people, each with the password "provider-password"
and the groups given below."""

import os
import sys

import django

PASSWORD = "provider-password"
PEOPLE = {
    "amina": ["planners"],
    "bruno": ["finance-reviewers", "staff"],
    "chen": [],
    "elsewhere": ["planners"],
    "stale": ["planners"],
}


def main(client_id: str, client_secret: str, redirect_uri: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.oidc_provider.settings")
    django.setup()
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from oauth2_provider.models import Application

    call_command("migrate", verbosity=0)
    for username, groups in PEOPLE.items():
        user = User.objects.create_user(
            username, email=f"{username}@example.org", password=PASSWORD
        )
        user.groups.set(Group.objects.get_or_create(name=name)[0] for name in groups)
    Application.objects.create(
        name="Compute Planner",
        client_id=client_id,
        client_secret=client_secret,
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=redirect_uri,
        algorithm=Application.RS256_ALGORITHM,
        skip_authorization=True,
    )


if __name__ == "__main__":
    main(*sys.argv[1:4])
