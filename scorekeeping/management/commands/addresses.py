from __future__ import annotations

import io
import textwrap
from typing import Any

import segno
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from scorekeeping.serve.network import addresses
from scorekeeping.serve.server import lan_tls
from scorekeeping.serve.tls import fingerprint

PLAIN_HTTP_ADVICE = (
    "These addresses are plain http, so a phone cannot install the app there or keep a game for use without a"
    " network (the screen stays awake all the same). For that, start with LAN_HTTPS=1 (LAN_HTTPS=1 bash"
    " .ci/start): the phones open the same addresses with https:// and trust this server once, on its Trust"
    " this server page (see HTTPS at the table in docs/settings.md)."
)
LOOPBACK_ADVICE = (
    "Phones cannot reach this server: it listens on a loopback address, which only this machine can open"
    " (a phone given this address would look for the server on itself). For the phones on the same"
    " network, start it on every address instead: HOST=0.0.0.0 bash .ci/start."
)
NO_NETWORK_ADVICE = (
    "No phone can reach it yet: this machine has no address on a local network. Once it joins one"
    " (Wi-Fi), the phones open {scheme}://<that address>:{port}/; .venv/bin/python manage.py addresses prints it."
)


class Command(BaseCommand):
    help = (
        "Print what the server listens on (HOST and PORT as for the server) and the addresses a phone"
        " on the same network can open, if any."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=settings.HOST)
        parser.add_argument("--port", type=int, default=settings.PORT)
        parser.add_argument("--no-qr", action="store_true", help="only the addresses, no QR code")

    def handle(self, *args: Any, host: str, port: int, **options: Any) -> None:
        scheme = "https" if settings.LAN_HTTPS else "http"
        found = addresses(host, port, scheme)
        self.stdout.write(f"Listening on {found.listening}.")
        self.stdout.write(f"Open the table on this machine: {found.here}")
        if settings.PUBLIC_URL:
            # A hosted server (a proxy in front, often on loopback): the phones come through it.
            self.stdout.write(
                f"Phones open the public address, which share links and QR codes name: {settings.PUBLIC_URL}"
            )
            return
        if found.loopback_only:
            self.stdout.write(textwrap.fill(LOOPBACK_ADVICE, width=100))
            return
        if not found.phones:
            self.stdout.write(textwrap.fill(NO_NETWORK_ADVICE.format(scheme=scheme, port=port), width=100))
            return
        self.stdout.write("Open the table on a phone on the same network:")
        for url in found.phones:
            self.stdout.write(f"  {url}")
        if not options.get("no_qr"):
            self.stdout.write("Or scan this with the phone's camera:")
            buffer = io.StringIO()
            segno.make(found.phones[0], micro=False).terminal(out=buffer, compact=True, border=2)
            self.stdout.write(buffer.getvalue())
        if settings.LAN_HTTPS:
            self.stdout.write(
                f"Each phone trusts this server once: open {found.phones[0]}trust/, accept the warning, and"
                " install the certificate authority only if its SHA-256 fingerprint is this one (see docs/settings.md):"
            )
            self.stdout.write(f"  {fingerprint(lan_tls(host, settings.TLS_DIR).ca)}")
        else:
            # Said here, to whoever starts the server, rather than on every phone's table page.
            self.stdout.write(textwrap.fill(PLAIN_HTTP_ADVICE, width=100))
