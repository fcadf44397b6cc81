"""Structured logs: each request has an id (X-Request-ID), and every log line written while it is
handled is one JSON object carrying that id; one line per request gives its method, path, status.
"""

import io
import json
import logging
import re
import sys

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import include, path

from apps.core.logs import JsonFormatter, RequestIdFilter
from config import urls as project_urls

pytestmark = pytest.mark.django_db
UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")


def _estimate(request: HttpRequest) -> HttpResponse:
    logging.getLogger("apps.estimates").warning("estimating for %s", "a test")
    return HttpResponse("ok")


urlpatterns = [path("logs/", _estimate), path("", include(project_urls.urlpatterns))]


@pytest.fixture
def console() -> io.StringIO:
    """What the configured console handler (settings.LOGGING) writes, for the test's duration."""
    handler = next(
        handler
        for handler in logging.getLogger().handlers
        if isinstance(handler.formatter, JsonFormatter)
    )
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous or sys.stderr)


def lines(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_each_response_gets_a_new_request_id(client):
    first, second = client.get("/"), client.get("/")
    assert UUID4.fullmatch(first["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


def test_a_plain_incoming_request_id_is_kept(client):
    response = client.get("/", headers={"X-Request-ID": "lb-7f3a.01:edge_2"})
    assert response["X-Request-ID"] == "lb-7f3a.01:edge_2"


@pytest.mark.parametrize(
    "incoming", ["x" * 65, "two words", "<script>", "id\tid", "ünïcode", "a;b", ""]
)
def test_an_odd_incoming_request_id_is_replaced(client, incoming):
    response = client.get("/", headers={"X-Request-ID": incoming})
    assert UUID4.fullmatch(response["X-Request-ID"])


def test_the_console_writes_one_json_object_a_line_with_the_request_id(settings, console):
    settings.ROOT_URLCONF = __name__
    response = Client().get("/logs/", headers={"X-Request-ID": "req-42"})
    assert response["X-Request-ID"] == "req-42"
    records = [line for line in lines(console) if line["request_id"] == "req-42"]
    assert [(r["logger"], r["level"], r["message"]) for r in records] == [
        ("apps.estimates", "WARNING", "estimating for a test"),
        ("apps.core.requests", "INFO", "GET /logs/ 200"),
    ]
    request_line = records[-1]
    assert request_line["method"] == "GET"
    assert request_line["path"] == "/logs/"
    assert request_line["status"] == 200
    assert request_line["duration_ms"] >= 0
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", request_line["time"])


def test_a_request_log_line_is_written_for_errors_too(client, console):
    response = client.get("/no/such/page/")
    request_id = response["X-Request-ID"]
    statuses = [
        line["status"]
        for line in lines(console)
        if line["request_id"] == request_id and line["logger"] == "apps.core.requests"
    ]
    assert statuses == [404]


def test_a_record_outside_a_request_has_no_request_id(console):
    logging.getLogger("apps.sweeps").info("a task ran")
    assert lines(console)[-1]["request_id"] is None


def test_an_exception_stays_on_its_one_line():
    record = logging.LogRecord("apps.x", logging.ERROR, __file__, 1, "failed", None, None)
    try:
        raise ValueError("bad value")
    except ValueError:
        record.exc_info = sys.exc_info()
    RequestIdFilter().filter(record)
    line = JsonFormatter().format(record)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["message"] == "failed"
    assert entry["exception"].startswith("Traceback")
    assert entry["exception"].rstrip().endswith("ValueError: bad value")


def test_share_link_tokens_never_reach_the_request_log(client, caplog):
    from apps.core.logs import without_share_tokens

    assert without_share_tokens("GET /s/abcDEF123_-x/2/ 404") == "GET /s/<token>/2/ 404"
    assert without_share_tokens("/scenarios/1/") == "/scenarios/1/"
    with caplog.at_level("INFO"):
        client.get("/s/secret-token-value/")
    assert caplog.records
    assert not any("secret-token-value" in record.getMessage() for record in caplog.records)
    assert not any(
        "secret-token-value" in str(getattr(record, "path", "")) for record in caplog.records
    )


def test_share_pages_do_not_put_the_token_in_the_sign_in_link(client):
    html = client.get("/s/secret-token-value/").content.decode()
    assert "secret-token-value" not in html
