"""What a change costs one process, for the live bench: the table page and the fragment fetched
after an event, for an 8-player Shanghai game with 9 deals (server time, queries, writes)."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeping.bench.stats import ms_of
from scorekeeping.models import Game
from scorekeeping.services import RoundEntry, game_create, round_record

SHANGHAI_HANDS = ["5C KD", "JK 2H", "7S", "AC AD", "9H 10H", "QS", "4D"]


def shanghai_game(deals: int = 9) -> tuple[Game, str]:
    names = [f"P{i}" for i in range(1, 9)]
    game, token = game_create(ruleset="shanghai", variants=["more-players"], players=names, first_dealer=names[0])
    for number in range(1, deals + 1):
        hands = {name: SHANGHAI_HANDS[i % len(SHANGHAI_HANDS)] for i, name in enumerate(names[1:])}
        entry = RoundEntry(winner=names[0], hands=hands)
        round_record(game=Game.objects.get(pk=game.pk), number=number, entry=entry)
    return Game.objects.get(pk=game.pk), token


# The phone that taps Record: its answer, including what it renders ahead for the other phones.
RECORD = "the phone that records: Record deal 9 to its answer"


@dataclass
class PageCost:
    name: str
    median_ms: float
    queries: int
    writes: int


@dataclass
class Table:
    """An 8-player Shanghai game after 8 deals, open on three phones: one that records, one more
    that may record, one that follows; each has loaded the table once."""

    game: Game
    recorder: Client
    second: Client
    follower: Client

    @classmethod
    def open(cls) -> Table:
        game, token = shanghai_game(deals=8)
        table = cls(game, Client(), Client(), Client())
        for client in (table.recorder, table.second):
            client.get(f"/g/{game.pk}/join/{token}/")
        for client in (table.recorder, table.second, table.follower):
            client.get(f"/g/{game.pk}/")
        return table

    def record_deal_nine(self) -> None:
        """The phone that records taps Record for deal 9 (htmx, as the page does)."""
        data = {"number": "9", "version": str(self.game.version), "winner": "0", "op": "record"}
        data |= {f"hand-{seat}": SHANGHAI_HANDS[(seat - 1) % len(SHANGHAI_HANDS)] for seat in range(1, 8)}
        response = self.recorder.post(f"/g/{self.game.pk}/rounds/", data, headers={"hx-request": "true"})
        assert response.status_code == 200, response.status_code
        self.game.refresh_from_db()


def page_costs(repeat: int = 40) -> list[PageCost]:
    """Server time of the table page and of the fragment fetched after an event (8x9 Shanghai),
    for the first phone after a change recorded on a phone, for the phones after it, and cold."""
    steady = Table.open()
    steady.record_deal_nine()
    pk, version = steady.game.pk, steady.game.version
    table, live = f"/g/{pk}/", f"/g/{pk}/live/"
    stale = {"if-none-match": f'"v{version - 1}"'}
    fresh_form = {**stale, "x-entry-pristine": "1"}
    unchanged = {"if-none-match": f'"v{version}"'}

    def after_change(call: Callable[[Table], Any]) -> Callable[[], Callable[[], Any]]:
        """A new table each time, deal 9 recorded on its recording phone, then the timed call."""

        def setup() -> Callable[[], Any]:
            fresh = Table.open()
            fresh.record_deal_nine()
            return lambda: call(fresh)

        return setup

    def cold(call: Callable[[], Any]) -> Callable[[], Callable[[], Any]]:
        def setup() -> Callable[[], Any]:
            cache.clear()
            return call

        return setup

    def steady_call(call: Callable[[], Any]) -> Callable[[], Callable[[], Any]]:
        return lambda: call

    def record_setup() -> Callable[[], Any]:
        return Table.open().record_deal_nine

    first = "after a change recorded on a phone, "
    cases: list[tuple[str, Callable[[], Callable[[], Any]]]] = [
        (RECORD, record_setup),
        (
            first + "table page, the first phone that follows",
            after_change(lambda t: t.follower.get(f"/g/{t.game.pk}/")),
        ),
        ("table page, the other phones that follow", steady_call(lambda: steady.follower.get(table))),
        ("table page, a phone that records", steady_call(lambda: steady.second.get(table))),
        (
            first + "fragment after an event, the first phone that follows",
            after_change(lambda t: t.follower.get(f"/g/{t.game.pk}/live/", headers=stale)),
        ),
        (
            "fragment after an event, the other phones that follow",
            steady_call(lambda: steady.follower.get(live, headers=stale)),
        ),
        (
            first + "fragment after an event, the first other phone that records",
            after_change(lambda t: t.second.get(f"/g/{t.game.pk}/live/", headers=fresh_form)),
        ),
        (
            "fragment after an event, the other phones that record",
            steady_call(lambda: steady.second.get(live, headers=fresh_form)),
        ),
        ("cold: table page, a phone that follows", cold(lambda: steady.follower.get(table))),
        ("cold: fragment after an event, a phone that follows", cold(lambda: steady.follower.get(live, headers=stale))),
        (
            "cold: fragment after an event, a phone that records",
            cold(lambda: steady.second.get(live, headers=fresh_form)),
        ),
        ("nothing changed (304)", steady_call(lambda: steady.follower.get(live, headers=unchanged))),
    ]
    results = []
    for name, setup in cases:
        times = []
        for i in range(repeat + 3):
            ms, _given = ms_of(setup())
            if i >= 3:  # the first few warm up the process
                times.append(ms)
        call = setup()
        with CaptureQueriesContext(connection) as queries:
            call()
        writes = sum(1 for q in queries.captured_queries if q["sql"].lstrip().split(" ", 1)[0].upper() in _WRITES)
        results.append(PageCost(name, statistics.median(times), len(queries.captured_queries), writes))
    return results


_WRITES = {"INSERT", "UPDATE", "DELETE", "BEGIN", "SAVEPOINT"}
