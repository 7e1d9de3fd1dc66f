"""Which addresses this machine has on the network, for a teacher serving a classroom.

A page served on a loopback address (``127.0.0.1``, ``localhost``, ``::1``) opens on this
computer only: the phones of a class need the machine's address on the room's network. Nothing
here sends a packet: a UDP socket "connected" to an address only asks the kernel which of this
machine's addresses it would use.
"""
from __future__ import annotations

import ipaddress
import socket

# Documentation addresses (RFC 5737, RFC 3849): never reached, only used to ask for a route.
_PROBES = [(socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")]


def is_loopback(host: str) -> bool:
    """True for a host name or address that only this machine can reach (port allowed)."""
    host = host.strip().lower()
    if host.startswith("["):                       # [::1]:8000
        host = host[1:].split("]", 1)[0]
    elif host.count(":") == 1:                     # 127.0.0.1:8000, localhost:8000
        host = host.split(":", 1)[0]
    if host in ("localhost", "localhost.localdomain") or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    """True for a bind address that listens on every interface (``0.0.0.0``, ``::``)."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def lan_addresses() -> list[str]:
    """This machine's addresses that other machines of the local network may reach: IPv4
    first, loopback and link-local left out; empty when the machine has no network."""
    found: list[str] = []
    for family, probe in _PROBES:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                found.append(s.getsockname()[0])
        except OSError:
            continue
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.append(info[4][0])
    except OSError:
        pass
    usable = []
    for text in found:
        try:
            ip = ipaddress.ip_address(text.split("%", 1)[0])
        except ValueError:
            continue
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified or str(ip) in usable:
            continue
        usable.append(str(ip))
    return sorted(usable, key=lambda a: (":" in a, a))


def url_for_address(address: str, port: int | str, path: str = "/") -> str:
    """``http://address:port/path``, with an IPv6 address in brackets."""
    host = f"[{address}]" if ":" in address else address
    return f"http://{host}:{port}{path}"
