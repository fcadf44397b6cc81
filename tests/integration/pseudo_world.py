"""A world with one of every object a page can show, for the pseudo-locale render of every page
(tests/integration/test_pseudo_every_page.py): a draft project with a rented, an owned, a
language-model and an external-API scenario (versions, a cost line, sweeps finished and queued,
a share link), a submitted project with a comment and its snapshot's share link, an API token, a
front-office reviewer and a catalogue editor."""

from django.contrib.auth.models import Group

from apps.accounts.services import api_token_create
from apps.budget.services import cost_line_create
from apps.notifications.invitations import invitation_create
from apps.notifications.links import invitation_token
from apps.projects.roles import CATALOGUE_EDITOR
from apps.projects.services import scenario_update
from apps.reviews.services import comment_create, project_submit
from apps.sharing import services as sharing
from apps.sweeps import runs, services
from tests.factories import (
    DEMAND_SWEEP,
    SEED_000_TRAINING,
    make_front_office,
    make_manager,
    make_project,
    make_scenario,
    seed_000_inference,
)
from tests.integration.test_budget_models import STAFF

# What people typed: names, titles, labels and comments are data, not interface.
WORLD_DATA = [
    "Translation assistant",
    "Board plan",
    "Rented pilot",
    "Owned pilot",
    "Chat service",
    "Vendor API",
    "Board meeting",
    "Review board",
    "Integration",
    "Check the growth.",
    "Data scientist",
    "Demand sweep",
    "Demand and utilisation",
    "Two models",
    "Waiting",
    "FTE",
    "1.5 FTE × loaded annual cost of a P3.",
    "Second",
    "Fine.",
    "Redo it.",
    "amina",
    "kofi",
    "nadia",
    "guest@example.org",
    "newcomer@example.org",
]

TOKENS = {
    "method": "tokens",
    "model": "llama-3.1-8b",
    "input_tokens": 1000,
    "output_tokens": 500,
    "accelerator": "nvidia-h100-sxm",
    "requests_per_month": 100_000,
}
EXTERNAL_API = {
    "method": "external_api",
    "input_tokens": 1000,
    "cached_input_tokens": 400,
    "output_tokens": 500,
    "price_per_million_input_tokens": 2,
    "price_per_million_cached_input_tokens": 0.5,
    "price_per_million_output_tokens": 8,
    "requests_per_month": 100_000,
}
API_FINE_TUNE = {
    "method": "api_fine_tune",
    "tokens": 2e7,
    "epochs": 3,
    "price_per_million_training_tokens": 25,
}
UTILISATION_SWEEP = {
    "field": "inference.target_utilization",
    "kind": "list",
    "values": [0.5, 0.7],
}


def _finished(sweep):
    sweep.refresh_from_db()
    for index in range(sweep.total_chunks):
        runs.sweep_chunk_store(sweep_id=sweep.pk, run=sweep.run, chunk_index=index)
    sweep.refresh_from_db()
    return sweep


def world_build() -> dict:
    """Every object a page shows; the sweep tasks must be kept from running (see the tests)."""
    owner = make_manager("amina")
    reviewer = make_front_office("kofi")
    editor = make_manager("nadia")
    editor.groups.add(Group.objects.get_or_create(name=CATALOGUE_EDITOR)[0])
    editor.is_staff = True
    editor.save()

    project = make_project(owner, "Translation assistant")
    rented = make_scenario(project, "Rented pilot", is_baseline=True)
    scenario_update(
        scenario=rented,
        name="Rented pilot",
        inputs={"training": SEED_000_TRAINING, "inference": seed_000_inference(300_000)},
        user=owner,
        expected_version=1,
    )
    owned = make_scenario(
        project,
        "Owned pilot",
        inputs={
            "training": {**SEED_000_TRAINING, "pricing_mode": "own"},
            "inference": seed_000_inference(15_000, pricing_mode="own"),
        },
    )
    chat = make_scenario(project, "Chat service", inputs={"inference": TOKENS})
    vendor = make_scenario(
        project, "Vendor API", inputs={"training": API_FINE_TUNE, "inference": EXTERNAL_API}
    )
    line = cost_line_create(scenario=rented, fields=STAFF, user=owner)
    rented.refresh_from_db()
    version = rented.versions.get(number=rented.version)
    _, version_token = sharing.share_link_create(subject=version, user=owner, label="Board meeting")
    line_sweep = _finished(
        services.sweep_create(
            scenario=rented,
            created_by=owner,
            definition={"inputs": [DEMAND_SWEEP]},
            name="Demand sweep",
        )
    )
    grid_sweep = _finished(
        services.sweep_create(
            scenario=rented,
            created_by=owner,
            definition={
                "inputs": [DEMAND_SWEEP, UTILISATION_SWEEP],
                "accelerators": ["nvidia-h100-sxm", "nvidia-a100-sxm-80gb"],
                "accelerator_sections": ["inference"],
            },
            name="Demand and utilisation",
        )
    )
    model_sweep = _finished(
        services.sweep_create(
            scenario=chat,
            created_by=owner,
            definition={"inputs": [DEMAND_SWEEP], "models": ["llama-3.1-8b", "llama-3.3-70b"]},
            name="Two models",
        )
    )
    queued_sweep = services.sweep_create(
        scenario=owned, created_by=owner, definition={"inputs": [DEMAND_SWEEP]}, name="Waiting"
    )

    board = make_project(owner, "Board plan")
    board_pilot = make_scenario(board, "Rented pilot", is_baseline=True)
    make_scenario(board, "Owned pilot", inputs=owned.inputs)
    snapshot = project_submit(project=board, user=owner)
    comment_create(project=board, author=reviewer, body="Check the growth.")
    _, snapshot_token = sharing.share_link_create(
        subject=snapshot, user=owner, label="Review board"
    )
    token, _key = api_token_create(user=owner, name="Integration")
    invitation = invitation_create(
        project=project, invited_by=owner, email="guest@example.org", language="fr"
    )
    return {
        "users": {"owner": owner, "reviewer": reviewer, "editor": editor, "anonymous": None},
        "ids": {
            "project": project.pk,
            "rented": rented.pk,
            "owned": owned.pk,
            "chat": chat.pk,
            "vendor": vendor.pk,
            "line": line.pk,
            "line_sweep": line_sweep.pk,
            "grid_sweep": grid_sweep.pk,
            "model_sweep": model_sweep.pk,
            "queued_sweep": queued_sweep.pk,
            "board": board.pk,
            "board_pilot": board_pilot.pk,
            "version_token": version_token,
            "snapshot_token": snapshot_token,
            "token": token.pk,
            "link": board.share_links.get().pk,
            "invitation_token": invitation_token(invitation.pk),
        },
    }
