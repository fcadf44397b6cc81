"""The whole API fuzzed with Schemathesis against its own OpenAPI schema (/api/schema/).

Every operation gets generated requests, valid and invalid, sent through the WSGI application
with a personal API token: a manager's, or a front-office reviewer's for the review queue and
its decisions. Every check Schemathesis has runs on each response: no server error; a documented
status code and content type, a body that matches the documented one, and documented headers
that match too; a request the schema does not allow (a wrong type, a value out of range, a field
missing or unknown) refused with a 4xx, not taken in some converted form; a request the schema
allows accepted, but for the rules no JSON Schema can state (JUSTIFIED_REFUSALS, the README's
"What the schema cannot say"); required headers, unsupported methods and the rest.

Generated ids and bodies alone would mostly meet 404s and 400s, so some cases are pointed at real
objects (projects, scenarios, sweeps, share links, tokens, catalogue slugs), with the If-Match of
the object's current ETag where a write needs one, and some send a valid body, or a valid body
with generated fields laid over it, so the success paths are fuzzed as well.

The objects are built once for the module, in a transaction rolled back at its end; each
operation's cases run after a savepoint that is rolled back to after each case, so every case
starts from the same objects.
CI (CI=true) runs 100 generated cases an operation and the coverage phase's cases, the same ones
on every run (but for the options and for creating, replacing and changing a scenario, whose
inputs are the estimate's and whose boundaries the estimate's coverage phase walks: generated
cases only); locally 15 generated cases an operation.
"""

import copy
import os
import re
import zlib
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from functools import partial

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, transaction
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import CHECKS
from schemathesis.config._checks import (
    MISSING_REQUIRED_HEADER_EXPECTED_STATUSES,
    NEGATIVE_DATA_REJECTION_EXPECTED_STATUSES,
    POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES,
)
from schemathesis.core.parameters import ParameterLocation
from schemathesis.generation.meta import TestPhase
from schemathesis.openapi.checks import RejectedPositiveData
from schemathesis.specs.openapi import checks as openapi_checks

from apps.accounts.api import AuthTokenThrottle
from apps.accounts.models import ApiToken
from apps.accounts.services import api_token_create
from apps.actuals.models import ActualsImport, MappingRule
from apps.budget.services import cost_line_create
from apps.catalogue.models import Accelerator, ComputeThreshold, EnergyProfile, LanguageModel
from apps.exports.json_export import project_document
from apps.exports.report import project_report
from apps.projects.conditional import cost_line_etag, project_etag, scenario_etag
from apps.projects.presets import PRESETS
from apps.reviews.services import comment_create, project_submit
from apps.sharing.selectors import latest_version
from apps.sharing.services import share_link_create
from apps.sweeps import runs
from apps.sweeps.services import sweep_create
from config.wsgi import application
from tests.factories import (
    DEMAND_SWEEP,
    SEED_000_TRAINING,
    make_front_office,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
CASES_PER_OPERATION = 100 if IN_CI else 15
PASSWORD = "a-long-fuzzing-password"
API = "/api/v1"
# The review queue and its decisions are the front office's; a manager only gets 403 there.
REVIEWER_OPERATIONS = {
    f"GET {API}/reviews/",
    f"POST {API}/projects/{{project_id}}/return/",
    f"POST {API}/projects/{{project_id}}/clear/",
}

# Rules a JSON Schema cannot state, which refuse a body that matches the schema with a 400 (the
# README's "What the schema cannot say"): what exists in the database (a user, a catalogue row,
# a price on a day, a password), what ties two fields together, and the decimal digits of a
# JSON number. A schema-valid body refused for anything else fails the run.
JUSTIFIED_REFUSALS = re.compile(
    "|".join(
        (
            r"Unable to sign in with this username and password\.",
            r"^No active user named ",
            r"^No (accelerator|energy profile|model|API model|price|language model) ",
            r"in the catalogue",
            r"^The low end is above the high end\.",
            # A project's exchange-rate range: both ends or neither (given, or stored on the
            # project a write changes), the low end at most the high end, and no range and no
            # fiscal year's rate on a project in US dollars (its currency, sent or stored).
            r"^Give both ends of the rate's range, or neither\.",
            r"^The high end is below the low end\.",
            r"^The project is in US dollars, the prices' own currency: no rate converts them",
            # A fiscal year's label is a key of `fiscal_year_rates`: OpenAPI 3.0 has no
            # propertyNames to bound its length.
            r"^A fiscal year's label is too long\.",
            # Re-planning from actuals needs a baseline serving requests and usage billed in a
            # full month of the project's actuals (its data).
            r"^This project has no baseline scenario\.",
            r"^The baseline serves no requests: there is no demand to re-plan\.",
            r": there is no usage to re-plan from\.$",
            r"^Give a price per accelerator-hour: the catalogue has no rental price",
            r"^None of the options can be estimated\.",
            r"^Give distinct keys among ",
            r"^Choose at least one input to vary, or accelerators\.",
            r"^Choose at least one option\.",
            r"^Give each option once\.",
            r"^Give a purchase price: the catalogue has no purchase price",
            r"^Choose an API model from the price catalogue",
            r"^A price tier is read from the price catalogue: choose an API model\.",
            # A price tier the API model has no price at on the day (the price catalogue's data).
            r" price on .+; choose one of its price tiers: ",
            r"^Make another scenario the baseline instead",
            # A currency no rate held converts into (the ECB's rates, a rate table's: the data).
            r"^No exchange rate converts US dollars into ",
            r" has no rate from [A-Z]{3} to [A-Z]{3} on or before ",
            r"^No exchange rate table ",
            r"^A one-off line falls in one month, its start: leave its end empty\.",
            r"^Choose where the accelerators are used, among: ",
            r"^Only a scenario whose inference is given by tokens serves a language model",
            r"^The end is before the start\.",
            r"^The end of the planning period is before its start\.",
            r"^A replica larger than one node is whole nodes: ",
            # A precision the catalogue publishes no peak for on that accelerator (its data).
            r" cannot compute in \w+: the catalogue has no published ",
            # Two fields given together or not at all.
            r"^Give both the experts in total and active per token\.",
            r"^Give both the sliding window and how many layers use it, or neither\.",
            r"^Capacity is bought on commitment from a cloud provider",
            r"publishes a discount for a \d-year commitment",
            r"^The catalogue has no published discount for ",
            r"^The commitment term is 1 or 3 years\.",
            r"^Choose an accelerator: ",
            r"does not use this input\.",
            # A range on an input its section, method or pricing mode does not use.
            r"^This input is not part of the estimate: ",
            r"^Give the (start|stop|number of values|values)",
            r"^Give a whole number from 1 to \d+\.$",  # a page past the sweep's last
            # A Python `$` takes a trailing newline, which the schema's ECMA `$` does not: the
            # generator then sends "slug\n" as if it were valid.
            # A multipart upload's file part without a filename is a form field, not a file:
            # OpenAPI's `format: binary` cannot say the part must carry one.
            r"^No file was submitted\.",
            r"^Enter a valid .slug. consisting of",
            r"^This value does not match the required pattern\.",
            r"or by a fiscal year in review",
            r"is needed",
            r"needs",
            r"for this method",
            r"does not read",
            r"^Ensure that there are no more than \d+ (digits in total|decimal places)\.",
        )
    )
)


# A sweep's varied inputs are judged by their own `field` and `kind`: which of start, stop, steps
# and values an item needs, and which values the field's rule allows.
SWEEP_DEFINITION = (f"POST {API}/scenarios/{{scenario_id}}/sweeps/", "inputs.")


def error_messages(detail, path: str = "") -> list[tuple[str, str]]:
    """(dotted path, message) of every message in a 400's body."""
    if isinstance(detail, dict):
        return [
            pair for key, value in detail.items() for pair in error_messages(value, f"{path}{key}.")
        ]
    if isinstance(detail, list):
        return [pair for value in detail for pair in error_messages(value, path)]
    return [(path, str(detail))]


def justified(case, path: str, message: str) -> bool:
    operation, prefix = SWEEP_DEFINITION
    if f"{case.method} {case.path}" == operation and path.startswith(prefix):
        return True
    return JUSTIFIED_REFUSALS.search(message) is not None


def positive_data_acceptance(ctx, response, case):
    """Schemathesis's check, but for a 400 whose every message is one of the justified rules."""
    try:
        return openapi_checks.positive_data_acceptance(ctx, response, case)
    except RejectedPositiveData:
        if response.status_code != 400:
            raise
        messages = error_messages(response.json())
        if not messages or not all(justified(case, *pair) for pair in messages):
            raise
    return None


# The operations whose credentials `ignored_auth` has seen enforced in this run.
AUTH_ENFORCED: set[str] = set()


def ignored_auth(ctx, response, case):
    """Schemathesis's check, which sends a succeeding case again without its token and with a
    wrong one, expecting both refused: once an operation, as Schemathesis's own runner does
    (enforcement is a property of the operation), not after each of its succeeding cases, which
    tripled their requests."""
    ctx.auth_enforced_operations = AUTH_ENFORCED
    return openapi_checks.ignored_auth(ctx, response, case)


# Every check Schemathesis has, in CI as locally, with the statuses each expects widened only by
# what the README justifies ("The API" section): If-Match's 412 and 428, which no schema can
# foresee.
OWN_VERSIONS = {
    openapi_checks.positive_data_acceptance: positive_data_acceptance,
    openapi_checks.ignored_auth: ignored_auth,
}
ALL_CHECKS = [OWN_VERSIONS.get(check, check) for check in CHECKS.get_all()]
EXPECTED_STATUSES = {
    # A well-formed If-Match that is not the current ETag (a made-up or stale one): 412.
    "positive_data_acceptance": [*POSITIVE_DATA_ACCEPTANCE_EXPECTED_STATUSES, "412"],
    # A stale If-Match is refused before the body is read (RFC 9110, 13.2.2).
    "negative_data_rejection": [*NEGATIVE_DATA_REJECTION_EXPECTED_STATUSES, "412"],
    # A required If-Match left out: 428 Precondition Required (RFC 6585), not a 400.
    "missing_required_header": [*MISSING_REQUIRED_HEADER_EXPECTED_STATUSES, "428"],
}

schema = schemathesis.openapi.from_wsgi(
    "/api/schema/?format=json",
    application,
    config=schemathesis.Config.from_dict(
        {
            "checks": {
                name: {"expected-statuses": statuses}
                for name, statuses in EXPECTED_STATUSES.items()
            },
            "generation": {
                "max-examples": CASES_PER_OPERATION,
                # Reproducible: the same cases on every run, and nothing kept between runs.
                "deterministic": True,
                "database": "none",
                # The test sends the token itself; generated credentials would only meet 401s.
                "with-security-parameters": False,
            },
            # The coverage phase (boundary and type-breaking values of each parameter, a few
            # hundred cases for a big body) is CI's; locally it would triple the run.
            "phases": {"coverage": {"enabled": IN_CI}},
            "operations": [
                {
                    # A scenario's inputs and the options' body are the estimate's request,
                    # validated by the same code (the estimate's fast path, then the same
                    # serializer to say why): the coverage phase walks its ~1,300 boundary and
                    # type-breaking values once, on POST /estimate/ (and on /projects/import/,
                    # whose document's own fields it walks too). Comparing the options, creating,
                    # replacing and changing a scenario get the generated cases (valid and
                    # invalid) without walking the same boundaries three more times: those
                    # walks were a fifth of the fuzz's time in CI.
                    "include-name": [
                        f"POST {API}/options/",
                        f"POST {API}/projects/{{project_id}}/scenarios/",
                        *(
                            f"{method} {API}/projects/{{project_id}}/scenarios/{{id}}/"
                            for method in ("PUT", "PATCH")
                        ),
                    ],
                    "phases": {"coverage": {"enabled": False}},
                },
                {
                    # The coverage phase cannot build a multipart file part (Schemathesis:
                    # "Unsupported type: 'Binary'"); the generated cases send files.
                    "include-name": [f"POST {API}/projects/{{project_id}}/actuals/imports/"],
                    "phases": {"coverage": {"enabled": False}},
                },
            ],
        }
    ),
)


@dataclass(frozen=True)
class Target:
    """A real object a case may be pointed at: path parameters, headers (If-Match) and a valid
    body, all optional; `own` is False for the stranger's objects, which answer 404."""

    path: dict = field(default_factory=dict)
    headers: dict = field(default_factory=dict)
    body: dict | None = None
    own: bool = True


# Per operation ("PATCH /api/v1/projects/{id}/"), its targets; filled in by the `world` fixture.
TARGETS: dict[str, list[Target]] = {}
# In a valid body with generated fields laid over it, these keep the valid value: a generated
# string is never a method, a catalogue slug or an input's path.
PINNED = frozenset({"method", "accelerator", "energy_profile", "field", "kind", "format"})


def overlay(valid, generated):
    """`valid` with the generated values in place of its own, but for the pinned keys."""
    if not (isinstance(valid, dict) and isinstance(generated, dict)):
        return generated
    merged = dict(valid)
    for key, value in generated.items():
        if key in PINNED and key in valid:
            continue
        merged[key] = overlay(valid[key], value) if key in valid else value
    return merged


def as_text(path: dict) -> dict:
    """Path parameters as text, the way generated ones are: Schemathesis checks again whether a
    part of a case that was changed still fits the schema, and an int would not."""
    return {name: str(value) for name, value in path.items()}


def negative_locations(case) -> set[ParameterLocation]:
    """Where the case breaks the schema on purpose (a negative case); pointing it at a target
    must leave those parts as generated, or the request would no longer be invalid."""
    if case.meta is None:
        return set()
    return {where for where, info in case.meta.components.items() if info.mode.is_negative}


def point_at(case, choice):
    if choice is None:
        return case
    target, body = choice
    negative = negative_locations(case)
    if target.path and ParameterLocation.PATH not in negative:
        case.path_parameters = {**(case.path_parameters or {}), **as_text(target.path)}
    if target.headers and ParameterLocation.HEADER not in negative:
        case.headers = {**(case.headers or {}), **target.headers}
    if ParameterLocation.BODY in negative:
        return case
    if body == "valid":
        case.body = copy.deepcopy(target.body)
    elif body == "valid, generated fields over it" and isinstance(case.body, dict):
        case.body = overlay(copy.deepcopy(target.body), case.body)
    return case


@schema.hook
def flatmap_case(context, case):
    """The case as generated, or pointed at one of the operation's targets."""
    choices = [None]
    for target in TARGETS.get(f"{case.method} {case.path}", []):
        if target.path or target.headers:
            choices.append((target, "generated"))
        if target.body is not None:
            choices += [(target, "valid"), (target, "valid, generated fields over it")]
    return st.sampled_from(choices).map(partial(point_at, case))


# The estimate's request inside the import's document: each scenario's `inputs`.
IMPORT = f"POST {API}/projects/import/"
SCENARIO_INPUTS = "/properties/scenarios/items/properties/inputs/"


def walks_the_estimate_again(case) -> bool:
    """A coverage case of the import whose boundary or type-breaking value is in a scenario's
    `inputs`: the estimate's request, validated by the same code (the estimate's fast path, then
    the same serializer to say why; EstimateRequestField), whose ~1,300 boundaries the coverage
    phase walks on POST /estimate/. They were three in four of the import's coverage cases and
    its 80 s; the import's own fields (the project's, a scenario's name, dates and cost lines)
    keep theirs, and its generated cases still send whole documents, valid and invalid."""
    if f"{case.method} {case.path}" != IMPORT:
        return False
    if case.meta is None or case.meta.phase.name != TestPhase.COVERAGE:
        return False
    data = case.meta.phase.data
    # A value that breaks the schema names where (a JSON pointer into it); a valid one is
    # described from the body down ("Object with valid 'inputs' value: ...").
    return SCENARIO_INPUTS in (data.location or "") or "valid 'inputs' value" in data.description


# On the import only: a filter on the other operations would change the cases they generate.
@schema.hook.apply_to(method="POST", path=f"{API}/projects/import/")
def filter_case(context, case):
    """The import's cases but its coverage cases that walk the estimate's boundaries again."""
    return not walks_the_estimate_again(case)


def point_coverage_case_at_a_target(case) -> None:
    """Coverage cases (boundary and type-breaking values, one parameter at a time) are built
    before any object exists, so their ids would only meet 404s: unless a case is about the
    path or a header, point it at one of the user's own targets (the same one on every run)."""
    targets = [target for target in TARGETS.get(f"{case.method} {case.path}", []) if target.own]
    if not targets or case.meta is None or case.meta.phase.name != TestPhase.COVERAGE:
        return
    data = case.meta.phase.data
    target = targets[zlib.crc32(data.description.encode()) % len(targets)]
    if data.parameter_location != ParameterLocation.PATH:
        case.path_parameters = {**(case.path_parameters or {}), **as_text(target.path)}
    if target.headers and data.parameter_location != ParameterLocation.HEADER:
        case.headers = {**(case.headers or {}), **target.headers}


@pytest.fixture
def connection_kept_across_requests():
    """Django's WSGI handler closes the database connection after each request, which would end
    the test's transaction; Django's test client keeps it the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def generous_limits(settings, monkeypatch):
    """Limits far above the run's requests, so that the fuzzer meets the app rather than 429s.
    The `settings` and `monkeypatch` fixtures restore everything afterwards."""
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "100000/minute", "user": "100000/minute"},
    }
    # The token endpoint's throttle reads the rates DRF had at import time (a class attribute).
    monkeypatch.setattr(AuthTokenThrottle, "THROTTLE_RATES", {"auth-token": "100000/minute"})
    settings.LOGIN_FAILURES_PER_ACCOUNT_AND_ADDRESS = 100_000
    settings.LOGIN_FAILURES_PER_ADDRESS = 100_000
    settings.LOGIN_ACCOUNT_FAILURES_BEFORE_SLOWING = 100_000
    # Each unknown username still costs a password hash; the fast hasher keeps the run quick.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # A server error fails the case with its exception and traceback rather than a bare 500.
    settings.DEBUG_PROPAGATE_EXCEPTIONS = True


def finished_sweep(scenario, user):
    sweep = sweep_create(
        scenario=scenario,
        created_by=user,
        definition={
            "inputs": [
                {"field": "inference.requests_per_month", "kind": "list", "values": [1e3, 1e5]}
            ],
            "accelerators": ["nvidia-h100-sxm", "nvidia-l4"],
        },
    )
    sweep.refresh_from_db()
    for index in range(sweep.total_chunks):
        runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=index)
    return sweep


@pytest.fixture(scope="module")
def built_world(django_db_setup, django_db_blocker):
    """The objects every operation's cases are pointed at, built once for the module in a
    transaction rolled back at its end (as Django's setUpTestData): each test runs in a savepoint
    inside it, and each case is rolled back to a savepoint inside that (`undo_the_case`), so
    every case still starts from the same objects. Building them for each of the ~70 operations took about a
    tenth of the run."""
    md5 = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # as generous_limits
    with django_db_blocker.unblock(), transaction.atomic():
        yield override_settings(PASSWORD_HASHERS=md5)(build_world)()
        transaction.set_rollback(True)
    TARGETS.clear()


@pytest.fixture
def world(built_world, db, generous_limits, connection_kept_across_requests):
    """The Authorization headers of the manager and the reviewer, whose objects and targets
    `built_world` holds, with the limits and the connection the cases need."""
    return built_world


@pytest.fixture
def undo_the_case(world):
    """Rolls back what a case changed: to a savepoint made once for the operation's cases, which
    PostgreSQL keeps where it is rolled back to. One statement a case, where an atomic block a
    case took three (SAVEPOINT, ROLLBACK TO SAVEPOINT, RELEASE SAVEPOINT), each a round trip to
    the database that cost as much as the rest of a small request on a busy CI machine."""
    sid = transaction.savepoint_create()

    def undo():
        transaction.savepoint_rollback(sid)
        # As an atomic block rolled back to its savepoint does: the transaction is usable again.
        transaction.set_rollback(False)

    yield undo
    transaction.savepoint_rollback(sid)
    transaction.savepoint_commit(sid)


def build_world():
    """A manager and a reviewer with tokens, the manager's objects, a stranger's, and each
    operation's targets. Returns the Authorization headers of the two."""
    manager = make_manager("fuzzer", password=PASSWORD)
    reviewer = make_front_office("reviewer")
    stranger = make_manager("stranger")
    _, manager_key = api_token_create(user=manager, name="fuzzing")
    _, reviewer_key = api_token_create(user=reviewer, name="fuzzing")
    spare_token, _ = api_token_create(user=manager, name="spare")

    draft = make_project(manager, "Draft plan")
    baseline = make_scenario(draft, "Baseline", is_baseline=True)
    # With ranges, so that the budget's `uncertainty` is fuzzed against its schema too.
    bigger = make_scenario(
        draft,
        "Bigger demand",
        inputs={
            "training": SEED_000_TRAINING,
            "inference": seed_000_inference(15_000),
            "ranges": {"inference.requests_per_month": {"low": 1e4, "high": 1e5}},
            "uncertainty": {"samples": 1_000, "seed": 1},
        },
    )
    submitted = make_project(manager, "Submitted plan")
    make_scenario(submitted, "Baseline", is_baseline=True)
    project_submit(project=submitted, user=manager)
    comment_create(project=submitted, author=manager, body="Ready for review.")
    their_project = make_project(stranger, "Someone else's plan")
    their_scenario = make_scenario(their_project, "Theirs", is_baseline=True)
    theirs = [their_project, their_scenario]

    done = finished_sweep(baseline, manager)
    queued = sweep_create(
        scenario=bigger,
        created_by=manager,
        definition={
            "inputs": [{"field": "inference.requests_per_month", "kind": "list", "values": [1e4]}]
        },
    )
    line_fields = {
        "name": "Data scientist",
        "kind": "staff",
        "quantity": Decimal("1.5"),
        "unit": "FTE",
        "unit_price": Decimal(90000),
        "recurrence": "yearly",
        "start": date(2026, 1, 1),
        "end": date(2027, 12, 31),
        "category": 1,
    }
    lines = [
        cost_line_create(scenario=scenario, fields=line_fields)
        for scenario in (baseline, their_scenario)
    ]
    theirs.append(lines[1])
    link, _ = share_link_create(subject=latest_version(baseline), user=manager, label="Board")

    projects = [draft, submitted, their_project]
    scenarios = [baseline, bigger, their_scenario]
    sweeps = [done, queued]
    inputs = [preset.inputs for preset in PRESETS]
    document = project_document(project_report(draft, user=manager))
    actuals_imports = [
        ActualsImport.objects.create(project=project, created_by=project.owner)
        for project in (draft, their_project)
    ]
    rules = [
        MappingRule.objects.create(
            project=project, column="ServiceName", value="S3", kind="storage"
        )
        for project in (draft, their_project)
    ]
    theirs += [actuals_imports[1], rules[1]]

    def by_id(name, objects, body=None, etag=None):
        return [
            Target(
                path={name: item.pk},
                headers={"If-Match": etag(item)} if etag else {},
                body=body,
                own=item not in theirs,
            )
            for item in objects
        ]

    def by_slug(model):
        return [Target(path={"slug": item.slug}) for item in model.objects.order_by("slug")[:3]]

    def scenario_targets(body, etag=True):
        return [
            Target(
                path={"project_id": item.project_id, "id": item.pk},
                headers={"If-Match": scenario_etag(item)} if etag else {},
                body=body,
                own=item not in theirs,
            )
            for item in scenarios
        ]

    # Ranges on demand and price, sampled: the success path of `uncertainty` is fuzzed too.
    ranged = {
        "ranges": {
            "inference.requests_per_month": {"low": 1e4, "high": 1e6},
            "inference.price_per_accelerator_hour": {"low": 1, "high": 4},
        },
        "uncertainty": {"samples": 1_000, "seed": 1},
    }
    scenario_body = {"name": "Fuzzed", "inputs": inputs[1]}
    sweep_body = {
        "inputs": [DEMAND_SWEEP],
        "accelerators": ["nvidia-h100-sxm", "nvidia-l4"],
    }
    share_body = {"label": "Governance board", "expires_in_days": 7}
    line_body = {
        **line_fields,
        "quantity": 1.5,
        "unit_price": "90000.00",
        "start": "2026-01-01",
        "end": "2027-12-31",
    }

    def line_targets(body, etag=False):
        return [
            Target(
                path={"scenario_id": line.scenario_id, "line_id": line.pk},
                headers={"If-Match": cost_line_etag(line.pk, line.scenario)} if etag else {},
                body=body,
                own=line not in theirs,
            )
            for line in lines
        ]

    TARGETS.clear()
    TARGETS.update(
        {
            f"GET {API}/accelerators/{{slug}}/": by_slug(Accelerator),
            f"GET {API}/thresholds/{{slug}}/": by_slug(ComputeThreshold),
            f"GET {API}/energy-profiles/{{slug}}/": by_slug(EnergyProfile),
            f"GET {API}/models/{{slug}}/": by_slug(LanguageModel),
            f"GET {API}/api-prices/{{slug}}/": [
                Target(path={"slug": slug})
                for slug in ("openai-gpt-4o", "deepseek-deepseek-v4-flash")
            ],
            f"POST {API}/estimate/": [
                *(Target(body=body) for body in inputs),
                Target(body={**inputs[0], **ranged}),
            ],
            f"POST {API}/auth/token/": [
                Target(body={"username": "fuzzer", "password": PASSWORD, "name": "script"})
            ],
            f"DELETE {API}/auth/tokens/{{id}}/": by_id("id", [spare_token]),
            f"POST {API}/projects/": [Target(body={"title": "Fuzzed plan"})],
            f"POST {API}/projects/import/": [Target(body=document)],
            f"GET {API}/projects/{{id}}/": by_id("id", projects),
            f"PUT {API}/projects/{{id}}/": by_id(
                "id", projects, {"title": "Renamed plan"}, project_etag
            ),
            f"PATCH {API}/projects/{{id}}/": by_id(
                "id", projects, {"title": "Renamed plan"}, project_etag
            ),
            f"DELETE {API}/projects/{{id}}/": by_id("id", projects, etag=project_etag),
            f"POST {API}/projects/{{project_id}}/clear/": by_id(
                "project_id", projects, {"comment": "Cleared."}
            ),
            f"POST {API}/projects/{{project_id}}/return/": by_id(
                "project_id", projects, {"comment": "Add a sweep of demand."}
            ),
            f"GET {API}/projects/{{project_id}}/comments/": by_id("project_id", projects),
            f"GET {API}/projects/{{project_id}}/audit/": by_id("project_id", projects),
            f"POST {API}/projects/{{project_id}}/comments/": by_id(
                "project_id", projects, {"body": "Looks right."}
            ),
            f"GET {API}/projects/{{project_id}}/export/": by_id("project_id", projects),
            f"GET {API}/projects/{{project_id}}/scenarios/": by_id("project_id", projects),
            f"POST {API}/projects/{{project_id}}/scenarios/": by_id(
                "project_id", projects, scenario_body
            ),
            f"POST {API}/projects/{{project_id}}/share-links/": by_id(
                "project_id", projects, share_body
            ),
            f"POST {API}/projects/{{project_id}}/submit/": by_id("project_id", projects),
            f"GET {API}/reviews/{{project_id}}/": by_id("project_id", projects),
            f"GET {API}/projects/{{project_id}}/scenarios/{{id}}/": scenario_targets(
                None, etag=False
            ),
            f"PUT {API}/projects/{{project_id}}/scenarios/{{id}}/": scenario_targets(scenario_body),
            f"PATCH {API}/projects/{{project_id}}/scenarios/{{id}}/": scenario_targets(
                scenario_body
            ),
            f"DELETE {API}/projects/{{project_id}}/scenarios/{{id}}/": scenario_targets(None),
            f"GET {API}/scenarios/{{scenario_id}}/estimate/": by_id("scenario_id", scenarios),
            f"GET {API}/scenarios/{{scenario_id}}/options/": by_id("scenario_id", scenarios),
            f"POST {API}/options/": [Target(body=body) for body in inputs if body.get("inference")],
            f"GET {API}/scenarios/{{scenario_id}}/export/": by_id("scenario_id", scenarios),
            f"GET {API}/scenarios/{{scenario_id}}/budget/": by_id("scenario_id", scenarios),
            f"GET {API}/projects/{{project_id}}/budget/": by_id("project_id", projects),
            f"GET {API}/scenarios/{{scenario_id}}/cost-lines/": by_id("scenario_id", scenarios),
            f"POST {API}/scenarios/{{scenario_id}}/cost-lines/": by_id(
                "scenario_id", scenarios, line_body
            ),
            **{
                f"{method} {API}/scenarios/{{scenario_id}}/cost-lines/{{line_id}}/": line_targets(
                    line_body if method in {"PUT", "PATCH"} else None, etag=method != "GET"
                )
                for method in ("GET", "PUT", "PATCH", "DELETE")
            },
            f"POST {API}/scenarios/{{scenario_id}}/share-links/": by_id(
                "scenario_id", scenarios, share_body
            ),
            f"GET {API}/scenarios/{{scenario_id}}/sweeps/": by_id("scenario_id", scenarios),
            f"POST {API}/scenarios/{{scenario_id}}/sweeps/": by_id(
                "scenario_id", scenarios, sweep_body
            ),
            f"DELETE {API}/share-links/{{id}}/": by_id("id", [link]),
            f"POST {API}/projects/{{project_id}}/actuals/imports/": by_id("project_id", projects),
            f"GET {API}/projects/{{project_id}}/actuals/imports/{{import_id}}/": [
                Target(
                    path={"project_id": item.project_id, "import_id": item.pk},
                    own=item not in theirs,
                )
                for item in actuals_imports
            ],
            f"GET {API}/projects/{{project_id}}/actuals/rules/": by_id("project_id", projects),
            f"POST {API}/projects/{{project_id}}/actuals/rules/": by_id(
                "project_id", projects, {"column": "Tags.team", "value": "ml", "kind": "storage"}
            ),
            **{
                f"{method} {API}/projects/{{project_id}}/actuals/rules/{{rule_id}}/": [
                    Target(
                        path={"project_id": item.project_id, "rule_id": item.pk},
                        body={"value": "Amazon S3"} if method == "PATCH" else None,
                        own=item not in theirs,
                    )
                    for item in rules
                ]
                for method in ("PATCH", "DELETE")
            },
            f"GET {API}/projects/{{project_id}}/actuals/thresholds/": by_id("project_id", projects),
            f"PATCH {API}/projects/{{project_id}}/actuals/thresholds/": by_id(
                "project_id", projects, {"percentages": [75, 100], "on_actual": True}
            ),
            f"GET {API}/projects/{{project_id}}/variance/": by_id("project_id", projects),
            f"POST {API}/projects/{{project_id}}/actuals/replan/": by_id("project_id", projects),
            **{
                f"{method} {API}/sweeps/{{sweep_id}}/{tail}": by_id("sweep_id", sweeps)
                for method, tail in (
                    ("GET", ""),
                    ("POST", "cancel/"),
                    ("GET", "results/"),
                    ("GET", "results.csv"),
                    ("GET", "summary/"),
                )
            },
        }
    )
    # Used "a day from now": otherwise every request would mark its token used again, since each
    # case's rollback undoes the mark (in use, a token is written at most once a minute).
    ApiToken.objects.update(last_used_at=timezone.now() + timedelta(days=1))
    return {
        "manager": {"Authorization": f"Bearer {manager_key}"},
        "reviewer": {"Authorization": f"Bearer {reviewer_key}"},
    }


@schema.parametrize()
# The fixture's objects are shared by all the operations' cases on purpose: each case's changes
# are rolled back, so every case starts from the same objects.
# Generation may be slow on a busy machine, as Hypothesis's own CI profile allows for.
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_the_api_answers_every_generated_request_as_its_schema_says(case, world, undo_the_case):
    who = "reviewer" if f"{case.method} {case.path}" in REVIEWER_OPERATIONS else "manager"
    point_coverage_case_at_a_target(case)
    try:
        response = case.call(headers=world[who])
    finally:
        undo_the_case()
    case.validate_response(response, checks=ALL_CHECKS, headers=world[who])


def test_every_operation_is_fuzzed_and_every_object_in_a_path_reachable(world):
    # Every check Schemathesis registers, the OpenAPI ones (imported above) among them.
    assert len(ALL_CHECKS) == 14
    assert positive_data_acceptance in ALL_CHECKS
    assert ignored_auth in ALL_CHECKS
    assert schema.location == reverse("api:schema") + "?format=json"
    operations = {
        f"{result.ok().method.upper()} {result.ok().path}" for result in schema.get_all_operations()
    }
    assert len(operations) >= 44
    assert operations >= REVIEWER_OPERATIONS | set(TARGETS)
    # Every operation that names an object in its path can be pointed at real ones.
    assert {label for label in operations if "{" in label} <= set(TARGETS)
