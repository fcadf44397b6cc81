"""docker-compose.yml's shape: only the reverse proxy is published, and the app believes
X-Forwarded-For from the proxy's address alone (.env.example says the same)."""

import ipaddress
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]


def trusted_networks(value: str) -> list[ipaddress.IPv4Network]:
    return [ipaddress.ip_network(network.strip()) for network in value.split(",")]


def default_of(interpolation: str) -> str:
    """The default of a compose value such as ${TRUSTED_PROXIES:-172.30.0.2/32}."""
    return re.fullmatch(r"\$\{TRUSTED_PROXIES:-(.+)\}", interpolation)[1]


def test_only_the_proxy_is_published_on_the_host():
    published = {name for name, service in SERVICES.items() if service.get("ports")}
    assert published == {"proxy"}
    assert sorted(SERVICES["proxy"]["ports"]) == ["443:443", "80:80"]


def test_the_app_trusts_forwarded_addresses_from_the_proxy_only():
    proxy_address = ipaddress.ip_address(SERVICES["proxy"]["networks"]["edge"]["ipv4_address"])
    edge = ipaddress.ip_network(COMPOSE["networks"]["edge"]["ipam"]["config"][0]["subnet"])
    assert proxy_address in edge
    for service in ("web", "worker"):
        networks = trusted_networks(default_of(SERVICES[service]["environment"]["TRUSTED_PROXIES"]))
        assert networks == [ipaddress.ip_network(f"{proxy_address}/32")]
    example = dict(
        line.split("=", 1)
        for line in (ROOT / ".env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert trusted_networks(example["TRUSTED_PROXIES"]) == [
        ipaddress.ip_network(f"{proxy_address}/32")
    ]


def test_the_proxy_runs_the_repositorys_configuration_and_replaces_forwarded_for():
    mounted = {volume.split(":")[0] for volume in SERVICES["proxy"]["volumes"]}
    assert "./deploy/nginx/default.conf.template" in mounted
    template = (ROOT / "deploy" / "nginx" / "default.conf.template").read_text()
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in template
    assert "proxy_set_header X-Forwarded-Proto https;" in template
