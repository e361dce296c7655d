from __future__ import annotations

import io
import textwrap
from typing import Any

import segno
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from scorekeeping.serve.network import urls
from scorekeeping.serve.server import lan_tls
from scorekeeping.serve.tls import fingerprint

PLAIN_HTTP_ADVICE = (
    "These addresses are plain http, so a phone cannot install the app there or keep a game for use without a"
    " network (the screen stays awake all the same). For that, start with LAN_HTTPS=1 (LAN_HTTPS=1 bash"
    " .ci/start): the phones open the same addresses with https:// and trust this server once, on its Trust"
    " this server page (see HTTPS at the table in the README)."
)


class Command(BaseCommand):
    help = "Print the addresses a phone on the same network can open (HOST and PORT as for the server)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--host", default=settings.HOST)
        parser.add_argument("--port", type=int, default=settings.PORT)
        parser.add_argument("--no-qr", action="store_true", help="only the addresses, no QR code")

    def handle(self, *args: Any, host: str, port: int, **options: Any) -> None:
        found = urls(host, port, "https" if settings.LAN_HTTPS else "http")
        self.stdout.write("Open the table on a phone on the same network:")
        for url in found:
            self.stdout.write(f"  {url}")
        if not options.get("no_qr"):
            self.stdout.write("Or scan this with the phone's camera:")
            buffer = io.StringIO()
            segno.make(found[0], micro=False).terminal(out=buffer, compact=True, border=2)
            self.stdout.write(buffer.getvalue())
        if settings.LAN_HTTPS:
            self.stdout.write(
                f"Each phone trusts this server once: open {found[0]}trust/, accept the warning, and install"
                " the certificate authority only if its SHA-256 fingerprint is this one (see the README):"
            )
            self.stdout.write(f"  {fingerprint(lan_tls(host, settings.TLS_DIR).ca)}")
        else:
            # Said here, to whoever starts the server, rather than on every phone's table page.
            self.stdout.write(textwrap.fill(PLAIN_HTTP_ADVICE, width=100))
