"""The demo manager and demo project that `make run` sets up: the translation assistant of the
worked example of the UN Learn AI glossary."""

import secrets
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction

from apps.projects.models import Project
from apps.projects.roles import MANAGER
from apps.projects.services import scenario_create

DEMO_USERNAME = "demo"
DEMO_PROJECT_TITLE = "Translation assistant for public statements"

TRAINING = {
    "method": "accelerator_hours",
    "accelerator_hours": 200,
    "accelerator": "nvidia-h100-sxm",
    "accelerator_count": 8,
}


def _inference(requests_per_month: int) -> dict:
    return {
        "method": "accelerator_seconds",
        "accelerator_seconds_per_request": 2,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": requests_per_month,
        "months": 12,
        "peak_to_average": 3,
    }


DEMO_SCENARIOS = (
    ("Pilot: 15,000 requests a month", True, 15_000),
    ("Wider use: 300,000 requests a month", False, 300_000),
)


@transaction.atomic
def demo_seed(*, credentials_file: Path) -> tuple[str, str, bool]:
    """Create the demo manager and project once; return (username, password, created)."""
    user_model = get_user_model()
    user = user_model.objects.filter(username=DEMO_USERNAME).first()
    created = user is None
    if created:
        password = secrets.token_urlsafe(12)
        user = user_model.objects.create_user(DEMO_USERNAME, password=password)
        user.groups.add(Group.objects.get(name=MANAGER))
        credentials_file.parent.mkdir(parents=True, exist_ok=True)
        credentials_file.write_text(f"{DEMO_USERNAME}\n{password}\n", encoding="utf-8")
        credentials_file.chmod(0o600)
    else:
        lines = (
            credentials_file.read_text(encoding="utf-8").split()
            if credentials_file.exists()
            else []
        )
        password = (
            lines[1] if len(lines) > 1 else "(unknown: set one with manage.py changepassword demo)"
        )
    if not Project.objects.filter(owner=user, title=DEMO_PROJECT_TITLE).exists():
        project = Project.objects.create(
            owner=user,
            title=DEMO_PROJECT_TITLE,
            unit="Headquarters department (demo)",
            description=(
                "The worked example of the UN Learn AI glossary: fine-tune once, then serve "
                "translations."
            ),
            classification="public",
        )
        for name, is_baseline, requests in DEMO_SCENARIOS:
            scenario_create(
                project=project,
                name=name,
                is_baseline=is_baseline,
                inputs={"training": TRAINING, "inference": _inference(requests)},
                user=user,
            )
    return DEMO_USERNAME, password, created
