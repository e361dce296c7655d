"""The engine's worst cases and the check endpoint's latency, measured (``manage.py bench``).

Worst cases are searched for, not sampled: for each case the slowest of a few random hands
is mutated, card by card within the copies the packs hold, keeping every mutation that
is slower (a hill-climb); the slowest hand found is then timed again and again for a median.
"""

from __future__ import annotations

import functools
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
from typing import Any

from referee.engine import JOKER, Card, Rules, Verdict, check_layout, find_rules, parse_cards, parse_played
from referee.engine.budget import Budget
from referee.engine.cards import DECK
from referee.engine.documents import rules_from_document
from scorekeeping.serve import server

ENGINE_TARGET_MS = 5.0


@dataclass(frozen=True)
class Result:
    name: str
    median_ms: float
    worst_hand: str
    target_ms: float
    steps: int = 0  # the solver's work on the worst hand (its budget is budget.MAX_STEPS)

    @property
    def ok(self) -> bool:
        return self.median_ms < self.target_ms


@dataclass(frozen=True)
class Case:
    """A solver case: a ruleset and round, a hand size the rules allow, and the solver asked."""

    name: str
    rules: Rules
    number: int
    size: int
    go_out: bool
    known: tuple[str, ...] = ()  # the slowest hands earlier searches found: the search starts from them too
    target_ms: float = ENGINE_TARGET_MS

    def solve(self, hand: Sequence[Card], budget: Budget | None = None) -> Verdict:
        from referee.engine import solve_go_out, solve_open

        return (solve_go_out if self.go_out else solve_open)(self.rules, self.number, hand, budget=budget)


HOUSE_KNOBS = {
    "based_on": "mexican",
    "name": "Bench house rules",
    "wilds": {"ranks": ["2"]},
    "naturals": {"per_meld": 1, "wilds": "not_more", "adjacent_wilds": False},
    "runs": {"ace": "around"},
}


# The slowest house hand found while the solver asked the checker for each candidate (about 150 ms then).
HOUSE_WORST = "8C 9C 8D 5H 8H 8H 2S 2S 9S 10S JS JS JK"


def cases() -> list[Case]:
    mexican, contract, shanghai = find_rules("mexican"), find_rules("contract"), find_rules("shanghai")
    buying = find_rules("mexican", ["buy-discard"])
    house = rules_from_document(HOUSE_KNOBS, slug="bench-house")
    return [
        Case("mexican round 7 go-out, 14 cards", mexican, 7, 14, True, ("9C 9C 5D 6D 7D 9D QD 4H 5H 7H KH 9S JK JK",)),
        Case("mexican round 6 opening, 13 cards", mexican, 6, 13, False),
        # Side by side with the row above: the same case under house rules based on mexican.
        Case(
            "house rules (mexican + knobs) round 6 opening, 13 cards",
            house,
            6,
            13,
            False,
            (HOUSE_WORST,),
        ),
        Case("mexican buy-discard round 6 opening, 19 cards (3 buys)", buying, 6, 19, False),
        Case(
            "contract deal 7 go-out, 19 cards (3 May-I)",
            contract,
            7,
            19,
            True,
            ("AC 8C JC KC AH 3H 4H 4H 6H 7H 7H 9H JH JH QH AS QS KS JK",),
        ),
        Case(
            "shanghai deal 10 opening, 16 cards (2 May-I)",
            shanghai,
            10,
            16,
            False,
            ("3C 3D 3D 4D 5D 6D 7D 8D 9D 10D 6H 6S JK JK JK JK", "6C 10C 4D 5D 6D 7D 8D 9D JD 5H 7H 8H JK JK JK JK"),
        ),
    ]


def _pool(rules: Rules) -> list[Card]:
    """Every card the largest table of the ruleset plays with, each copy once."""
    deck = rules.largest_deck
    return [*DECK * deck.packs, *[JOKER] * deck.jokers]


def _ms(case: Case, hand: Sequence[Card], runs: int = 2) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        case.solve(hand)
        best = min(best, (time.perf_counter() - start) * 1000)
    return best


def _mutated(rng: random.Random, hand: list[Card], pool: list[Card]) -> list[Card]:
    """The hand with one to three cards swapped for others the packs still hold."""
    left = list(pool)
    for card in hand:
        left.remove(card)
    new = list(hand)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(new))
        j = rng.randrange(len(left))
        new[i], left[j] = left[j], new[i]
    return new


def worst_case(case: Case, *, seconds: float, repeat: int, rng: random.Random) -> Result:
    """Search for the slowest hand, adversarially: start from the slowest of a few random hands,
    then mutate it and keep every mutation that is slower, within the copies the packs hold."""
    pool = _pool(case.rules)
    starts = [rng.sample(pool, case.size) for _ in range(20)] + [parse_cards(h) for h in case.known]
    slowest = max(starts, key=lambda h: _ms(case, h, 1))
    slowest_ms = _ms(case, slowest)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        candidate = _mutated(rng, slowest, pool)
        elapsed = _ms(case, candidate)
        if elapsed > slowest_ms:
            slowest, slowest_ms = candidate, elapsed
    median = _median_ms(lambda: case.solve(slowest), repeat)
    work = Budget()
    case.solve(slowest, work)
    hand = " ".join(str(c) for c in sorted(slowest, key=Card.sort_key))
    return Result(case.name, median, hand, case.target_ms, work.taken)


def _median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def engine_results(*, seconds: float = 3.0, repeat: int = 30, seed: int = 1) -> list[Result]:
    """The worst case found for every solver case, each searched for ``seconds``."""
    rng = random.Random(seed)
    return [worst_case(case, seconds=seconds, repeat=repeat, rng=rng) for case in cases()]


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


def house_side_by_side(*, repeat: int = 200) -> list[tuple[str, float, float, str]]:
    """The same checks under plain mexican and under house rules based on it (wilds.ranks ["2"],
    naturals per_meld 1, not_more, no adjacent wilds, ace around), the same hands, one run of
    ``repeat`` timings each, taken in turn so that a busy machine slows both alike:
    (what, median ms plain, median ms house, the hand)."""
    from referee.engine import solve_open

    plain: Rules = find_rules("mexican")
    house = rules_from_document(HOUSE_KNOBS, slug="bench-house")
    melds = [parse_played("7C 7D 7H"), parse_played("9S 10S JS QS")]
    illegal = [parse_played("7C 7D 4H"), parse_played("QS KS AS 2S")]
    hand = parse_cards("7C 7D 7H 9S 10S JS QS 4C KD")
    big = parse_cards("AC 4C 5C 7C KD KD 4H 8H 8H 4S 8S JK JK")
    worst = parse_cards(HOUSE_WORST)
    rows: list[tuple[str, float, float, str]] = []
    for what, fn, shown in (
        ("check_layout round 2", lambda rules: check_layout(rules, 2, melds, final=False), "7C 7D 7H | 9S-QS"),
        (
            "check_layout round 2, refused",
            lambda rules: check_layout(rules, 2, illegal, final=False),
            "7C 7D 4H | QS KS AS 2S",
        ),
        ("solve_open round 2, 9 cards", lambda rules: solve_open(rules, 2, hand), " ".join(map(str, hand))),
        ("solve_open round 6, 13 cards", lambda rules: solve_open(rules, 6, big), " ".join(map(str, big))),
        ("solve_open round 6, house worst", lambda rules: solve_open(rules, 6, worst), HOUSE_WORST),
    ):
        plain_ms, house_ms = _paired_ms(functools.partial(fn, plain), functools.partial(fn, house), repeat)
        rows.append((what, plain_ms, house_ms, shown))
    return rows


def _paired_ms(first: Callable[[], object], second: Callable[[], object], repeat: int) -> tuple[float, float]:
    """Median ms of each, timed in turn (one of each, ``repeat`` times) after one warm-up call each."""
    first()
    second()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        for fn, into in ((first, times[0]), (second, times[1])):
            start = time.perf_counter()
            fn()
            into.append((time.perf_counter() - start) * 1000)
    return statistics.median(times[0]), statistics.median(times[1])


def write_house_side_by_side(write: Callable[[str], object], *, repeat: int = 200) -> None:
    """``house_side_by_side`` as ``manage.py bench`` prints it (no target: the numbers are read)."""
    write(
        f"House rules beside mexican, same hands, one run (median of {repeat}, in turn; house: twos wild, "
        "naturals per meld 1, not more wilds than naturals, no adjacent wilds, ace around):"
    )
    for what, plain_ms, house_ms, shown in house_side_by_side(repeat=repeat):
        write(
            f"  {what:32s} mexican {plain_ms:6.3f} ms  house {house_ms:6.3f} ms  "
            f"(house/mexican {house_ms / plain_ms:4.2f})  {shown}"
        )


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


def _serving(settings_module: str) -> tuple[int, subprocess.Popen[bytes]]:
    """The start command's server, one worker, on a free port of this machine."""
    port = server.free_port()
    root = Path(__file__).resolve().parents[2]
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
    server.wait_until_listening(port, process)
    return port, process


def http_trials(
    trials: Sequence[tuple[str, Any]],
    body_of: Callable[[Any, str | None], dict[str, Any]],
    *,
    requests: int = 50,
    settings_module: str = "scorekeeping.config.settings",
) -> list[tuple[str, float]]:
    """Median ms of ``POST /api/referee/check/`` for each trial through a real server; a trial's
    house document is saved first (``POST /api/rulesets/``) and its check names it by its slug."""
    port, process = _serving(settings_module)
    try:
        timed: list[tuple[str, float]] = []
        for label, trial in trials:
            slug = None
            if set(trial.document) - {"based_on"}:
                document = {**trial.document, "name": f"Bench {secrets.token_hex(4)}"}
                saved = _post(port, "/api/rulesets/", json.dumps(document).encode())
                slug = json.loads(saved)["slug"]
            body = json.dumps(body_of(trial, slug)).encode()
            for _ in range(5):
                _request(port, "POST", "/api/referee/check/", body)
            times = [_request(port, "POST", "/api/referee/check/", body) for _ in range(requests)]
            timed.append((label, statistics.median(times)))
        return timed
    finally:
        process.terminate()
        process.wait(timeout=10)


def _post(port: int, path: str, body: bytes) -> bytes:
    """The body of a JSON POST's answer (201 or 200)."""
    head = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
    head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    answer = b"".join(chunks)
    status, _, rest = answer.partition(b"\r\n")
    if not status.startswith((b"HTTP/1.1 200 ", b"HTTP/1.1 201 ")):
        raise RuntimeError(f"POST {path} answered {status.decode(errors='replace')!r}")
    return rest.partition(b"\r\n\r\n")[2]


def http_latency(*, requests: int = 400, settings_module: str = "scorekeeping.config.settings") -> tuple[float, float]:
    """Median ms of GET /healthz and of POST /api/referee/check/ through a real gunicorn."""
    port, process = _serving(settings_module)
    try:
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
