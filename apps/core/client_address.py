"""The client's address: the peer's, or, from the proxies the deployment trusts, X-Forwarded-For's.

Every limit per client counts by this one function: sign-in limits, share-token limits and the
API's throttles. X-Forwarded-For is believed only as far as the proxies in TRUSTED_PROXIES
(networks, e.g. the reverse proxy's address in docker-compose.yml) wrote it: reading it from the
right, each hop that is a trusted proxy passes the request on from the address before it, and the
first that is not is the client. A client that connects directly, or a proxy's own client, cannot
choose its address by sending the header: whatever it wrote is left of its own address.
"""

import ipaddress
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


@lru_cache(maxsize=8)
def trusted_networks(networks: tuple[str, ...]) -> tuple[IPNetwork, ...]:
    """TRUSTED_PROXIES as networks (settings.py has already refused a malformed one)."""
    return tuple(ipaddress.ip_network(network, strict=False) for network in networks)


def _address(text: str) -> IPAddress | None:
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    # An IPv4 client of a dual-stack socket arrives as ::ffff:a.b.c.d.
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def client_address(request: HttpRequest) -> str:
    """The address to count the request's client by; "" when the server gave none (REMOTE_ADDR is
    optional in WSGI), which then counts as one client."""
    return _client_address(
        request.META.get("REMOTE_ADDR") or "",
        request.META.get("HTTP_X_FORWARDED_FOR", ""),
        tuple(settings.TRUSTED_PROXIES),
    )


# Parsing the addresses took about a quarter of the API's rate limiting, on every request; the
# same few clients (and proxies) come back again and again.
@lru_cache(maxsize=4096)
def _client_address(remote_addr: str, forwarded_for: str, trusted: tuple[str, ...]) -> str:
    peer = _address(remote_addr)
    if peer is None:
        return ""
    networks = trusted_networks(trusted)
    client = peer
    forwarded = forwarded_for.split(",")
    while any(client in network for network in networks) and forwarded:
        hop = _address(forwarded.pop())
        if hop is None:  # not an address: the trusted proxy's own peer is all that is known
            break
        client = hop
    return str(client)
