"""The load benchmark's data: who the simulated users are, and what was saved after the run.

Run inside the server's environment with `manage.py shell -c` (tests/bench/load_bench.py), so it
writes to and reads from the database the server uses. `seed()` readies the database and prints,
as one JSON line, the cookies, tokens and ids the simulated users need; `saved(json)` prints what
each scenario (versions, cost lines) and project holds after the run, to count against the
writes the users were answered 2xx for.
"""

import json

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.utils.crypto import get_random_string

from apps.accounts.services import api_token_create
from apps.catalogue.loading import catalogue_load
from apps.projects.models import Project, Scenario
from apps.projects.presets import PRESETS_BY_SLUG
from apps.projects.roles import FRONT_OFFICE, MANAGER
from apps.projects.services import scenario_create
from apps.reviews.services import project_submit
from apps.sharing.services import share_link_create

MANAGERS = 8  # accounts; two of them edit each project together, so saves can collide
EDITED_PROJECTS = 4
SCENARIOS_PER_PROJECT = 2
SUBMITTED_PROJECTS = 3
SHARE_LINKS = 3
SESSIONS_PER_ACCOUNT = 4  # browsers signed in as each account: one per simulated user


def _user(name: str, group: str):
    user = get_user_model().objects.create_user(name, password=get_random_string(24))
    user.groups.add(Group.objects.get(name=group))
    return user


def _sessions(user) -> list[str]:
    """Cookies of browsers signed in as `user`: a session each and a CSRF cookie (the secret a
    browser holds after its first page, which the form field or X-CSRFToken repeats)."""
    cookies = []
    for _ in range(SESSIONS_PER_ACCOUNT):
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        cookies.append(f"sessionid={session}; csrftoken={get_random_string(32)}")
    return cookies


def _project(owner, title: str, preset: str, scenarios: int) -> Project:
    project = Project.objects.create(owner=owner, title=title, classification="internal")
    inputs = PRESETS_BY_SLUG[preset].inputs
    for number in range(scenarios):
        scenario_create(
            project=project,
            name=f"Option {number + 1}",
            inputs=inputs,
            is_baseline=number == 0,
            user=owner,
        )
    return project


def seed(*, empty: bool) -> None:
    """Migrate the database (emptied first if `empty`), load the catalogue, create the users."""
    call_command("migrate", interactive=False, verbosity=0)
    if empty:
        # With cascade: django-auditlog's own log entry table, left by its migrations though the
        # project's model replaces it (AUDITLOG_LOGENTRY_MODEL), refers to the content types.
        call_command("flush", interactive=False, verbosity=0, allow_cascade=True)
    catalogue_load()
    cache.clear()  # sessions, throttles and page fragments of an earlier run
    managers = [_user(f"manager-{n}", MANAGER) for n in range(1, MANAGERS + 1)]
    reviewer = _user("front-office", FRONT_OFFICE)
    integrator = _user("integrator", MANAGER)
    edited = []
    for n in range(EDITED_PROJECTS):
        owner, colleague = managers[2 * n % MANAGERS], managers[(2 * n + 1) % MANAGERS]
        project = _project(owner, f"Edited {n + 1}", "translation-assistant", SCENARIOS_PER_PROJECT)
        project.collaborators.add(colleague)
        editors = [owner, colleague]
        for scenario in project.scenarios.order_by("pk"):
            edited.append(
                {
                    "project": project.pk,
                    "scenario": scenario.pk,
                    "editors": [
                        {
                            "cookies": _sessions(user),
                            "token": api_token_create(user=user, name="load")[1],
                        }
                        for user in editors
                    ],
                }
            )
    submitted, share_tokens = [], []
    for n in range(SUBMITTED_PROJECTS):
        project = _project(managers[n], f"Submitted {n + 1}", "chat-service-rented", 2)
        snapshot = project_submit(project=project, user=managers[n])
        submitted.append(project.pk)
        if n < SHARE_LINKS:
            _, token = share_link_create(subject=snapshot, user=managers[n], label="Board")
            share_tokens.append(token)
    print(
        json.dumps(
            {
                "edited": edited,
                "scenarios_per_project": SCENARIOS_PER_PROJECT,
                "submitted": submitted,
                "reviewer_cookies": _sessions(reviewer),
                "share_tokens": share_tokens,
                "integrator_token": api_token_create(user=integrator, name="load")[1],
            }
        )
    )


def saved(edited_json: str) -> None:
    """What is stored for each edited scenario and project, printed as one JSON line."""
    edited = json.loads(edited_json)
    scenarios = {}
    for scenario in Scenario.objects.filter(pk__in=[e["scenario"] for e in edited]):
        numbers = list(scenario.versions.order_by("number").values_list("number", flat=True))
        scenarios[scenario.pk] = {
            "version": scenario.version,
            "version_numbers": numbers,
            "cost_lines": scenario.cost_lines.count(),
        }
    projects = {
        pk: Scenario.objects.filter(project_id=pk).count() for pk in {e["project"] for e in edited}
    }
    print(json.dumps({"scenarios": scenarios, "projects": projects}))
