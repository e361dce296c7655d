"""The addresses a phone on the same network can open."""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import subprocess


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


def urls(host: str, port: int, scheme: str = "http") -> list[str]:
    """The URLs to print for a server bound to host:port."""
    hosts = [*lan_addresses(), "127.0.0.1"] if host in ("0.0.0.0", "::", "") else [host]
    return [f"{scheme}://{h}:{port}/" for h in hosts]


def certificate_hosts(host: str) -> list[str]:
    """What a LAN certificate names: the addresses phones are given, this machine's name, localhost."""
    name = socket.gethostname()
    every = [*lan_addresses(), name, f"{name}.local", "localhost", "127.0.0.1"]
    return list(dict.fromkeys([host, *every] if host not in ("0.0.0.0", "::", "") else every))
