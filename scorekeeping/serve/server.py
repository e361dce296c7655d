"""How the app is served, in one place: gunicorn managing uvicorn workers over ``scorekeeping.config.asgi``.

``python -m scorekeeping.serve.server`` runs it (the start command does); the benchmark and the
tests that need a real server build the same command with ``command()``.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from scorekeeping.capacity import BACKLOG

if TYPE_CHECKING:
    from scorekeeping.serve.tls import Files as tls_files


def command(*, bind: str, workers: int, python: str = sys.executable) -> list[str]:
    """The server's command line. With ``LAN_HTTPS`` the worker speaks TLS itself (``oneport``),
    so that plain http to the same port is redirected rather than dropped by gunicorn's TLS."""
    from django.conf import settings  # FORWARDED_ALLOW_IPS, read as the app reads it

    return [
        python,
        "-m",
        "gunicorn",
        "scorekeeping.config.asgi:application",
        "--worker-class",
        "scorekeeping.serve.worker.Worker",
        "--bind",
        bind,
        "--workers",
        str(workers),
        "--timeout",
        "30",
        "--graceful-timeout",
        "10",
        "--keep-alive",
        "5",
        "--backlog",
        str(BACKLOG),
        "--forwarded-allow-ips",
        settings.FORWARDED_ALLOW_IPS,
    ]


def free_port() -> int:
    """A loopback port nobody listens on, for a server the benchmarks or the tests start."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_listening(port: int, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    """Return once the server started with ``command()`` accepts connections; raise if it died or took too long."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"the server on port {port} did not start") from None
            time.sleep(0.2)


def lan_tls(host: str, folder: Path) -> tls_files:
    """The certificate for https on the LAN (``LAN_HTTPS=1``), made or renewed for today's addresses."""
    from scorekeeping.serve.network import certificate_hosts
    from scorekeeping.serve.tls import ensure

    return ensure(folder, certificate_hosts(host))


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeping.config.settings")
    from django.conf import settings  # HOST, PORT, WEB_CONCURRENCY, LAN_HTTPS, TLS_DIR: as the app reads them

    host, port = settings.HOST, settings.PORT
    if settings.LAN_HTTPS:
        lan_tls(host, settings.TLS_DIR)  # made or renewed before the workers load it
    argv = command(bind=f"{host}:{port}", workers=settings.WEB_CONCURRENCY)
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
