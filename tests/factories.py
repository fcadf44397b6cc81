"""Test data builders shared by the integration tests."""

import datetime
from decimal import Decimal

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client

from apps.apiprices.models import ApiModel, ApiPrice
from apps.exchange.models import EcbRate
from apps.projects.models import Project, Scenario
from apps.projects.roles import FRONT_OFFICE, MANAGER
from apps.projects.services import scenario_create

SEED_000_TRAINING = {
    "method": "accelerator_hours",
    "accelerator_hours": 200,
    "accelerator": "nvidia-h100-sxm",
}


def seed_000_inference(requests_per_month: float, **extra) -> dict:
    return {
        "method": "accelerator_seconds",
        "accelerator_seconds_per_request": 2,
        "accelerator": "nvidia-h100-sxm",
        "requests_per_month": requests_per_month,
        **extra,
    }


# A sweep input: four demands from 1,000 to 1,000,000 requests a month, evenly on a log scale.
DEMAND_SWEEP = {
    "field": "inference.requests_per_month",
    "kind": "log",
    "start": 1e3,
    "stop": 1e6,
    "steps": 4,
}


# The decision view's example: a translation assistant on an 8B model, 1,000 tokens in and 500
# out, 300,000 requests a month for two years.
TRANSLATION_INFERENCE = {
    "method": "tokens",
    "parameters": 8e9,
    "input_tokens": 1000,
    "output_tokens": 500,
    "accelerator": "nvidia-h100-sxm",
    "requests_per_month": 300_000,
    "months": 24,
}


def make_manager(username: str = "manager", password: str = "a-long-test-password"):
    user = get_user_model().objects.create_user(username, password=password)
    user.groups.add(Group.objects.get_or_create(name=MANAGER)[0])
    return user


def make_front_office(username: str = "reviewer", password: str = "a-long-test-password"):
    """A front-office user: reviews submitted workplans, plans none."""
    user = get_user_model().objects.create_user(username, password=password)
    user.groups.add(Group.objects.get_or_create(name=FRONT_OFFICE)[0])
    return user


def session_cookie(user) -> str:
    """The session cookie of `user`, signed in once: a client given it is that user's without
    signing in again (a module's tests each sign in as the same few users)."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def make_project(owner, title: str = "A project", **fields) -> Project:
    return Project.objects.create(owner=owner, title=title, **fields)


def make_scenario(project: Project, name: str = "Pilot", **fields) -> Scenario:
    """A scenario saved through the service, so it has its version 1 like every real one."""
    fields.setdefault(
        "inputs", {"training": SEED_000_TRAINING, "inference": seed_000_inference(15_000)}
    )
    return scenario_create(project=project, name=name, user=project.owner, **fields)


def make_euro_scenario(owner, **project_fields) -> Scenario:
    """The baseline "Pilot" of "Traduction", a project in euros at the ECB's rate of 2 June 2025
    over 2026 and 2027 (load the rates with load_ecb)."""
    project = make_project(
        owner,
        "Traduction",
        currency="EUR",
        rate_date=datetime.date(2025, 6, 2),
        period_start=datetime.date(2026, 1, 1),
        period_end=datetime.date(2027, 12, 31),
        **project_fields,
    )
    return make_scenario(project, is_baseline=True)


def make_translation_assistant(owner, *, inputs: dict | None = None, **project_fields) -> Scenario:
    """The project "Translation assistant" (2027 and 2028) and its scenario "Wider use", which
    serves TRANSLATION_INFERENCE unless other inputs are given."""
    project = make_project(
        owner,
        "Translation assistant",
        period_start=datetime.date(2027, 1, 1),
        period_end=datetime.date(2028, 12, 31),
        **project_fields,
    )
    return make_scenario(
        project, "Wider use", inputs=inputs or {"inference": TRANSLATION_INFERENCE}
    )


# The ECB's reference rates of those days (per euro), as its history file gives them.
ECB = {
    datetime.date(2025, 5, 30): {"USD": "1.1339", "CHF": "0.9341", "JPY": "162.96"},
    datetime.date(2025, 6, 2): {"USD": "1.1419", "CHF": "0.9336", "JPY": "162.98"},
}


def load_ecb(rates: dict = ECB) -> None:
    EcbRate.objects.bulk_create(
        EcbRate(currency=currency, date=day, per_euro=Decimal(value))
        for day, values in rates.items()
        for currency, value in values.items()
    )


def make_lab_api_model() -> ApiModel:
    """An external API model of a provider of its own (Example Lab), priced at 3 (input) and 15
    (output) US dollars per million tokens from the start."""
    model = ApiModel.objects.create(
        slug="example-lab-model-one",
        provider="example-lab",
        provider_name="Example Lab",
        model="Model-One",
        name="Model One",
        catalogue_version="genai-prices 0.2.3",
        source="https://example.org/pricing",
        as_of=datetime.date(2026, 12, 1),
    )
    ApiPrice.objects.create(api_model=model, valid_from=None, input="3", output="15")
    return model
