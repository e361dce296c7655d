"""How the app is served, in one place: gunicorn managing uvicorn workers over ``scorekeeping.asgi``.

``python -m scorekeeping.server`` runs it (the start command does); the benchmark and the
tests that need a real server build the same command with ``command()``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .tls import Files as tls_files


def command(*, bind: str, workers: int, python: str = sys.executable, tls: tls_files | None = None) -> list[str]:
    secure = ["--certfile", str(tls.cert), "--keyfile", str(tls.key)] if tls else []
    return [
        python,
        "-m",
        "gunicorn",
        "scorekeeping.asgi:application",
        "--worker-class",
        "uvicorn_worker.UvicornWorker",
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
        "--forwarded-allow-ips",
        os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
        *secure,
    ]


def lan_tls(host: str) -> tls_files:
    """The certificate for https on the LAN (``LAN_HTTPS=1``), made or renewed for today's addresses."""
    from .network import certificate_hosts
    from .tls import ensure

    folder = Path(os.environ.get("TLS_DIR", Path(__file__).resolve().parent.parent / ".tls"))
    return ensure(folder, certificate_hosts(host))


def main() -> None:
    host = os.environ.get("HOST", "0.0.0.0")
    port = os.environ.get("PORT", "8000")
    secure = lan_tls(host) if os.environ.get("LAN_HTTPS", "").lower() in ("1", "true", "yes", "on") else None
    argv = command(bind=f"{host}:{port}", workers=int(os.environ.get("WEB_CONCURRENCY", "3")), tls=secure)
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
