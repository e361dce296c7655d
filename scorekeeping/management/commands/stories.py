"""``manage.py stories --rebuild``: the players' stories made again from the games, and proved
equal to the lines kept as the games finished (``services.history.rebuilt``). Without ``--write``
nothing is changed: the command says whether the kept lines are what the games make, and exits 1
where they are not; with ``--write`` the kept lines are replaced by the ones made."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeping.services.history import rebuilt


class Command(BaseCommand):
    help = "Make the kept story lines again from the games and prove them equal (--write replaces them)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--rebuild", action="store_true", help="fold every finished game again (the default)")
        parser.add_argument("--write", action="store_true", help="replace the kept lines with the ones made")

    def handle(self, *args: Any, **options: Any) -> None:
        found = rebuilt(write=options["write"])
        self.stdout.write(f"{found.games} finished games, {found.lines} lines made from the games.")
        if not found.differences:
            self.stdout.write("The kept lines are equal to them.")
            return
        for said in found.differences:
            self.stdout.write(f"Differs: {said}")
        if options["write"]:
            self.stdout.write("The kept lines were replaced by the ones made.")
            return
        raise CommandError("the kept lines differ from the games: run with --write to replace them")
