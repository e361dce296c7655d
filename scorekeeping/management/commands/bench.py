from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from referee.engine.budget import MAX_STEPS
from scorekeeping.bench.against import against
from scorekeeping.bench.clubs import club_bench
from scorekeeping.bench.crowds import crowds
from scorekeeping.bench.history import history_bench
from scorekeeping.bench.ladder import ladder_bench
from scorekeeping.bench.live import live_bench
from scorekeeping.bench.referee import check_throughput, engine_results, http_latency, write_house_side_by_side
from scorekeeping.bench.room import room_bench
from scorekeeping.bench.stories import stories_bench
from scorekeeping.bench.worst import worst_bench
from scorekeeping.bench.writers import writers


class Command(BaseCommand):
    help = "Search the rules engine's worst cases and time them; report page and API latency. Fails on a missed target."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seconds", type=float, default=10.0, help="adversarial search time per solver case")
        parser.add_argument("--repeat", type=int, default=30, help="timings of the worst hand per case")
        parser.add_argument("--requests", type=int, default=400, help="HTTP requests per endpoint")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--no-http", action="store_true", help="skip the live-server latency")
        parser.add_argument("--live", action="store_true", help="only the live tables: pages, streams, delivery")
        parser.add_argument("--streams", type=int, default=5000, help="idle streams opened on one core (--live)")
        parser.add_argument("--phones", type=int, default=400, help="phones polling once a second, to compare (--live)")
        parser.add_argument(
            "--against", metavar="REV", help="only page and API latency: this tree and commit REV's, side by side"
        )
        parser.add_argument(
            "--crowds", action="store_true", help="only crowds and attackers: streams on one game, slow headers"
        )
        parser.add_argument("--before", metavar="REV", help="with --crowds: measure commit REV's tree first")
        parser.add_argument("--crowd-seconds", type=float, default=20.0, help="each --crowds scenario's length")
        parser.add_argument("--club", action="store_true", help="only a club night: its standings and room screen")
        parser.add_argument("--tables", type=int, default=40, help="tables of four at the club night (--club)")
        parser.add_argument(
            "--writers", action="store_true", help="only SQLite under many tables writing at once (--tables of them)"
        )
        parser.add_argument(
            "--stories",
            action="store_true",
            help="only the players' stories: /players/, /records/ and profiles asked again and again, 2,000 games",
        )
        parser.add_argument(
            "--history",
            action="store_true",
            help="only the stories as the history grows: first answers after a round, a finish and a correction",
        )
        parser.add_argument(
            "--history-games", default="500,2000,10000", help="the history's sizes, finished games (--history)"
        )
        parser.add_argument(
            "--ladder",
            action="store_true",
            help="only a club's ladder: 60 members, 500 finished games; the ladder, a profile and the records",
        )
        parser.add_argument(
            "--worst",
            action="store_true",
            help="only the referee under any house rules: hill-climb over documents and cards for the slowest "
            "check and solve (--worst-seconds in all), timed in process and over HTTP",
        )
        parser.add_argument("--worst-seconds", type=float, default=600.0, help="the --worst climb's length")
        parser.add_argument(
            "--club-room",
            action="store_true",
            help="only a club night over HTTP: 160 phones and a room screen on two server processes",
        )

    def handle(
        self, *args: Any, seconds: float, repeat: int, requests: int, seed: int, no_http: bool, **opts: Any
    ) -> None:
        if opts.get("against"):
            slower = against(opts["against"], self.stdout.write, repeat=requests // 2)
            if slower:
                raise CommandError("missed targets: " + "; ".join(slower))
            return
        if opts.get("crowds"):
            crowded = crowds(self.stdout.write, before=opts.get("before"), seconds=opts["crowd_seconds"])
            if crowded:
                raise CommandError("missed targets: " + "; ".join(crowded))
            return
        if opts.get("writers"):
            missed_writes = writers(self.stdout.write, tables=opts["tables"])
            if missed_writes:
                raise CommandError("missed targets: " + "; ".join(missed_writes))
            return
        if opts.get("history"):
            sizes = [int(n) for n in str(opts["history_games"]).split(",")]
            missed_history = history_bench(self.stdout.write, sizes=sizes, seed=seed)
            if missed_history:
                raise CommandError("missed targets: " + "; ".join(missed_history))
            return
        if opts.get("stories"):
            missed_stories = stories_bench(self.stdout.write)
            if missed_stories:
                raise CommandError("missed targets: " + "; ".join(missed_stories))
            return
        if opts.get("ladder"):
            missed_ladder = ladder_bench(self.stdout.write)
            if missed_ladder:
                raise CommandError("missed targets: " + "; ".join(missed_ladder))
            return
        if opts.get("worst"):
            missed_worst = worst_bench(self.stdout.write, seconds=opts["worst_seconds"], seed=seed, http=not no_http)
            if missed_worst:
                raise CommandError("missed targets: " + "; ".join(missed_worst))
            return
        if opts.get("club_room"):
            missed_room = room_bench(self.stdout.write, tables=opts["tables"])
            if missed_room:
                raise CommandError("missed targets: " + "; ".join(missed_room))
            return
        if opts.get("club"):
            missed_club = club_bench(self.stdout.write, tables=opts["tables"])
            if missed_club:
                raise CommandError("missed targets: " + "; ".join(missed_club))
            return
        if opts.get("live"):
            live_bench(self.stdout.write, streams=opts["streams"], phones=opts["phones"])
            return
        missed: list[str] = []
        self.stdout.write(f"Engine worst cases (searched {seconds:g} s each; median of {repeat} runs):")
        for result in engine_results(seconds=seconds, repeat=repeat, seed=seed):
            mark = "ok " if result.ok else "MISS"
            self.stdout.write(
                f"  {mark} {result.median_ms:6.2f} ms  < {result.target_ms:.0f} ms  {result.name}"
                f"  ({result.steps:,} of {MAX_STEPS:,} steps)"
            )
            self.stdout.write(f"                      worst hand: {result.worst_hand}")
            if not result.ok:
                missed.append(result.name)
        legal, illegal = check_throughput()
        self.stdout.write(f"Plain checks: {legal:,.0f}/s (legal opening), {illegal:,.0f}/s (illegal K-A-2 opening)")
        write_house_side_by_side(self.stdout.write, repeat=max(repeat, 50))
        if not no_http:
            health, check = http_latency(requests=requests)
            self.stdout.write(
                f"HTTP, the start command's server, 1 worker, {requests} requests each: /healthz {health:.2f} ms, "
                f"/api/referee/check/ {check:.2f} ms median (ratio {check / health:.2f}; no target)"
            )
        if missed:
            raise CommandError("missed targets: " + "; ".join(missed))
