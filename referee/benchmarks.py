"""The engine's worst cases and the check endpoint's latency, measured (``manage.py bench``).

Worst cases are found, not guessed: for each case many seeded random hands are solved
once, the slowest is kept, and that hand is then timed again and again for a median.
Hand-made hard hands (one suit only, duplicates) are added to the candidates.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import socket
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from scorekeeping import server

from .engine import JOKER, Card, Rules, Verdict, check_layout, find_rules, parse_cards, parse_played
from .engine.cards import DECK

ENGINE_TARGET_MS = 5.0
LATENCY_RATIO_TARGET = 1.5


@dataclass(frozen=True)
class Result:
    name: str
    median_ms: float
    worst_hand: str
    target_ms: float

    @property
    def ok(self) -> bool:
        return self.median_ms < self.target_ms


def _random_hand(rng: random.Random, size: int, wilds: int, wild_rank: int | None) -> list[Card]:
    two_packs = [*DECK, *DECK]
    wild_pool = [JOKER] * 4 + [c for c in two_packs if c.rank == wild_rank]
    natural_pool = [c for c in two_packs if c.rank != wild_rank]
    return rng.sample(wild_pool, wilds) + rng.sample(natural_pool, size - wilds)


def _median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _worst_case(
    name: str,
    solve: Callable[[Sequence[Card]], Verdict],
    candidates: list[list[Card]],
    repeat: int,
) -> Result:
    slowest, slowest_time = candidates[0], -1.0
    for hand in candidates:
        start = time.perf_counter()
        solve(hand)
        elapsed = time.perf_counter() - start
        if elapsed > slowest_time:
            slowest, slowest_time = hand, elapsed
    median = _median_ms(lambda: solve(slowest), repeat)
    return Result(name, median, " ".join(str(c) for c in slowest), ENGINE_TARGET_MS)


def engine_results(*, hands: int = 300, repeat: int = 50, seed: int = 1) -> list[Result]:
    from .engine import solve_go_out, solve_open

    rng = random.Random(seed)
    mexican, shanghai = find_rules("mexican"), find_rules("shanghai")
    results: list[Result] = []
    crafted_go_out = [
        parse_cards("AS AS 2S 2S 3S 3S 4S 4S 5S 5S 6S 6S 7S 7S"),
        parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 10S JS QS KS KS 2H"),
        parse_cards("2H 3H 4H 6H 7H 8H 10H JH QH 2D 4D 6D 8D 10D"),
    ]
    for wilds in (0, 4, 8):
        candidates = [_random_hand(rng, 14, wilds, 9) for _ in range(hands)]
        if wilds == 0:
            candidates += crafted_go_out
        results.append(
            _worst_case(
                f"mexican round 7 go-out solver, 14 cards, {wilds} wilds",
                lambda h: solve_go_out(mexican, 7, h),
                candidates,
                repeat,
            )
        )
    for wilds in (4, 6, 8):
        candidates = [_random_hand(rng, 13, wilds, 8) for _ in range(hands)]
        results.append(
            _worst_case(
                f"mexican round 6 opening solver, 13 cards, {wilds} wilds",
                lambda h: solve_open(mexican, 6, h),
                candidates,
                repeat,
            )
        )
    for wilds in (0, 2, 4):
        candidates = [_random_hand(rng, 16, wilds, None) for _ in range(hands)]
        results.append(
            _worst_case(
                f"shanghai deal 10 opening solver, 16 cards, {wilds} jokers",
                lambda h: solve_open(shanghai, 10, h),
                candidates,
                repeat,
            )
        )
    return results


def check_throughput(*, seconds: float = 1.0) -> tuple[float, float]:
    """Plain checks per second: (the worked example's opening, an illegal K-A-2 opening)."""
    rules: Rules = find_rules("mexican")
    legal = [parse_played("7C 7D 4H"), parse_played("9S 10S JS QS")]
    illegal = [parse_played("7C 7D 4H"), parse_played("QS KS AS 2S")]
    rates = []
    for melds in (legal, illegal):
        count, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            check_layout(rules, 2, melds, final=False)
            count += 1
        rates.append(count / (time.perf_counter() - start))
    return rates[0], rates[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _request(port: int, method: str, path: str, body: bytes | None = None) -> float:
    """Milliseconds for one request on a new connection, from connecting to the last byte.

    The request goes out in one write, as browsers send a small request and its body
    (Chromium merges headers and an in-memory body up to 1,400 bytes; so does curl).
    ``http.client`` writes the headers and the body separately, which makes the server
    wait for a second packet that no phone would make it wait for.
    """
    head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
    if body is not None:
        head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    message = ("\r\n".join(head) + "\r\n\r\n").encode() + (body or b"")
    start = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(message)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    elapsed = (time.perf_counter() - start) * 1000
    status_line = b"".join(chunks).split(b"\r\n", 1)[0]
    if not status_line.startswith(b"HTTP/1.1 200 "):
        raise RuntimeError(f"{method} {path} answered {status_line.decode(errors='replace')!r}")
    return elapsed


def http_latency(*, requests: int = 400, settings_module: str = "scorekeeping.settings") -> tuple[float, float]:
    """Median ms of GET /healthz and of POST /api/referee/check/ through a real gunicorn."""
    port = _free_port()
    root = Path(__file__).resolve().parent.parent
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": settings_module,
        "SECRET_KEY": secrets.token_urlsafe(40),
        "DJANGO_DEBUG": "0",
    }
    process = subprocess.Popen(
        server.command(bind=f"127.0.0.1:{port}", workers=1),
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                _request(port, "GET", "/healthz")
                break
            except (OSError, RuntimeError):
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)
        body = json.dumps({"round": 2, "action": "open", "melds": ["7C 7D 4H", "9S 10S JS QS"]}).encode()
        for _ in range(20):  # warm up both
            _request(port, "GET", "/healthz")
            _request(port, "POST", "/api/referee/check/", body)
        health, check = [], []
        for _ in range(requests):
            health.append(_request(port, "GET", "/healthz"))
            check.append(_request(port, "POST", "/api/referee/check/", body))
        return statistics.median(health), statistics.median(check)
    finally:
        process.terminate()
        process.wait(timeout=10)
