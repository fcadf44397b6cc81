"""The client's address that every limit counts by: X-Forwarded-For only from trusted proxies."""

import pytest
from django.test import RequestFactory

from apps.core.client_address import client_address

PROXY = "172.30.0.2"


@pytest.fixture(autouse=True)
def trusted_proxy(settings):
    settings.TRUSTED_PROXIES = [f"{PROXY}/32", "10.0.0.0/8", "fd00::/8"]


def address_of(remote_addr: str | None, forwarded_for: str | None = None) -> str:
    request = RequestFactory().get("/")
    request.META["REMOTE_ADDR"] = remote_addr
    if forwarded_for is not None:
        request.META["HTTP_X_FORWARDED_FOR"] = forwarded_for
    return client_address(request)


def test_a_direct_client_is_its_own_address_whatever_it_forwards():
    assert address_of("198.51.100.7", "192.0.2.1") == "198.51.100.7"


def test_behind_a_trusted_proxy_the_client_is_the_address_it_forwarded():
    assert address_of(PROXY, "198.51.100.7") == "198.51.100.7"


def test_what_a_client_wrote_before_the_proxy_appended_its_address_is_not_believed():
    assert address_of(PROXY, "192.0.2.1, 198.51.100.7") == "198.51.100.7"


def test_a_chain_of_trusted_proxies_is_followed_to_the_first_untrusted_hop():
    assert address_of(PROXY, "192.0.2.1, 198.51.100.7, 10.1.2.3") == "198.51.100.7"
    assert address_of("fd00::1", "2001:db8::5") == "2001:db8::5"


def test_a_trusted_proxy_without_the_header_or_with_garbage_in_it_is_the_client():
    assert address_of(PROXY) == PROXY
    assert address_of(PROXY, "") == PROXY
    assert address_of(PROXY, "unknown") == PROXY
    assert address_of(PROXY, "not-an-address, 10.0.0.9") == "10.0.0.9"


def test_an_ipv4_client_of_a_dual_stack_socket_is_its_ipv4_address():
    assert address_of("::ffff:198.51.100.7") == "198.51.100.7"


def test_without_trusted_proxies_the_header_is_never_read(settings):
    settings.TRUSTED_PROXIES = []
    assert address_of("127.0.0.1", "198.51.100.7") == "127.0.0.1"


def test_without_a_peer_address_every_such_client_is_one():
    assert address_of(None, "198.51.100.7") == ""
    assert address_of("", "198.51.100.7") == ""
