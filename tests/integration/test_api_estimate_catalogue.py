"""The catalogue snapshot behind estimates: reused between requests, rebuilt after any change."""

import json
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.apiprices.loading import api_prices_load
from apps.catalogue import snapshot
from apps.catalogue.loading import catalogue_load
from apps.catalogue.models import (
    CATALOGUE_VERSION_KEY,
    Accelerator,
    PriceOffer,
    _new_catalogue_version,
    catalogue_version,
)
from apps.catalogue.snapshot import Catalogue
from tests.factories import SEED_000_TRAINING

pytestmark = pytest.mark.django_db
URL = "/api/v1/estimate/"
# The L4 has one rental offer in the shipped catalogue, so its price is that offer's.
L4_TRAINING = {"method": "accelerator_hours", "accelerator_hours": 100, "accelerator": "nvidia-l4"}


def post(client, body):
    return client.post(URL, data=json.dumps(body), content_type="application/json")


def training_cost(client, training: dict) -> str:
    response = post(client, {"training": training})
    assert response.status_code == 200, response.content
    return response.json()["training"]["cost"]


@pytest.fixture
def admin_client(client):
    client.force_login(get_user_model().objects.create_superuser("admin", password="x" * 20))
    return client


def admin_change_data(row, **changes) -> dict:
    """The admin change form of `row` as submitted unchanged, with `changes` typed in."""
    data = {}
    for field in row._meta.concrete_fields:
        if field.editable and not field.primary_key:
            value = getattr(row, field.attname)
            data[field.name] = "" if value is None else str(value)
    return {**data, **changes}


def test_a_price_edited_in_the_admin_is_used_by_the_next_estimate(
    api_client, admin_client, django_capture_on_commit_callbacks
):
    offer = PriceOffer.objects.get(accelerator__slug="nvidia-l4", kind="rent")
    assert training_cost(api_client, L4_TRAINING) == str(
        (100 * offer.price_per_accelerator_hour).quantize(Decimal("0.01"))
    )
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            f"/admin/catalogue/priceoffer/{offer.pk}/change/",
            admin_change_data(offer, price_per_accelerator_hour="1.2345"),
        )
    assert response.status_code == 302, response.content
    assert training_cost(api_client, L4_TRAINING) == "123.45"


def test_an_accelerator_deleted_in_the_admin_is_gone_from_the_next_estimate(
    api_client, admin_client, django_capture_on_commit_callbacks
):
    l4 = Accelerator.objects.get(slug="nvidia-l4")
    training_cost(api_client, L4_TRAINING)
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post(
            f"/admin/catalogue/accelerator/{l4.pk}/delete/", {"post": "yes"}
        )
    assert response.status_code == 302, response.content
    response = post(api_client, {"training": L4_TRAINING})
    assert response.status_code == 400
    errors = response.json()["training"]
    # One message, naming the slug and the closest ones left (the L4's neighbours by name).
    [message] = errors["accelerator"]
    assert message.startswith("No accelerator 'nvidia-l4' in the catalogue. Did you mean ")
    assert "'nvidia-l40s'" in message and set(errors) == {"accelerator"}


def test_an_estimate_with_a_warm_snapshot_runs_no_query(api_client):
    training_cost(api_client, SEED_000_TRAINING)
    with CaptureQueriesContext(connection) as queries:
        for _ in range(3):
            training_cost(api_client, SEED_000_TRAINING)
    assert len(queries) == 0, [query["sql"] for query in queries.captured_queries]


def test_the_snapshot_is_one_object_shared_by_requests_until_the_catalogue_changes(
    django_capture_on_commit_callbacks,
):
    first = Catalogue.load()
    assert Catalogue.load() is first
    with django_capture_on_commit_callbacks(execute=True):
        Accelerator.objects.get(slug="nvidia-l4").save()
    assert Catalogue.load() is not first


def test_an_uncommitted_change_does_not_start_a_new_version(django_capture_on_commit_callbacks):
    version = catalogue_version()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        Accelerator.objects.get(slug="nvidia-l4").save()
    assert callbacks
    assert cache.get(CATALOGUE_VERSION_KEY) == version


@pytest.mark.parametrize("load", [catalogue_load, api_prices_load])
def test_a_load_starts_one_new_version_however_many_rows_it_changes(
    load, django_capture_on_commit_callbacks
):
    version = catalogue_version()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        report = load(overwrite=True)
    assert report.updated > 50  # every row of the shipped files saved or deleted and written again
    assert callbacks == [_new_catalogue_version]
    assert cache.get(CATALOGUE_VERSION_KEY) != version


def test_a_row_saved_after_a_load_starts_its_own_new_version(django_capture_on_commit_callbacks):
    catalogue_load()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        Accelerator.objects.get(slug="nvidia-l4").save()
    assert callbacks == [_new_catalogue_version]


def test_reloading_the_shipped_catalogue_is_used_by_the_next_estimate(
    api_client, django_capture_on_commit_callbacks
):
    offer = PriceOffer.objects.get(accelerator__slug="nvidia-l4", kind="rent")
    shipped = training_cost(api_client, L4_TRAINING)
    with django_capture_on_commit_callbacks(execute=True):
        PriceOffer.objects.filter(pk=offer.pk).update(price_per_accelerator_hour=Decimal("9"))
        catalogue_load(overwrite=True)
    assert training_cost(api_client, L4_TRAINING) == shipped


def test_a_cache_that_lost_the_version_makes_every_process_rebuild(api_client):
    training_cost(api_client, SEED_000_TRAINING)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        training_cost(api_client, SEED_000_TRAINING)
    # accelerators, their price offers, energy profiles, thresholds, language models,
    # commitment discounts
    assert len(queries) == 6


def test_a_change_no_signal_announces_is_seen_once_the_snapshot_is_old(api_client, monkeypatch):
    training_cost(api_client, L4_TRAINING)
    # A bulk update sends no signal, so the version stays; the snapshot's age bounds the delay.
    PriceOffer.objects.filter(accelerator__slug="nvidia-l4").update(
        price_per_accelerator_hour=Decimal("2")
    )
    assert training_cost(api_client, L4_TRAINING) != "200.00"
    later = snapshot.time.monotonic() + snapshot.SNAPSHOT_MAX_AGE_SECONDS
    monkeypatch.setattr(snapshot.time, "monotonic", lambda: later)
    assert training_cost(api_client, L4_TRAINING) == "200.00"


def test_the_catalogue_for_a_request_holds_only_the_rows_it_names():
    catalogue = Catalogue.for_request(
        {"training": SEED_000_TRAINING, "inference": {"accelerator": "nvidia-l4"}}
    )
    assert set(catalogue.accelerators) == {"nvidia-h100-sxm", "nvidia-l4"}
    assert list(catalogue.energy_profiles) == [snapshot.DEFAULT_ENERGY_PROFILE]
    assert len(Catalogue.load().accelerators) > 2
