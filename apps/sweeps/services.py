"""Writes to sweeps: create one (checked against the catalogue, queued on commit) or cancel it."""

import math
from functools import partial

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from apps.catalogue.resolve import DEFAULT_ENERGY_PROFILE, Catalogue, estimate_input_from_request
from apps.estimates import EstimateInputError
from apps.estimates.currency import ExchangeRate
from apps.estimates.record import dump
from apps.projects.currency import project_exchange
from apps.projects.models import Scenario
from apps.sweeps import background, tasks
from apps.sweeps.allowance import sweep_allowance_check
from apps.sweeps.compute import requests_by_accelerator
from apps.sweeps.definition import SECTIONS, Definition, DefinitionError, definition_parse
from apps.sweeps.models import Sweep
from apps.words.messages import message_text

# Points per chunk: a sweep is cut into about forty chunks (progress steps, and units of work for
# the workers to share), each of at most 25,000 points (about 20 ms of engine time, 1 MB stored)
# and, so that small sweeps are not cut into slivers, of at least 1,000.
CHUNKS = 40
CHUNK_POINTS = (1_000, 25_000)


def chunk_size_for(total_points: int) -> int:
    low, high = CHUNK_POINTS
    return min(max(math.ceil(total_points / CHUNKS), low), high)


def _messages(error: EstimateInputError) -> list[str]:
    """The catalogue's problems with a request, in the reader's language, each once."""
    return list(
        dict.fromkeys(message_text(m) for messages in error.errors.values() for m in messages)
    )


def _catalogue_errors(definition: Definition, request: dict) -> dict[str, list[str]]:
    """What the catalogue cannot serve: the scenario as it is, or with a listed accelerator."""
    catalogue = Catalogue.load()
    requests = requests_by_accelerator(definition, request)
    if not definition.accelerators and not definition.models:
        try:
            estimate_input_from_request(request, catalogue)
        except EstimateInputError as error:
            problems = " ".join(_messages(error))
            message = gettext("The scenario needs attention first: %(problems)s")
            return {"non_field_errors": [message % {"problems": problems}]}
        return {}
    problems = []
    for changed in requests:
        try:
            estimate_input_from_request(changed, catalogue)
        except EstimateInputError as error:
            problems.extend(_messages(error))
    key = "accelerators" if definition.accelerators else "models"
    return {key: list(dict.fromkeys(problems))} if problems else {}


def catalogue_keys(definition: Definition, request: dict) -> str:
    """The catalogue rows a sweep's figures depend on, as " kind:slug … " for a text lookup."""
    keys = {f"accelerator:{slug}" for slug in definition.accelerators}
    keys |= {
        f"accelerator:{request[section]['accelerator']}"
        for section in SECTIONS
        if request.get(section) and request[section].get("accelerator")
    }
    keys |= {f"model:{slug}" for slug in definition.models}
    if (request.get("inference") or {}).get("model"):
        keys.add(f"model:{request['inference']['model']}")
    keys.add(f"energy:{request.get('energy_profile') or DEFAULT_ENERGY_PROFILE}")
    return f" {' '.join(sorted(keys))} "


def default_name(definition: Definition) -> str:
    """What the sweep varies, in the language of the person who makes it (a name is kept as
    given, like one they typed)."""
    parts = [str(item.spec.label) for item in definition.inputs]
    if definition.accelerators:
        count = len(definition.accelerators)
        parts.append(
            ngettext("%(count)d accelerator", "%(count)d accelerators", count) % {"count": count}
        )
    if definition.models:
        count = len(definition.models)
        parts.append(ngettext("%(count)d model", "%(count)d models", count) % {"count": count})
    return " × ".join(parts)[:200]


def _pinned_exchange(scenario: Scenario) -> ExchangeRate | None:
    """The rate the scenario's page converts its prices at (apps.projects.currency), pinned with
    the sweep; None in US dollars. Raises DefinitionError when the project's currency has no
    rate, as the scenario page refuses it."""
    try:
        exchange = project_exchange(scenario.project)
    except EstimateInputError as error:
        problems = " ".join(_messages(error))
        message = gettext("The scenario needs attention first: %(problems)s")
        raise DefinitionError({"non_field_errors": [message % {"problems": problems}]}) from None
    return None if exchange.is_identity else exchange


@transaction.atomic
def sweep_create(
    *,
    scenario: Scenario,
    created_by,
    definition: dict,
    name: str = "",
    chunk_size: int | None = None,
) -> Sweep:
    """Check a definition against the scenario, the person's allowance and the catalogue, store
    the sweep and queue its chunks once the transaction commits; raise DefinitionError or
    SweepLimitReached (nothing stored or queued), or QueueUnavailable on commit when the broker
    does not answer (the sweep failed, none queued)."""
    parsed = definition_parse(definition, scenario.inputs)
    if created_by is not None:
        sweep_allowance_check(user=created_by, points=parsed.total_points)
    errors = _catalogue_errors(parsed, scenario.inputs)
    if errors:
        raise DefinitionError(errors)
    exchange = _pinned_exchange(scenario)
    chunk_size = chunk_size or chunk_size_for(parsed.total_points)
    sweep = Sweep(
        scenario=scenario,
        created_by=created_by,
        name=name.strip() or default_name(parsed),
        definition=parsed.as_dict(),
        base_inputs=scenario.inputs,
        exchange=None if exchange is None else dump(exchange),
        catalogue_keys=catalogue_keys(parsed, scenario.inputs),
        total_points=parsed.total_points,
        chunk_size=chunk_size,
        total_chunks=math.ceil(parsed.total_points / chunk_size),
    )
    in_background = background.runs_in_background(sweep.total_points)
    if in_background:
        # Stamped as it is stored: a server that stops before its thread starts the sweep
        # leaves it to be resumed (apps.sweeps.background).
        sweep.heartbeat_at = timezone.now()
    sweep.full_clean()
    sweep.save()
    if in_background:
        enqueue = partial(
            background.enqueue_chunks_in_background, sweep.pk, sweep.run, sweep.total_chunks
        )
    else:
        enqueue = partial(_enqueue, sweep.pk, sweep.run, sweep.total_chunks)
    transaction.on_commit(enqueue)
    return sweep


# Long enough for a restarted Redis to come back.
QUEUE_RETRY_AFTER_SECONDS = 60


class QueueUnavailable(Exception):
    """The task broker did not take the sweep's chunks: the sweep is stored, failed with the
    reason, and nothing of it will run. Raised once the transaction has committed."""

    message = gettext_lazy(
        "The task queue is not answering, so the sweep was not started (it is listed as failed, "
        "with the reason). Try again in a minute."
    )


def _enqueue(sweep_id: int, run: int, total_chunks: int) -> None:
    if not tasks.enqueue_chunks(sweep_id, run, total_chunks):
        raise QueueUnavailable(f"Sweep {sweep_id} could not be queued.")


@transaction.atomic
def sweep_cancel(*, sweep: Sweep) -> bool:
    """Stop a queued or running sweep: its remaining chunks are skipped. False when it had ended."""
    cancelled = Sweep.objects.filter(pk=sweep.pk, status__in=Sweep.ACTIVE).update(
        status=Sweep.Status.CANCELLED, finished_at=timezone.now()
    )
    sweep.refresh_from_db()
    return bool(cancelled)
