"""The deployment's reverse proxy: deploy/nginx/default.conf.template, as docker-compose.yml runs
it, with Debian's nginx in front of gunicorn (the embedded setup on a SQLite file), TRUSTED_PROXIES
naming nginx's address. Each client connects from a loopback address of its own (127.0.0.2, …),
so that the app sees real, distinct client addresses, through the proxy or directly.
"""

import http.client
import json
import os
import pwd
import secrets
import shutil
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from string import Template

import pytest
from django.conf import settings

from apps.sharing.views import UNKNOWN_TOKEN_BUDGET
from tests.servers import Server, demo_credentials, embedded_env, embedded_setup, free_port

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
ANON_RATE = 3  # a minute, so that a few requests spend a client's budget
TEMPLATE = settings.BASE_DIR / "deploy" / "nginx" / "default.conf.template"


def nginx_conf(directory: Path, site: str) -> str:
    """nginx's main configuration around the site's, for a non-root run within `directory`."""
    return f"""
daemon off;
user {pwd.getpwuid(os.geteuid()).pw_name};
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/error.log info;
events {{ worker_connections 64; }}
http {{
    access_log {directory}/access.log;
    client_body_temp_path {directory}/client_body;
    proxy_temp_path {directory}/proxy;
    fastcgi_temp_path {directory}/fastcgi;
    uwsgi_temp_path {directory}/uwsgi;
    scgi_temp_path {directory}/scgi;
    include {site};
}}
"""


def self_signed_certificate(directory: Path) -> None:
    key, certificate = directory / "privkey.pem", directory / "fullchain.pem"
    command = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    command += ["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
    command += ["-keyout", str(key), "-out", str(certificate)]
    subprocess.run(command, check=True, capture_output=True)


def start_nginx(directory: Path, upstream_port: int) -> tuple[Server, int]:
    """nginx with the deployment's site configuration; its HTTPS server, and its HTTP port."""
    self_signed_certificate(directory)
    https_port, http_port = free_port(), free_port()
    site = Template(TEMPLATE.read_text()).safe_substitute(
        PLANNER_UPSTREAM=f"127.0.0.1:{upstream_port}",
        PLANNER_HTTP_LISTEN=f"127.0.0.1:{http_port}",
        PLANNER_HTTPS_LISTEN=f"127.0.0.1:{https_port}",
        PLANNER_TLS_DIR=str(directory),
    )
    (directory / "site.conf").write_text(site)
    (directory / "nginx.conf").write_text(nginx_conf(directory, str(directory / "site.conf")))
    command = [NGINX, "-p", str(directory), "-c", str(directory / "nginx.conf")]
    command += ["-e", str(directory / "error.log")]
    return Server(command, {}, directory / "nginx.log", port=https_port), http_port


@dataclass
class Deployment:
    web: Server
    proxy: Server
    proxy_http_port: int
    tls: ssl.SSLContext
    username: str
    password: str


@pytest.fixture(scope="module")
def deployment(tmp_path_factory) -> Iterator[Deployment]:
    if not Path(NGINX).exists():
        pytest.skip("needs nginx (Debian's package; .ci/run installs it)")
    directory = tmp_path_factory.mktemp("proxy")
    env = embedded_env(
        directory, TRUSTED_PROXIES="127.0.0.1/32", API_ANON_RATE=f"{ANON_RATE}/minute"
    )
    embedded_setup(directory, env)
    # One worker: without Redis each process counts in its own memory.
    gunicorn = [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", "127.0.0.1:{port}"]
    web = Server([*gunicorn, "--workers", "1"], env, directory / "web.log")
    proxy, http_port = start_nginx(directory, web.port)
    tls = ssl.create_default_context(cafile=directory / "fullchain.pem")
    yield Deployment(web, proxy, http_port, tls, *demo_credentials(directory))
    proxy.stop()
    web.stop()


def request(
    connection: http.client.HTTPConnection, method: str, path: str, body=None, **headers: str
) -> http.client.HTTPResponse:
    if body is not None:
        body, headers["Content-Type"] = json.dumps(body), "application/json"
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response


def through_proxy(deployment: Deployment, client_address: str) -> http.client.HTTPSConnection:
    return http.client.HTTPSConnection(
        "127.0.0.1",
        deployment.proxy.port,
        context=deployment.tls,
        source_address=(client_address, 0),
        timeout=60,
    )


def directly(deployment: Deployment, client_address: str) -> http.client.HTTPConnection:
    return http.client.HTTPConnection(
        "127.0.0.1", deployment.web.port, source_address=(client_address, 0), timeout=60
    )


def test_behind_the_proxy_each_client_has_its_own_api_rate_whatever_it_forwards(deployment):
    first, second = "127.0.0.2", "127.0.0.3"
    statuses = [
        request(
            through_proxy(deployment, first),
            "GET",
            "/api/v1/accelerators/",
            **{"X-Forwarded-For": f"192.0.2.{attempt}"},  # ignored: nginx replaces the header
        ).status
        for attempt in range(ANON_RATE + 1)
    ]
    assert statuses == [200] * ANON_RATE + [429]
    assert request(through_proxy(deployment, second), "GET", "/api/v1/accelerators/").status == 200


def test_behind_the_proxy_failed_sign_ins_lock_only_the_client_that_failed(deployment):
    guesser, owner = "127.0.0.4", "127.0.0.5"
    # The sign-in budgets count in fixed windows (apps.core.ratelimit), on the server's clock,
    # which is this one: six attempts must not straddle a window's edge.
    seconds_to_next_window = -time.time() % settings.LOGIN_FAILURE_WINDOW_SECONDS
    if seconds_to_next_window < 30:
        time.sleep(seconds_to_next_window)

    def token(client_address: str, password: str) -> int:
        body = {"username": deployment.username, "password": password}
        connection = through_proxy(deployment, client_address)
        return request(connection, "POST", "/api/v1/auth/token/", body).status

    assert [token(guesser, "wrong") for _ in range(5)] == [400] * 5
    assert token(guesser, deployment.password) == 429
    assert token(owner, deployment.password) == 201


def test_behind_the_proxy_guessing_share_links_blocks_only_the_guesser(deployment):
    guesser, board = "127.0.0.7", "127.0.0.8"

    def shared_page(client_address: str) -> int:
        link = f"/s/{secrets.token_urlsafe(32)}/"
        return request(through_proxy(deployment, client_address), "GET", link).status

    guesses = [shared_page(guesser) for _ in range(UNKNOWN_TOKEN_BUDGET.requests + 1)]
    assert guesses == [404] * UNKNOWN_TOKEN_BUDGET.requests + [429]
    assert shared_page(board) == 404  # not refused: its own budget


def test_a_client_connecting_directly_cannot_choose_its_address(deployment):
    statuses = [
        request(
            directly(deployment, "127.0.0.6"),
            "GET",
            "/api/v1/accelerators/",
            **{"X-Forwarded-For": f"192.0.2.{attempt}"},  # not from the proxy: not believed
        ).status
        for attempt in range(ANON_RATE + 1)
    ]
    assert statuses == [200] * ANON_RATE + [429]


def test_the_proxy_sends_plain_http_to_https(deployment):
    connection = http.client.HTTPConnection("127.0.0.1", deployment.proxy_http_port, timeout=60)
    response = request(connection, "GET", "/projects/", Host="planner.example.org")
    assert response.status == 301
    assert response.headers["Location"] == "https://planner.example.org/projects/"
