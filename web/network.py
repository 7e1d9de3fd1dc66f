"""This computer's addresses on the classroom network, for class mode served on a laptop.

A teacher who runs ``scripts/serve`` opens ``http://127.0.0.1:8000``: a link built from that
page's address points students' phones at themselves. ``is_loopback`` says when a page's host
is such an address; ``network_addresses`` finds the machine's own address on its network with
the standard library and no network traffic: the UDP "connect" trick (connecting a UDP socket
sends nothing; the system only picks the interface it would route through, the classroom's
Wi-Fi on a laptop). No name look-up either: a machine's name may not resolve without a DNS
server, and waiting for one would hold the teacher's page. Loopback and link-local addresses
are left out.
"""
from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

# How to serve the app to the classroom's network (scripts/serve reads BIND), as the class bar
# and the manual say it.
SERVE_ON_NETWORK = "scripts/serve --lan"
# Documentation-only addresses (RFC 5737, RFC 3849): a route to them picks the interface of
# the default route; nothing is ever sent to them.
_PROBES = ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1"))


def host_name(host: str) -> str:
    """The name or address of ``host`` as a ``Host`` header gives it (``127.0.0.1:8000``,
    ``[::1]:8000``, ``localhost``), without its port."""
    try:
        return (urlsplit("//" + host).hostname or "").lower()
    except ValueError:          # a malformed port or bracket: not an address we can use
        return ""


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a ``Host`` header) is this computer itself: 127.x, ::1, localhost."""
    name = host_name(host)
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.split("%")[0])
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def _routed() -> list[str]:
    found = []
    for family, probe in _PROBES:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))          # UDP: no packet leaves; the route is chosen
                found.append(s.getsockname()[0])
        except OSError:                        # no such network (no IPv6, no route at all)
            continue
    return found


def network_addresses() -> list[str]:
    """This computer's address that other machines on its network can reach: IPv4 (what
    ``BIND=0.0.0.0:8000`` serves), else IPv6; [] on a machine with no network."""
    found = [a.split("%")[0] for a in _routed()]
    usable = [a for a in found if _usable(a)]
    ipv4 = [a for a in usable if ipaddress.ip_address(a).version == 4]
    return ipv4 or usable


def url_host(address: str, port: int | None) -> str:
    """``address`` (and ``port``) as the host part of a link: IPv6 in brackets."""
    host = f"[{address}]" if ":" in address else address
    return f"{host}:{port}" if port else host


def is_wildcard(address: str) -> bool:
    """Whether a bind address listens on every interface (``0.0.0.0``, ``::``)."""
    try:
        return ipaddress.ip_address(address.strip("[]")).is_unspecified
    except ValueError:
        return False
