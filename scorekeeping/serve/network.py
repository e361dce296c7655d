"""The addresses the server listens on, and those a phone on the same network can open.

A server bound to every address (``HOST=0.0.0.0``, the start command's default) answers on this
machine's LAN addresses: phones open those. One bound to a loopback address (``127.0.0.1``,
``localhost``) answers this machine alone: no phone can open it, whatever address it is given.
One bound to a single address answers on that one.
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import subprocess
from dataclasses import dataclass


def lan_addresses() -> list[str]:
    """This machine's non-loopback IPv4 addresses, best guess first; none found gives []."""
    found: list[str] = []
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2, check=False).stdout
        found += out.split()
    except (OSError, subprocess.SubprocessError):
        pass
    with contextlib.suppress(OSError):
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    result: list[str] = []
    for raw in found:
        try:
            ip = ipaddress.ip_address(raw)
        except ValueError:
            continue
        if ip.version == 4 and not ip.is_loopback and not ip.is_link_local and raw not in result:
            result.append(raw)
    return sorted(result, key=lambda a: not ipaddress.ip_address(a).is_private)


WILDCARDS = ("0.0.0.0", "::", "")


def binds_everywhere(host: str) -> bool:
    """Whether a server bound to ``host`` answers on every address of this machine."""
    return host in WILDCARDS


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or a name, as HOST is given) names this machine alone."""
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def url(scheme: str, host: str, port: int) -> str:
    """``scheme://host:port/``, an IPv6 address in brackets."""
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"{scheme}://{shown}:{port}/"


@dataclass(frozen=True)
class Addresses:
    """Where a server bound to ``host:port`` answers: ``here``, the URL for this machine's own
    browser; ``phones``, the URLs a phone on the same network can open (none when it listens on
    loopback only, or when this machine has no network address yet)."""

    host: str
    port: int
    here: str
    phones: list[str]

    @property
    def loopback_only(self) -> bool:
        return is_loopback(self.host)

    @property
    def listening(self) -> str:
        """What it listens on, in words."""
        where = "every address of this machine" if binds_everywhere(self.host) else "this one address"
        if self.loopback_only:
            where = "this machine only"
        shown = f"[{self.host}]" if ":" in self.host else (self.host or "0.0.0.0")
        return f"{shown}:{self.port} ({where})"


def addresses(host: str, port: int, scheme: str = "http") -> Addresses:
    """Where a server bound to ``host:port`` answers, for this machine and for phones."""
    if binds_everywhere(host):
        return Addresses(host, port, url(scheme, "127.0.0.1", port), [url(scheme, a, port) for a in lan_addresses()])
    if is_loopback(host):
        return Addresses(host, port, url(scheme, host, port), [])
    return Addresses(host, port, url(scheme, host, port), [url(scheme, host, port)])


def certificate_hosts(host: str) -> list[str]:
    """What a LAN certificate names: the addresses phones are given, this machine's name, localhost."""
    name = socket.gethostname()
    every = [*lan_addresses(), name, f"{name}.local", "localhost", "127.0.0.1"]
    return list(dict.fromkeys(every if binds_everywhere(host) else [host, *every]))
