"""The API's rate limit: one check per request, the anonymous or the user rate by who is calling."""

import json
import time
from array import array

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from tests.factories import SEED_000_TRAINING

pytestmark = pytest.mark.django_db
BODY = json.dumps({"training": SEED_000_TRAINING})


@pytest.fixture(autouse=True)
def rates(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/minute", "user": "5/minute"},
    }


def statuses(client, count: int) -> list[int]:
    return [
        client.post("/api/v1/estimate/", BODY, content_type="application/json").status_code
        for _ in range(count)
    ]


def test_anonymous_callers_get_the_anonymous_rate_counted_once_per_request(api_client):
    assert statuses(api_client, 4) == [200, 200, 200, 429]
    history = cache.get("throttle_anon_127.0.0.1")
    assert isinstance(history, array) and len(history) == 3
    assert cache.get("throttle_user_127.0.0.1") is None


def test_signed_in_callers_get_the_user_rate_instead(api_client):
    user = get_user_model().objects.create_user("caller", password="a-long-test-password")
    api_client.force_authenticate(user)
    assert statuses(api_client, 6) == [200] * 5 + [429]
    assert len(cache.get(f"throttle_user_{user.pk}")) == 5
    assert cache.get("throttle_anon_127.0.0.1") is None


def test_a_refusal_says_when_to_retry(api_client):
    statuses(api_client, 3)
    refused = api_client.post("/api/v1/estimate/", BODY, content_type="application/json")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60


def test_a_history_kept_as_a_list_by_drfs_own_classes_still_counts(api_client):
    now = time.time()
    cache.set("throttle_anon_127.0.0.1", [now - 1, now - 2], 60)
    assert statuses(api_client, 2) == [200, 429]
    assert isinstance(cache.get("throttle_anon_127.0.0.1"), array)
