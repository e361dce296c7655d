from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from referee.benchmarks import LATENCY_RATIO_TARGET, check_throughput, engine_results, http_latency


class Command(BaseCommand):
    help = "Time the rules engine's worst cases and the check endpoint against /healthz; fail on a missed target."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hands", type=int, default=300, help="random hands tried per case to find its worst")
        parser.add_argument("--repeat", type=int, default=50, help="timings of the worst hand per case")
        parser.add_argument("--requests", type=int, default=400, help="HTTP requests per endpoint")
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--no-http", action="store_true", help="skip the live-server latency")

    def handle(self, *args: Any, hands: int, repeat: int, requests: int, seed: int, no_http: bool, **opts: Any) -> None:
        missed: list[str] = []
        self.stdout.write(f"Engine worst cases (median of {repeat} runs of the slowest of {hands} seeded hands):")
        for result in engine_results(hands=hands, repeat=repeat, seed=seed):
            mark = "ok " if result.ok else "MISS"
            self.stdout.write(f"  {mark} {result.median_ms:6.2f} ms  < {result.target_ms:.0f} ms  {result.name}")
            self.stdout.write(f"                      worst hand: {result.worst_hand}")
            if not result.ok:
                missed.append(result.name)
        legal, illegal = check_throughput()
        self.stdout.write(f"Plain checks: {legal:,.0f}/s (legal opening), {illegal:,.0f}/s (illegal K-A-2 opening)")
        if not no_http:
            health, check = http_latency(requests=requests)
            ratio = check / health
            mark = "ok " if ratio <= LATENCY_RATIO_TARGET else "MISS"
            self.stdout.write(
                f"HTTP, gunicorn 1 worker, {requests} requests each: /healthz {health:.2f} ms, "
                f"/api/referee/check/ {check:.2f} ms median"
            )
            self.stdout.write(f"  {mark} ratio {ratio:.2f} <= {LATENCY_RATIO_TARGET}")
            if ratio > LATENCY_RATIO_TARGET:
                missed.append("check endpoint latency")
        if missed:
            raise CommandError("missed targets: " + "; ".join(missed))
