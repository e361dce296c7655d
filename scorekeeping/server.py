"""How the app is served, in one place: gunicorn managing uvicorn workers over ``scorekeeping.asgi``.

``python -m scorekeeping.server`` runs it (the start command does); the benchmark and the
tests that need a real server build the same command with ``command()``.
"""

from __future__ import annotations

import os
import sys


def command(*, bind: str, workers: int, python: str = sys.executable) -> list[str]:
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
    ]


def main() -> None:
    host = os.environ.get("HOST", "0.0.0.0")
    port = os.environ.get("PORT", "8000")
    argv = command(bind=f"{host}:{port}", workers=int(os.environ.get("WEB_CONCURRENCY", "3")))
    os.execv(argv[0], argv)


if __name__ == "__main__":
    main()
