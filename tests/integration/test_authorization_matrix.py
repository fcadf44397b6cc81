"""Authorization matrix: every URL pattern × method × actor gets the status its row expects.

The URL patterns are walked from the resolver, so a new route without a row here fails, and so
does a row whose route is gone. Each (route, method, actor) case runs in a savepoint that is rolled
back afterwards, so every case starts from the same objects (a DELETE does not spoil the next one).

Rules the rows follow: only a project's owner and collaborators see or change it, its scenarios
and its sweeps (404 for everyone else, pages and API alike); the front office sees projects in
review only through the review pages and API; the catalogue editor edits the catalogue in the admin
and sees nobody's projects; a share link's holder sees the shared page only; the API answers 401
without credentials; a wrong method gets 405; a page form without its CSRF token gets 403, and so
does a session-authenticated API write, while an API token needs none.
"""

import copy
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from http.cookies import SimpleCookie

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser, Group
from django.contrib.contenttypes.models import ContentType
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import URLPattern, URLResolver, get_resolver

from apps.accounts.models import ApiToken
from apps.accounts.services import api_token_create
from apps.actuals.models import ActualAmount, ActualsImport, MappingRule
from apps.apiprices.models import ApiModel
from apps.audit.models import AuditEvent
from apps.budget.models import CostLine
from apps.budget.services import cost_line_create
from apps.catalogue.models import (
    Accelerator,
    CommitmentDiscount,
    ComputeThreshold,
    EnergyProfile,
    LanguageModel,
    PriceOffer,
)
from apps.exchange.models import RateTable
from apps.exports.json_export import project_json
from apps.exports.report import project_report
from apps.notifications.invitations import invitation_create
from apps.notifications.links import invitation_token
from apps.notifications.models import Delivery, Invitation
from apps.projects.models import Project, Scenario
from apps.projects.presets import PRESETS
from apps.projects.roles import CATALOGUE_EDITOR, MANAGER
from apps.reviews.services import project_submit
from apps.sharing.models import ShareLink
from apps.sharing.services import share_link_create
from apps.sweeps import runs
from apps.sweeps.freshness import sweeps_mark_stale
from apps.sweeps.models import ScenarioFreshness, Sweep
from apps.sweeps.services import sweep_create
from tests.factories import (
    DEMAND_SWEEP,
    SEED_000_TRAINING,
    make_front_office,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
    session_cookie,
)
from tests.integration.test_one_save_one_computation import form_data

pytestmark = pytest.mark.django_db

# Actors

ANONYMOUS = "anonymous"
OWNER = "owner"
COLLABORATOR = "collaborator"
OTHER_MANAGER = "other manager"
FRONT_OFFICE = "front office"
EDITOR = "catalogue editor"
HOLDER = "share-link holder"
SUPERUSER = "superuser"

SIGNED_IN = (OWNER, COLLABORATOR, OTHER_MANAGER, FRONT_OFFICE, EDITOR)
NOT_SIGNED_IN = (ANONYMOUS, HOLDER)
ACTORS = (ANONYMOUS, *SIGNED_IN, HOLDER)
ADMIN_ACTORS = (*ACTORS, SUPERUSER)  # the admin is where a superuser differs from the others
TEAM = frozenset({OWNER, COLLABORATOR})
MANAGERS = frozenset({OWNER, COLLABORATOR, OTHER_MANAGER})
REVIEW_READERS = TEAM | {FRONT_OFFICE}
STAFF = frozenset({EDITOR, SUPERUSER})

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

# Outcomes: a status code as text, or where a redirect to a sign-in page leads.
LOGIN = "302 to sign-in"
ADMIN_LOGIN = "302 to admin sign-in"
LOGIN_PATHS = {"/accounts/login/": LOGIN, "/admin/login/": ADMIN_LOGIN}

PASSWORD = "a-long-test-password"
CSRF_SECRET = "matrixCsrfSecretOf32Characters00"  # a cookie value Django accepts as the secret
UNKNOWN_SHARE_TOKEN = "x" * 43  # well-formed, but no link has it
DEMAND = DEMAND_SWEEP
SEED_000 = {"training": SEED_000_TRAINING, "inference": seed_000_inference(15_000)}
COST_LINE = {
    "name": "Data scientist",
    "kind": "staff",
    "quantity": 1.5,
    "unit": "FTE",
    "unit_price": "90000.00",
    "recurrence": "yearly",
    "start": "2026-01-01",
    "end": "2027-12-31",
    "category": 1,
}
COST_LINE_FORM = {**COST_LINE, "quantity": "1.5", "category": "1", "budget_class": ""}
COST_LINE_MODEL = {
    **COST_LINE,
    "quantity": Decimal("1.5"),
    "unit_price": Decimal(90000),
    "start": date(2026, 1, 1),
    "end": date(2027, 12, 31),
}


# The objects every case starts from


@dataclass
class World:
    """A draft project with a scenario and a sweep, a submitted one, a share link, API tokens."""

    users: dict[str, AbstractUser]
    keys: dict[str, str]  # each signed-in actor's API token
    project: Project  # draft: owner's, with the collaborator
    scenario: Scenario
    submitted: Project  # submitted for review: owner's, with the collaborator
    sweep: Sweep  # with results, re-queued after a catalogue change (so it can be cancelled)
    link: ShareLink
    share_token: str
    spare_token: ApiToken  # another token of the owner's, to revoke
    freshness: ScenarioFreshness
    line: CostLine  # a cost line of the draft project's scenario
    invitation: Invitation  # to the draft project, of someone without an account yet
    delivery: Delivery  # an email about the submission, to the front office
    actuals_import: ActualsImport  # an import of the draft project's actuals
    rule: MappingRule  # a mapping rule of the draft project's actuals
    sessions: dict[str, str] = field(default_factory=dict)  # each user's session cookie

    def admin_object_ids(self) -> dict[str, int]:
        """A real object of each model the admin lists, by "app/model"."""
        return {
            "auth/group": Group.objects.get(name=MANAGER).pk,
            "auth/user": self.users[OWNER].pk,
            "accounts/apitoken": self.spare_token.pk,
            "catalogue/accelerator": Accelerator.objects.get(slug="nvidia-h100-sxm").pk,
            "catalogue/priceoffer": PriceOffer.objects.order_by("pk").first().pk,
            "catalogue/energyprofile": EnergyProfile.objects.order_by("pk").first().pk,
            "catalogue/computethreshold": ComputeThreshold.objects.order_by("pk").first().pk,
            "catalogue/languagemodel": LanguageModel.objects.get(slug="deepseek-v3").pk,
            "catalogue/commitmentdiscount": CommitmentDiscount.objects.order_by("pk").first().pk,
            "apiprices/apimodel": ApiModel.objects.get(slug="openai-gpt-4o").pk,
            "exchange/ratetable": RateTable.objects.get_or_create(
                name="UN operational rates of exchange", defaults={"source": "treasury.un.org"}
            )[0].pk,
            "projects/project": self.project.pk,
            "sweeps/sweep": self.sweep.pk,
            "sweeps/scenariofreshness": self.freshness.pk,
            "audit/auditevent": AuditEvent.objects.order_by("pk").first().pk,
            "notifications/delivery": self.delivery.pk,
            "notifications/invitation": self.invitation.pk,
        }


def build_world() -> World:
    owner = make_manager(OWNER, password=PASSWORD)
    collaborator = make_manager("collaborator")
    editor = get_user_model().objects.create_user("editor", is_staff=True)
    editor.groups.add(Group.objects.get(name=CATALOGUE_EDITOR))
    users = {
        OWNER: owner,
        COLLABORATOR: collaborator,
        OTHER_MANAGER: make_manager("stranger"),
        FRONT_OFFICE: make_front_office("front"),
        EDITOR: editor,
        SUPERUSER: get_user_model().objects.create_superuser("root", password=PASSWORD),
    }
    project = make_project(owner, "Draft plan")
    project.collaborators.add(collaborator)
    scenario = make_scenario(project, is_baseline=True)
    submitted = make_project(owner, "Submitted plan", unit="Section A")
    submitted.collaborators.add(collaborator)
    make_scenario(submitted, is_baseline=True)
    project_submit(project=submitted, user=owner)
    sweep = sweep_create(scenario=scenario, created_by=owner, definition={"inputs": [DEMAND]})
    runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=0)
    sweeps_mark_stale(key="accelerator:nvidia-h100-sxm")
    sweep.refresh_from_db()
    line = cost_line_create(scenario=scenario, fields=COST_LINE_MODEL, user=owner)
    scenario.refresh_from_db()
    # A month of inference billed, for re-planning from actuals.
    ActualAmount.objects.create(
        project=project,
        source="bill",
        billing_period=date(2026, 1, 1),
        month=date(2026, 1, 1),
        kind="inference_compute",
        amount=1,
        accelerator_hours=10,
    )
    link, share_token = share_link_create(
        subject=scenario.versions.get(number=scenario.version), user=owner, label="Board"
    )
    return World(
        users=users,
        keys={actor: api_token_create(user=users[actor], name="Matrix")[1] for actor in SIGNED_IN},
        project=project,
        scenario=scenario,
        submitted=submitted,
        sweep=sweep,
        link=link,
        share_token=share_token,
        spare_token=api_token_create(user=owner, name="Spare")[0],
        freshness=ScenarioFreshness.objects.create(scenario=scenario),
        line=line,
        invitation=invitation_create(
            project=project, invited_by=owner, email="guest@example.org", language="fr"
        ),
        delivery=Delivery.objects.create(
            kind=Delivery.Kind.SUBMITTED,
            event="status-change:matrix",
            recipient=users[FRONT_OFFICE],
        ),
        actuals_import=ActualsImport.objects.create(project=project, created_by=owner),
        rule=MappingRule.objects.create(
            project=project, column="ServiceName", value="Amazon S3", kind="storage"
        ),
    )


# Request bodies


def scenario_form(world: World) -> dict:
    """The scenario page's form as a browser posts it, unchanged: a valid save."""
    return form_data(world.scenario)


def sweep_form(world: World) -> dict:
    """The new-sweep form with one varied input: a valid sweep."""
    data = {
        "inputs-TOTAL_FORMS": "1",
        "inputs-INITIAL_FORMS": "0",
        "inputs-MIN_NUM_FORMS": "0",
        "inputs-MAX_NUM_FORMS": "3",
        "name": "",
        "inputs-0-values": "",
    }
    for key in ("field", "kind", "start", "stop", "steps"):
        data[f"inputs-0-{key}"] = str(DEMAND[key])
    return data


def project_document(world: World) -> dict:
    """The draft project's JSON export, as the import takes it."""
    return json.loads(project_json(project_report(world.project, user=world.users[OWNER])))


def import_upload(world: World) -> dict:
    document = json.dumps(project_document(world)).encode()
    return {"file": SimpleUploadedFile("plan.json", document, "application/json")}


def billing_upload(world: World) -> dict:
    """A plain CSV of actuals, as the import takes it (multipart)."""
    bill = b"month,kind,amount,currency\n2026-01,storage,120.50,USD\n"
    return {"file": SimpleUploadedFile("bill.csv", bill, "text/csv")}


RULE = {"column": "Tags.team", "value": "ml", "kind": "training_compute"}
PROJECT_FORM = {"title": "Renamed plan", "currency": "USD", "classification": "public"}


# The table


Body = Callable[[World], object]


@dataclass(frozen=True)
class Row:
    """What one route answers: `methods` maps each method it takes to its success status.

    `sees` are the actors for whom the object in the URL exists (others get 404); `may` limits,
    per method, who of them may act (the others get 403). `public` routes need no sign-in.
    """

    methods: Mapping[str, int]
    sees: frozenset[str] | None = None
    may: Mapping[str, frozenset[str]] = field(default_factory=dict)
    public: bool = False
    hides_first: bool = False  # the object is looked up before the method is checked
    csrf_exempt: bool = False  # takes no session, so no CSRF token either
    values: Callable[[World], dict] | None = None  # URL values besides the defaults
    body: Mapping[str, Body] = field(default_factory=dict)
    headers: Callable[[World], dict] | None = None


def _submitted(world: World) -> dict:
    return {"project_id": world.submitted.pk}


def _if_match(world: World) -> dict:
    return {"If-Match": f'"scenario-{world.scenario.pk}-v{world.scenario.version}"'}


def _line_if_match(world: World) -> dict:
    return {"If-Match": f'"cost-line-{world.line.pk}-v{world.scenario.version}"'}


def _constant(value: object) -> Body:
    return lambda world: value


def _all(methods: tuple[str, ...], actors: frozenset[str]) -> dict[str, frozenset[str]]:
    return dict.fromkeys(methods, actors)


ONLY_OWNER = frozenset({OWNER})
ONLY_FRONT_OFFICE = frozenset({FRONT_OFFICE})
SHARE = {"label": "Board meeting", "expires_in_days": "30"}

ROUTES: dict[str, Row] = {
    # Public pages and accounts
    "": Row({"GET": 200}, public=True),
    "catalogue/": Row({"GET": 200}, public=True),
    "catalogue/models/": Row({"GET": 200}, public=True),
    "catalogue/calibration/": Row({"GET": 200}, public=True),
    "glossary/": Row({"GET": 200}, public=True),
    "glossary/<slug:term>/": Row({"GET": 200}, public=True, values=_constant({"term": "kv-cache"})),
    "catalogue/api-prices/": Row({"GET": 200}, public=True),
    "accounts/login/": Row({"GET": 200, "POST": 200}, public=True),
    "accounts/logout/": Row({"POST": 302}, public=True),
    "accounts/language/": Row(
        {"POST": 302}, public=True, body={"POST": _constant({"language": "fr", "next": "/"})}
    ),
    "accounts/password/": Row({"GET": 200, "POST": 200}),
    "accounts/password/done/": Row({"GET": 200}),
    "accounts/tokens/": Row({"GET": 200, "POST": 200}, body={"POST": _constant({"name": "CI"})}),
    "accounts/tokens/<int:token_id>/revoke/": Row({"POST": 302}, sees=ONLY_OWNER),
    # Sign-in with the organisation's provider: not found while none is configured (here).
    "accounts/oidc/sign-in/": Row({"GET": 404}, public=True),
    "accounts/oidc/callback/": Row({"GET": 404}, public=True),
    "accounts/preferences/": Row(
        {"GET": 200, "POST": 302}, body={"POST": _constant({"language": "fr"})}
    ),
    # Password reset (no account's address here: the same pages whatever is asked) and invitations
    "accounts/password/reset/": Row(
        {"GET": 200, "POST": 302},
        public=True,
        body={"POST": _constant({"email": "nobody@example.org"})},
    ),
    "accounts/password/reset/sent/": Row({"GET": 200}, public=True),
    "accounts/reset/<uidb64>/<token>/": Row(
        {"GET": 200, "POST": 200},
        public=True,
        values=_constant({"uidb64": "MQ", "token": "a-token-never-made"}),
    ),
    "accounts/reset/done/": Row({"GET": 200}, public=True),
    "projects/<int:project_id>/invitations/": Row(
        {"GET": 200, "POST": 302},
        sees=TEAM,
        may=_all(("GET", "POST"), ONLY_OWNER),
        body={"POST": _constant({"email": "newcomer@example.org", "language": "fr"})},
    ),
    "invitations/<str:token>/": Row(
        {"GET": 200, "POST": 200},
        public=True,
        values=lambda w: {"token": invitation_token(w.invitation.pk)},
    ),
    # Projects and scenarios
    "projects/": Row({"GET": 200}),
    "projects/new/": Row(
        {"GET": 200, "POST": 302},
        may=_all(("GET", "POST"), MANAGERS),
        body={"POST": _constant({**PROJECT_FORM, "preset": PRESETS[0].slug})},
    ),
    "projects/<int:project_id>/": Row({"GET": 200}, sees=TEAM, values=_submitted),
    "projects/<int:project_id>/edit/": Row(
        {"GET": 200, "POST": 302},
        sees=TEAM,
        may=_all(("GET", "POST"), ONLY_OWNER),
        body={"POST": _constant({**PROJECT_FORM, "collaborators": "collaborator"})},
    ),
    "projects/<int:project_id>/scenarios/new/": Row({"POST": 302}, sees=TEAM),
    "projects/<int:project_id>/compare/": Row({"GET": 200}, sees=TEAM),
    # The audit log: a project's for its team and, once it is in review, the front office; the
    # whole log for administrators only (no actor here is one).
    "projects/<int:project_id>/audit/": Row({"GET": 200}, sees=REVIEW_READERS, values=_submitted),
    "projects/<int:project_id>/audit.csv": Row(
        {"GET": 200}, sees=REVIEW_READERS, values=_submitted
    ),
    "audit/": Row({"GET": 200}, may={"GET": frozenset()}),
    "audit.csv": Row({"GET": 200}, may={"GET": frozenset()}),
    "scenarios/<int:scenario_id>/": Row(
        {"GET": 200, "POST": 302}, sees=TEAM, body={"POST": scenario_form}
    ),
    # The scenario form's number formats (htmx); asked without htmx, it sends back to the projects.
    "scenarios/precisions/<str:section>/": Row(
        {"GET": 302}, values=_constant({"section": "inference"})
    ),
    "scenarios/<int:scenario_id>/preview/": Row(
        {"POST": 200}, sees=TEAM, body={"POST": scenario_form}
    ),
    "scenarios/<int:scenario_id>/duplicate/": Row({"POST": 302}, sees=TEAM),
    "scenarios/<int:scenario_id>/options/": Row({"GET": 200}, sees=TEAM),
    "scenarios/<int:scenario_id>/options/use/": Row(
        {"POST": 302}, sees=TEAM, body={"POST": _constant({"key": "rent_pay_per_use"})}
    ),
    "scenarios/<int:scenario_id>/baseline/": Row({"POST": 302}, sees=TEAM),
    "scenarios/<int:scenario_id>/delete/": Row({"POST": 302}, sees=TEAM),
    "scenarios/<int:scenario_id>/versions/": Row({"GET": 200}, sees=TEAM),
    "scenarios/<int:scenario_id>/versions/compare/": Row({"GET": 200}, sees=TEAM),
    # Budgets and cost lines
    "scenarios/<int:scenario_id>/budget/": Row({"GET": 200}, sees=TEAM),
    # A rate per fiscal year: a setting of the project, which only its owner changes. Posted
    # empty in this world, the owner gets the page again (200), not a redirect.
    "scenarios/<int:scenario_id>/fiscal-year-rates/": Row(
        {"GET": 200, "POST": 200},
        sees=TEAM,
        may=_all(("GET", "POST"), ONLY_OWNER),
        body={"POST": _constant({})},
    ),
    "scenarios/<int:scenario_id>/cost-lines/new/": Row(
        {"GET": 200, "POST": 302}, sees=TEAM, body={"POST": _constant(COST_LINE_FORM)}
    ),
    "scenarios/<int:scenario_id>/cost-lines/<int:line_id>/edit/": Row(
        {"GET": 200, "POST": 302}, sees=TEAM, body={"POST": _constant(COST_LINE_FORM)}
    ),
    "scenarios/<int:scenario_id>/cost-lines/<int:line_id>/delete/": Row({"POST": 302}, sees=TEAM),
    # Sweeps
    "scenarios/<int:scenario_id>/sweeps/new/": Row(
        {"GET": 200, "POST": 302}, sees=TEAM, body={"POST": sweep_form}
    ),
    "scenarios/<int:scenario_id>/sweeps/count/": Row(
        {"POST": 200}, sees=TEAM, body={"POST": sweep_form}
    ),
    "sweeps/<int:sweep_id>/": Row({"GET": 200}, sees=TEAM),
    "sweeps/<int:sweep_id>/cancel/": Row({"POST": 302}, sees=TEAM),
    # Reviews
    "projects/<int:project_id>/submit/": Row({"POST": 302}, sees=TEAM),
    "reviews/": Row({"GET": 200}, may={"GET": ONLY_FRONT_OFFICE}),
    # The portfolio: everyone signed in sees the sums of the projects they may see.
    "portfolio/": Row({"GET": 200}),
    "portfolio/export.csv": Row({"GET": 200}),
    "portfolio/export.xlsx": Row({"GET": 200}),
    "reviews/<int:project_id>/": Row({"GET": 200}, sees=REVIEW_READERS, values=_submitted),
    "reviews/<int:project_id>/comments/": Row(
        {"POST": 302},
        sees=REVIEW_READERS,
        values=_submitted,
        body={"POST": _constant({"body": "Why eight accelerators?"})},
    ),
    "reviews/<int:project_id>/return/": Row(
        {"POST": 302},
        sees=REVIEW_READERS,
        may={"POST": ONLY_FRONT_OFFICE},
        values=_submitted,
        body={"POST": _constant({"comment": "Add the energy profile."})},
    ),
    "reviews/<int:project_id>/clear/": Row(
        {"POST": 302},
        sees=REVIEW_READERS,
        may={"POST": ONLY_FRONT_OFFICE},
        values=_submitted,
        body={"POST": _constant({"comment": ""})},
    ),
    # Share links
    "scenarios/<int:scenario_id>/share/": Row(
        {"GET": 200, "POST": 200}, sees=TEAM, body={"POST": _constant(SHARE)}
    ),
    "projects/<int:project_id>/share/": Row(
        {"GET": 200, "POST": 200}, sees=TEAM, values=_submitted, body={"POST": _constant(SHARE)}
    ),
    "share-links/": Row({"GET": 200}),
    "share-links/<int:link_id>/revoke/": Row({"POST": 302}, sees=TEAM),
    "s/<str:token>/": Row({"GET": 200}, public=True, sees=frozenset({HOLDER})),
    "s/<str:token>/<int:position>/": Row({"GET": 200}, public=True, sees=frozenset({HOLDER})),
    # Exports and import
    "projects/import/": Row(
        {"GET": 200, "POST": 302}, may=_all(("GET", "POST"), MANAGERS), body={"POST": import_upload}
    ),
    "projects/<int:project_id>/export.<export_format:export_format>": Row(
        {"GET": 200}, sees=TEAM, values=_submitted
    ),
    "scenarios/<int:scenario_id>/export.<export_format:export_format>": Row(
        {"GET": 200}, sees=TEAM
    ),
    # Plan against actual
    "projects/<int:project_id>/actuals/": Row({"GET": 200}, sees=REVIEW_READERS, values=_submitted),
    "projects/<int:project_id>/actuals/upload/": Row(
        {"POST": 302}, sees=TEAM, body={"POST": billing_upload}
    ),
    "projects/<int:project_id>/actuals/rules/": Row(
        {"POST": 302}, sees=TEAM, body={"POST": _constant(RULE)}
    ),
    "projects/<int:project_id>/actuals/rules/<int:rule_id>/delete/": Row({"POST": 302}, sees=TEAM),
    "projects/<int:project_id>/actuals/thresholds/": Row(
        {"POST": 302},
        sees=TEAM,
        body={"POST": _constant({"percentages": "75, 100", "on_actual": "on"})},
    ),
    "projects/<int:project_id>/actuals/enter/": Row(
        {"POST": 302},
        sees=TEAM,
        body={"POST": _constant({"month": "2026-03", "kind": "staff", "amount": "10"})},
    ),
    "projects/<int:project_id>/actuals/replan/": Row({"GET": 200}, sees=TEAM),
    "projects/<int:project_id>/actuals/replan/create/": Row({"POST": 302}, sees=TEAM),
    "actuals/template-<str:language>.csv": Row(
        {"GET": 200}, public=True, values=_constant({"language": "fr"})
    ),
    # API: the estimate and the catalogue, open to all
    "api/v1/estimate/": Row({"POST": 200}, public=True, body={"POST": _constant(SEED_000)}),
    "api/v1/^accelerators/$": Row({"GET": 200}, public=True),
    "api/v1/^accelerators/(?P<slug>[-a-zA-Z0-9_]+)/$": Row(
        {"GET": 200}, public=True, values=lambda w: {"slug": "nvidia-h100-sxm"}
    ),
    "api/v1/^thresholds/$": Row({"GET": 200}, public=True),
    "api/v1/^thresholds/(?P<slug>[-a-zA-Z0-9_]+)/$": Row(
        {"GET": 200},
        public=True,
        values=lambda w: {"slug": ComputeThreshold.objects.order_by("pk").first().slug},
    ),
    "api/v1/^models/$": Row({"GET": 200}, public=True),
    "api/v1/^models/(?P<slug>[a-z0-9][-a-z0-9_.]*)/$": Row(
        {"GET": 200}, public=True, values=lambda w: {"slug": "llama-3.1-405b"}
    ),
    "api/v1/^energy-profiles/$": Row({"GET": 200}, public=True),
    "api/v1/^energy-profiles/(?P<slug>[-a-zA-Z0-9_]+)/$": Row(
        {"GET": 200},
        public=True,
        values=lambda w: {"slug": EnergyProfile.objects.order_by("pk").first().slug},
    ),
    "api/v1/^commitment-discounts/$": Row({"GET": 200}, public=True),
    "api/v1/api-prices/": Row({"GET": 200}, public=True),
    # Without its `from` and `to` currencies: refused, to everyone alike.
    "api/v1/exchange-rates/": Row({"GET": 400}, public=True),
    "api/v1/api-prices/<slug:slug>/": Row(
        {"GET": 200}, public=True, values=lambda w: {"slug": "openai-gpt-4o"}
    ),
    # API: tokens
    "api/v1/auth/token/": Row(
        {"POST": 201},
        public=True,
        csrf_exempt=True,
        body={"POST": _constant({"username": OWNER, "password": PASSWORD, "name": "Script"})},
    ),
    "api/v1/^auth/tokens/$": Row({"GET": 200}),
    "api/v1/^auth/tokens/(?P<pk>\\d+)/$": Row(
        {"DELETE": 204}, sees=ONLY_OWNER, values=lambda w: {"pk": w.spare_token.pk}
    ),
    # API: projects and scenarios
    "api/v1/projects/": Row(
        {"GET": 200, "POST": 201},
        may={"POST": MANAGERS},
        body={"POST": _constant({"title": "By API"})},
    ),
    "api/v1/projects/<id:pk>/": Row(
        {"GET": 200, "PUT": 200, "PATCH": 200, "DELETE": 204},
        sees=TEAM,
        may=_all(("PUT", "PATCH", "DELETE"), ONLY_OWNER),
        values=lambda w: {"pk": w.project.pk},
        body={"PUT": _constant({"title": "Renamed"}), "PATCH": _constant({"unit": "B"})},
    ),
    "api/v1/projects/<id:project_id>/scenarios/": Row(
        {"GET": 200, "POST": 201},
        sees=TEAM,
        hides_first=True,
        body={"POST": _constant({"name": "By API", "inputs": SEED_000})},
    ),
    "api/v1/projects/<id:project_id>/scenarios/<id:pk>/": Row(
        {"GET": 200, "PUT": 200, "PATCH": 200, "DELETE": 204},
        sees=TEAM,
        hides_first=True,
        values=lambda w: {"pk": w.scenario.pk},
        body={
            "PUT": _constant({"name": "Renamed", "inputs": SEED_000}),
            "PATCH": _constant({"name": "Renamed"}),
        },
        headers=_if_match,
    ),
    "api/v1/scenarios/<id:scenario_id>/estimate/": Row({"GET": 200}, sees=TEAM),
    # API: the options compared
    "api/v1/options/": Row({"POST": 200}, public=True, body={"POST": _constant(SEED_000)}),
    "api/v1/scenarios/<id:scenario_id>/options/": Row({"GET": 200}, sees=TEAM),
    # API: cost lines and budgets
    "api/v1/scenarios/<id:scenario_id>/cost-lines/": Row(
        {"GET": 200, "POST": 201},
        sees=TEAM,
        hides_first=True,
        body={"POST": _constant(COST_LINE)},
    ),
    "api/v1/scenarios/<id:scenario_id>/cost-lines/<id:line_id>/": Row(
        {"GET": 200, "PUT": 200, "PATCH": 200, "DELETE": 204},
        sees=TEAM,
        hides_first=True,
        body={"PUT": _constant(COST_LINE), "PATCH": _constant({"quantity": 2})},
        headers=_line_if_match,
    ),
    "api/v1/scenarios/<id:scenario_id>/budget/": Row({"GET": 200}, sees=TEAM),
    "api/v1/projects/<id:project_id>/budget/": Row({"GET": 200}, sees=TEAM),
    "api/v1/portfolio/budget/": Row({"GET": 200}),
    # API: sweeps
    "api/v1/scenarios/<id:scenario_id>/sweeps/": Row(
        {"GET": 200, "POST": 201}, sees=TEAM, body={"POST": _constant({"inputs": [DEMAND]})}
    ),
    "api/v1/sweeps/<id:sweep_id>/": Row({"GET": 200}, sees=TEAM),
    "api/v1/sweeps/<id:sweep_id>/cancel/": Row({"POST": 200}, sees=TEAM),
    "api/v1/sweeps/<id:sweep_id>/results/": Row({"GET": 200}, sees=TEAM),
    "api/v1/sweeps/<id:sweep_id>/summary/": Row({"GET": 200}, sees=TEAM),
    "api/v1/sweeps/<id:sweep_id>/results.csv": Row({"GET": 200}, sees=TEAM),
    # API: reviews
    "api/v1/reviews/": Row({"GET": 200}, may={"GET": ONLY_FRONT_OFFICE}),
    "api/v1/reviews/<id:project_id>/": Row({"GET": 200}, sees=REVIEW_READERS, values=_submitted),
    "api/v1/projects/<id:project_id>/submit/": Row({"POST": 200}, sees=TEAM),
    "api/v1/projects/<id:project_id>/return/": Row(
        {"POST": 200},
        sees=REVIEW_READERS,
        may={"POST": ONLY_FRONT_OFFICE},
        values=_submitted,
        body={"POST": _constant({"comment": "Add the energy profile."})},
    ),
    "api/v1/projects/<id:project_id>/clear/": Row(
        {"POST": 200},
        sees=REVIEW_READERS,
        may={"POST": ONLY_FRONT_OFFICE},
        values=_submitted,
        body={"POST": _constant({})},
    ),
    "api/v1/projects/<id:project_id>/audit/": Row(
        {"GET": 200}, sees=REVIEW_READERS, values=_submitted
    ),
    "api/v1/projects/<id:project_id>/comments/": Row(
        {"GET": 200, "POST": 201},
        sees=REVIEW_READERS,
        values=_submitted,
        body={"POST": _constant({"body": "Why eight accelerators?"})},
    ),
    # API: share links
    "api/v1/scenarios/<id:scenario_id>/share-links/": Row(
        {"POST": 201}, sees=TEAM, body={"POST": _constant({"label": "Board"})}
    ),
    "api/v1/projects/<id:project_id>/share-links/": Row(
        {"POST": 201}, sees=TEAM, values=_submitted, body={"POST": _constant({"label": "Board"})}
    ),
    "api/v1/share-links/": Row({"GET": 200}),
    "api/v1/share-links/<id:pk>/": Row(
        {"DELETE": 204}, sees=TEAM, values=lambda w: {"pk": w.link.pk}
    ),
    # API: exports and import
    "api/v1/projects/import/": Row(
        {"POST": 201}, may={"POST": MANAGERS}, body={"POST": project_document}
    ),
    "api/v1/projects/<id:project_id>/export/": Row({"GET": 200}, sees=TEAM, values=_submitted),
    "api/v1/scenarios/<id:scenario_id>/export/": Row({"GET": 200}, sees=TEAM),
    # API: actuals and plan against actual
    "api/v1/projects/<id:project_id>/actuals/imports/": Row(
        {"POST": 202}, sees=TEAM, body={"POST": billing_upload}
    ),
    "api/v1/projects/<id:project_id>/actuals/imports/<id:import_id>/": Row({"GET": 200}, sees=TEAM),
    "api/v1/projects/<id:project_id>/actuals/rules/": Row(
        {"GET": 200, "POST": 201}, sees=TEAM, body={"POST": _constant(RULE)}
    ),
    "api/v1/projects/<id:project_id>/actuals/rules/<id:rule_id>/": Row(
        {"PATCH": 200, "DELETE": 204}, sees=TEAM, body={"PATCH": _constant({"value": "S3"})}
    ),
    "api/v1/projects/<id:project_id>/actuals/replan/": Row({"POST": 201}, sees=TEAM),
    "api/v1/projects/<id:project_id>/actuals/thresholds/": Row(
        {"GET": 200, "PATCH": 200},
        sees=TEAM,
        body={"PATCH": _constant({"percentages": [90, 100], "on_forecast": False})},
    ),
    "api/v1/projects/<id:project_id>/variance/": Row(
        {"GET": 200}, sees=REVIEW_READERS, values=_submitted
    ),
    # API: schema and docs
    "api/schema/": Row({"GET": 200}, public=True),
    "api/docs/": Row({"GET": 200}, public=True),
}


def expected(row: Row, api: bool, method: str, actor: str) -> str:
    """The outcome the row says this actor gets for this method."""
    if actor in NOT_SIGNED_IN and not row.public:
        return "401" if api else LOGIN
    hidden = row.sees is not None and actor not in row.sees
    if hidden and row.hides_first:
        return "404"
    if method not in row.methods:
        return "405"
    if hidden:
        return "404"
    if actor not in row.may.get(method, frozenset(ADMIN_ACTORS)):
        return "403"
    return str(row.methods[method])


# The admin: one rule for all its routes, by what kind of page each is


ADMIN = "admin/"
ADMIN_PAGES = {
    "": "index",
    "login/": "login",
    "logout/": "logout",
    "password_change/": "password change",
    "password_change/done/": "password change done",
    "autocomplete/": "autocomplete",
    "jsi18n/": "javascript catalogue",
    "r/<path:content_type_id>/<path:object_id>/": "view on site",
    "(?P<url>.*)$": "catch-all",
}
ADMIN_MODEL_PAGES = {
    "": "changelist",
    "add/": "add",
    "<path:object_id>/history/": "history",
    "<path:object_id>/delete/": "delete",
    "<path:object_id>/change/": "change",
    "<path:object_id>/": "object",
    "<id>/password/": "user password",
}
ADMIN_APP_INDEX = re.compile(r"\^\(\?P<app_label>[\w|]+\)/\$")
# What staff who may use a page get (GET, POST with an empty form).
ADMIN_STAFF_OUTCOMES = {
    "index": ("200", "200"),
    "login": ("302", "200"),
    "logout": ("405", "302"),
    "password change": ("200", "200"),
    "password change done": ("200", "405"),
    "autocomplete": ("403", "405"),
    "javascript catalogue": ("200", "405"),
    "view on site": ("302", "302"),
    "catch-all": ("404", "404"),
    "app index": ("200", "200"),
    "changelist": ("200", "200"),
    "add": ("200", "200"),
    "history": ("200", "200"),
    "delete": ("200", "200"),
    "change": ("200", "200"),
    "object": ("302", "302"),
    "user password": ("200", "200"),
}
# Pages that check the model's permissions; the catalogue editor may use the catalogue's only.
ADMIN_MODEL_PERMISSION_PAGES = {"changelist", "add", "history", "delete", "change", "user password"}
EDITOR_MODELS = {
    "catalogue/accelerator",
    "catalogue/priceoffer",
    "catalogue/energyprofile",
    "catalogue/computethreshold",
    "catalogue/languagemodel",
    "catalogue/commitmentdiscount",
    "apiprices/apimodel",
    "exchange/ratetable",
}
# Models whose admin has no add page, or whose objects are read-only there, even for superusers;
# and those whose change form has only read-only fields, so an empty one saves (and redirects).
ADMIN_NO_ADD = {
    "accounts/apitoken",
    "sweeps/sweep",
    "sweeps/scenariofreshness",
    "audit/auditevent",
    "notifications/delivery",
    "notifications/invitation",
}
ADMIN_READ_ONLY = {
    "sweeps/sweep",
    "audit/auditevent",
    "notifications/delivery",
    "notifications/invitation",
}
# The audit log's events are never deleted, even by superusers.
ADMIN_NO_DELETE = {"audit/auditevent"}
ADMIN_ALL_FIELDS_READ_ONLY = {"accounts/apitoken", "sweeps/scenariofreshness"}


def admin_page(route: str) -> tuple[str, str | None]:
    """(kind of page, "app/model" or None) of an admin route; ValueError if it is unknown."""
    rest = route.removeprefix(ADMIN)
    if rest in ADMIN_PAGES:
        return ADMIN_PAGES[rest], None
    if ADMIN_APP_INDEX.fullmatch(rest):
        return "app index", None
    match = re.fullmatch(r"(\w+)/(\w+)/(.*)", rest)
    if match and match[3] in ADMIN_MODEL_PAGES:
        return ADMIN_MODEL_PAGES[match[3]], f"{match[1]}/{match[2]}"
    raise ValueError(f"No rule for the admin route {route!r}")


def admin_expected(route: str, method: str, actor: str) -> str | None:
    """The outcome of an admin route; None where the matrix does not check it."""
    kind, model = admin_page(route)
    if method not in {"GET", "POST"} and (actor in STAFF or kind == "login"):
        # Django's admin answers other methods as GET (and its sign-in form PUT as POST): not
        # this project's code, and they change nothing, so the matrix leaves them out.
        return None
    if actor not in STAFF:
        if kind == "login":
            return "200"
        if kind == "logout":
            return "302"  # to the admin's index, and from there to its sign-in page
        return ADMIN_LOGIN
    get, post = ADMIN_STAFF_OUTCOMES[kind]
    outcome = get if method == "GET" else post
    if model and kind in ADMIN_MODEL_PERMISSION_PAGES:
        if actor == EDITOR and model not in EDITOR_MODELS:
            return "403"
        if kind == "add" and model in ADMIN_NO_ADD:
            return "403"
        if kind == "delete" and model in ADMIN_NO_DELETE:
            return "403"
        if kind == "change" and method == "POST" and model in ADMIN_READ_ONLY:
            return "403"
        if kind == "change" and method == "POST" and model in ADMIN_ALL_FIELDS_READ_ONLY:
            return "302"
    return outcome


# URLs


def walk(patterns: list, prefix: str = "") -> Iterator[str]:
    """Every route's full pattern string, depth first."""
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            assert isinstance(pattern, URLPattern)
            yield prefix + str(pattern.pattern)


ALL_ROUTES = list(dict.fromkeys(walk(get_resolver().url_patterns)))
ADMIN_ROUTES = [route for route in ALL_ROUTES if route.startswith(ADMIN)]
APP_ROUTES = [route for route in ALL_ROUTES if not route.startswith(ADMIN)]
PLACEHOLDER = re.compile(r"<(?:\w+:)?(\w+)>|\(\?P<(\w+)>[^)]*\)")


def default_values(world: World, actor: str) -> dict[str, object]:
    return {
        "project_id": world.project.pk,
        "scenario_id": world.scenario.pk,
        "sweep_id": world.sweep.pk,
        "token_id": world.spare_token.pk,
        "link_id": world.link.pk,
        "line_id": world.line.pk,
        "import_id": world.actuals_import.pk,
        "rule_id": world.rule.pk,
        "token": world.share_token if actor == HOLDER else UNKNOWN_SHARE_TOKEN,
        "position": 1,
        "export_format": "csv",
    }


def admin_values(world: World, route: str) -> dict[str, object]:
    _, model = admin_page(route)
    object_id = world.admin_object_ids()[model] if model else world.project.pk
    return {
        "object_id": object_id,
        "id": object_id,
        "content_type_id": ContentType.objects.get_for_model(Project).pk,
        "app_label": "catalogue",
        "url": "no-such-page/",
    }


def concrete(route: str, values: Mapping[str, object]) -> str:
    """The route with each placeholder (converter or named regex group) filled in."""
    path = PLACEHOLDER.sub(lambda match: str(values[match[1] or match[2]]), route)
    return "/" + path.replace("^", "").replace("$", "")


# Clients and requests


def outcome(response: HttpResponse) -> str:
    location = response.get("Location", "")
    if response.status_code == 302:
        for path, name in LOGIN_PATHS.items():
            if location.startswith(path):
                return name
    return str(response.status_code)


def sign_in(world: World) -> None:
    """Sign each user in once, for the whole module: a case's client takes the session's cookie
    (a case that signs out, or changes the session, does so in its savepoint)."""
    for actor, user in world.users.items():
        world.sessions[actor] = session_cookie(user)


class Actors:
    """Each actor's clients: a browser session (pages, API with a session) and an API token."""

    def __init__(self, world: World, actors: tuple[str, ...]) -> None:
        self.sessions: dict[str, Client] = {}
        self.tokens: dict[str, Client] = {}
        for actor in actors:
            session = Client(enforce_csrf_checks=True)
            if actor not in NOT_SIGNED_IN:
                session.cookies[django_settings.SESSION_COOKIE_NAME] = world.sessions[actor]
            session.cookies[django_settings.CSRF_COOKIE_NAME] = CSRF_SECRET
            self.sessions[actor] = session
            key = world.keys.get(actor)
            headers = {"Authorization": f"Bearer {key}"} if key else {}
            self.tokens[actor] = Client(enforce_csrf_checks=True, headers=headers)


def credentials(actor: str) -> str:
    """Whose credentials an actor's requests carry: the anonymous visitor and the share-link
    holder carry none, so where the URL holds no share token they send the very same request,
    which is then sent once and its outcome checked against what each should get (each request
    runs in a rolled-back savepoint with the cache cleared, so the same request answers alike)."""
    return ANONYMOUS if actor in NOT_SIGNED_IN else actor


def send(
    client: Client,
    method: str,
    url: str,
    *,
    api: bool,
    body: object = None,
    csrf: bool,
    headers: Mapping[str, str] | None = None,
) -> str:
    """One request in a savepoint that is rolled back, with the client's cookies put back."""
    headers = dict(headers or {})
    if csrf:
        headers["X-CSRFToken"] = CSRF_SECRET
    cookies = SimpleCookie()
    cookies.load(client.cookies.output(header="", sep=";"))
    cache.clear()
    with transaction.atomic():
        if api and isinstance(body, dict) and "file" in body:  # an upload: multipart
            response = client.post(url, body, headers=headers)
        elif api:
            data = "" if body is None else json.dumps(body)
            response = client.generic(
                method, url, data, content_type="application/json", headers=headers
            )
        elif method == "POST":
            response = client.post(url, body or {}, headers=headers)
        else:
            response = client.generic(method, url, headers=headers)
        if response.streaming:  # the test client closes the response once this is read
            b"".join(response.streaming_content)
        transaction.set_rollback(True)
    client.cookies = cookies
    return outcome(response)


# Tests


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # speed only


@pytest.fixture(scope="module")
def built_world(django_db_setup, django_db_blocker) -> Iterator[World]:
    """Built once for the module, in a transaction rolled back at its end (as Django's
    setUpTestData); each test runs in a savepoint inside it."""
    md5 = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # as _fast_password_hashing
    with django_db_blocker.unblock(), transaction.atomic():
        built = override_settings(PASSWORD_HASHERS=md5)(build_world)()
        sign_in(built)
        yield built
        transaction.set_rollback(True)


@pytest.fixture
def world(built_world: World, db) -> World:
    """The module's objects, a copy for each test: what a test changes in memory stays its own."""
    return copy.deepcopy(built_world)


def test_every_route_has_a_row_and_every_row_a_route() -> None:
    assert len(APP_ROUTES) == len(set(APP_ROUTES))
    missing = [route for route in APP_ROUTES if route not in ROUTES]
    stale = [route for route in ROUTES if route not in APP_ROUTES]
    assert not missing, f"Routes without a row in ROUTES: {missing}"
    assert not stale, f"Rows for routes that no longer exist: {stale}"
    unknown = []
    for route in ADMIN_ROUTES:
        try:
            admin_page(route)
        except ValueError:
            unknown.append(route)
    assert not unknown, f"Admin routes the admin rule does not know: {unknown}"


def test_the_admin_rule_names_only_models_the_admin_has() -> None:
    models = {model for route in ADMIN_ROUTES if (model := admin_page(route)[1])}
    assert models >= (
        EDITOR_MODELS
        | ADMIN_NO_ADD
        | ADMIN_READ_ONLY
        | ADMIN_ALL_FIELDS_READ_ONLY
        | ADMIN_NO_DELETE
    )
    assert {ADMIN + page for page in ADMIN_PAGES} <= set(ADMIN_ROUTES)
    assert len(ADMIN_ROUTES) >= 60, "the admin's routes were not found"


def succeeds(outcome: str) -> bool:
    """Whether an outcome is the route doing its job: a 2xx, or a 3xx not to a sign-in page."""
    return outcome[0] in "23" and outcome not in LOGIN_PATHS.values()


@pytest.mark.parametrize("route", APP_ROUTES)
def test_route(route: str, world: World) -> None:
    """Every method for every actor (pages with a session and a CSRF token, the API with an API
    token); then each write that succeeds again with a session: without a CSRF token it gets 403,
    and on the API with one it succeeds as with an API token."""
    row = ROUTES.get(route)
    assert row is not None, f"{route!r} has no row in ROUTES: add one"
    api = route.startswith("api/")
    clients = Actors(world, ACTORS)
    headers = row.headers(world) if row.headers else {}

    def body(method: str) -> object:
        return row.body[method](world) if method in row.body else None

    outcomes: dict[tuple, str] = {}  # of each distinct request: see credentials()

    def answer(actor: str, with_token: bool, method: str, url: str, csrf: bool) -> str:
        request = (credentials(actor), with_token, method, url, csrf)
        if request not in outcomes:
            client = clients.tokens[actor] if with_token else clients.sessions[actor]
            outcomes[request] = send(
                client, method, url, api=api, body=body(method), csrf=csrf, headers=headers
            )
        return outcomes[request]

    mismatches = []
    writes = []  # (actor, method, url, outcome) of each write that succeeds
    for actor in ACTORS:
        values = default_values(world, actor) | (row.values(world) if row.values else {})
        url = concrete(route, values)
        for method in METHODS:
            want = expected(row, api, method, actor)
            got = answer(actor, api, method, url, csrf=not api)
            if got != want:
                mismatches.append(f"{method} {url} {actor}: expected {want} got {got}")
            if method in UNSAFE and succeeds(want):
                writes.append((actor, method, url, want))
    for actor, method, url, want in writes:
        if api and actor in NOT_SIGNED_IN:
            continue  # no session, so nothing for a forged request to ride on
        checks = {False: want if row.csrf_exempt else "403"}
        if api:
            checks[True] = want
        for with_token, check in checks.items():
            got = answer(actor, False, method, url, csrf=with_token)
            if got != check:
                token = "with" if with_token else "without"
                mismatches.append(
                    f"{method} {url} {actor} (session, {token} a CSRF token): "
                    f"expected {check} got {got}"
                )
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("route", ADMIN_ROUTES)
def test_admin_route(route: str, world: World) -> None:
    """GET and POST for every actor, the other methods for those the admin turns away."""
    url = concrete(route, admin_values(world, route))
    clients = Actors(world, ADMIN_ACTORS)
    outcomes: dict[tuple, str] = {}  # of each distinct request: see credentials()
    mismatches = []
    for actor in ADMIN_ACTORS:
        for method in METHODS:
            want = admin_expected(route, method, actor)
            if want is None:
                continue
            request = (credentials(actor), method)
            if request not in outcomes:
                outcomes[request] = send(clients.sessions[actor], method, url, api=False, csrf=True)
            got = outcomes[request]
            if got != want:
                mismatches.append(f"{method} {url} {actor}: expected {want} got {got}")
    assert not mismatches, "\n".join(mismatches)


def test_the_front_office_sees_a_project_in_review_but_never_a_draft(world: World) -> None:
    """The review rows use the submitted project; a draft stays its team's alone there too."""
    clients = Actors(world, (FRONT_OFFICE,))
    page, api = clients.sessions[FRONT_OFFICE], clients.tokens[FRONT_OFFICE]
    draft = world.project.pk
    outcomes = [
        send(page, "GET", f"/reviews/{draft}/", api=False, csrf=False),
        send(api, "GET", f"/api/v1/reviews/{draft}/", api=True, csrf=False),
        send(api, "GET", f"/api/v1/projects/{draft}/comments/", api=True, csrf=False),
    ]
    assert outcomes == ["404", "404", "404"]
    queue = api.get("/api/v1/reviews/", {"status": "all"})
    assert [row["id"] for row in queue.json()] == [world.submitted.pk]


def test_the_catalogue_editor_changes_the_catalogue_in_the_admin(world: World) -> None:
    """The matrix posts empty admin forms; here the catalogue editor saves a real change."""
    profile = EnergyProfile.objects.order_by("pk").first()
    client = Actors(world, (EDITOR,)).sessions[EDITOR]
    url = f"/admin/catalogue/energyprofile/{profile.pk}/change/"
    form = client.get(url).context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data["pue"] = "1.23"
    response = client.post(url, data, headers={"X-CSRFToken": CSRF_SECRET})
    assert outcome(response) == "302", response.context["adminform"].form.errors
    profile.refresh_from_db()
    assert profile.pue == 1.23
