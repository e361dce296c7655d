"""The referee's worst cases under any house rules, searched for (``manage.py bench --worst``).

A stranger controls both the rules (a house document, within every limit the reader keeps) and
the cards (a layout to check, a hand to solve, a meld to lay off on or swap into), so the worst
case is searched for over both at once: a hill-climb that starts from the built-in rulesets, the
cases that once held a core, and random documents, mutates a knob of the document or a card of the
input, and keeps every mutation that makes the engine work harder. The bench climbs on time and
times the worst it finds again, in process and over HTTP; the tests climb the same way on the
steps the budget counts and on the Python calls the engine makes (``work``), which no budget
keeps: a loop that tries candidates without charging them shows as calls outrunning steps.
"""

from __future__ import annotations

import gc
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import Any

from referee.engine import (
    RefereeError,
    Verdict,
    check_layoff,
    check_layout,
    check_swap,
    parse_cards,
    parse_played,
    solve_go_out,
    solve_open,
)
from referee.engine.budget import Budget, TooManyWays
from scorekeeping.bench.trials import (
    CHECKS,
    CORE_CASES,
    SOLVES,
    Trial,
    mutated,
    rules_of,
    starts,
)


@dataclass(frozen=True)
class Work:
    """What one trial cost: the steps the budget counted, the engine's Python calls, and the time."""

    steps: int
    calls: int
    ms: float
    verdict: str  # legal, illegal, or undecided (the budget ran out)


def ask(trial: Trial, budget: Budget) -> Verdict:
    """The engine's answer, as the referee's service asks it, on ``budget``."""
    rules = rules_of(trial.document)
    action, cards = trial.action, trial.cards
    if action in ("open", "go_out"):
        melds = [parse_played(m) for m in cards]
        return check_layout(rules, trial.number, melds, final=action == "go_out", budget=budget)
    if action in ("layoff", "swap"):
        target, put = parse_played(cards[0]), parse_played(cards[1])
        check = check_layoff if action == "layoff" else check_swap
        return check(rules, trial.number, target, put, budget=budget)
    solve = solve_open if action == "solve_open" else solve_go_out
    return solve(rules, trial.number, parse_cards(cards[0]), budget=budget)


def work(trial: Trial, *, count_calls: bool = False) -> Work:
    """Run ``trial`` once on a fresh budget and say what it cost."""
    budget = Budget()
    calls = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        if event in ("call", "c_call"):
            calls += 1

    rules_of(trial.document)  # read once and kept, as the rulebook keeps a saved ruleset
    collecting = gc.isenabled()
    gc.disable()  # a collection that falls in the timing says nothing of this trial
    if count_calls:
        sys.setprofile(profile)
    start = time.perf_counter()
    try:
        verdict = ask(trial, budget)
        said = "legal" if verdict.legal else "illegal" if verdict.decided else "undecided"
    except TooManyWays:
        said = "undecided"
    except RefereeError:
        said = "refused"  # the service answers 400 naming the field
    finally:
        elapsed = (time.perf_counter() - start) * 1000
        if count_calls:
            sys.setprofile(None)
        if collecting:
            gc.enable()
    return Work(budget.taken, calls, elapsed, said)


def climb(
    actions: Sequence[str],
    score: Callable[[Trial], float],
    *,
    seed: int,
    tries: int | None = None,
    seconds: float | None = None,
    keep: int = 5,
    starts_count: int = 24,
) -> list[tuple[float, Trial]]:
    """Hill-climb over documents and cards for the highest ``score``, from several starts in turn;
    the ``keep`` highest found (one per start), highest first. Stops after ``tries`` mutations or
    ``seconds``, whichever is given."""
    rng = random.Random(seed)
    climbers = [(score(t), t) for t in starts(actions, rng, starts_count)]
    deadline = time.perf_counter() + seconds if seconds is not None else None
    done = 0
    while (tries is None or done < tries) and (deadline is None or time.perf_counter() < deadline):
        k = done % len(climbers)
        best, trial = climbers[k]
        done += 1
        candidate = mutated(trial, rng)
        if candidate is None:
            continue
        got = score(candidate)
        if got >= best:
            climbers[k] = (got, candidate)
    return sorted(climbers, key=lambda x: -x[0])[:keep]


def describe(trial: Trial) -> str:
    cards = " | ".join(trial.cards)
    return f"{trial.action} round {trial.number}: {cards}\n        document: {json.dumps(trial.document)}"


def worst_bench(write: Callable[[str], object], *, seconds: float, seed: int, http: bool) -> list[str]:
    """``manage.py bench --worst``: the slowest checks and solves the climb finds in ``seconds``
    (half each), timed again (median of 20) in process and the slowest of each over HTTP, beside
    the issue's core cases and a plain Mexican check; what misses the referee's promise (under
    10 ms in process) is returned."""
    from referee.engine.budget import MAX_STEPS

    missed: list[str] = []
    plain = Trial({"based_on": "mexican"}, 2, "open", ("7C 7D 4H", "9S 10S JS QS"))
    slowest: list[tuple[str, Trial]] = []
    for label, actions in (("check", CHECKS), ("solve", SOLVES)):
        found = climb(actions, lambda t: _median_ms(t, 3), seed=seed, seconds=seconds / 2)
        write(f"The slowest {label}s found in {seconds / 2:g} s of climbing (median of 20 runs, in process):")
        for rank, (_ms, trial) in enumerate(found, start=1):
            median, cost = _median_ms(trial, 20), work(trial)
            steps = f"{cost.steps:6,} of {MAX_STEPS:,} steps"
            write(f"  {rank}. {median:6.2f} ms  {steps}  {cost.verdict:9s}  {describe(trial)}")
            if median >= PROMISE_MS:
                missed.append(f"{label} {median:.1f} ms")
        slowest.append((f"the slowest {label}", found[0][1]))
    write("The cases that held a core before the budget (median of 20 runs, in process):")
    for name, (document, action, cards) in CORE_CASES.items():
        trial = Trial(document, 1, action, tuple(cards))
        median, cost = _median_ms(trial, 20), work(trial)
        write(f"     {median:6.2f} ms  {cost.steps:6,} steps  {cost.verdict:9s}  {name}")
        if median >= PROMISE_MS:
            missed.append(f"{name} {median:.1f} ms")
    write(f"     {_median_ms(plain, 200):6.2f} ms  a plain Mexican check (7C 7D 4H | 9S-QS, round 2)")
    if http:
        from scorekeeping.bench.referee import http_trials

        write("Over HTTP (the start command's server, 1 worker; median of 50 requests each):")
        for label, ms in http_trials([("a plain Mexican check", plain), *slowest], as_request):
            write(f"     {ms:6.2f} ms  {label}")
    return missed


PROMISE_MS = 10.0  # the referee's promise, in process: every check and "Can I?" answers within it


def _median_ms(trial: Trial, runs: int) -> float:
    times = sorted(work(trial).ms for _ in range(runs))
    return times[len(times) // 2]


def as_request(trial: Trial, slug: str | None) -> dict[str, Any]:
    """The check API's body for ``trial``: its ruleset by ``slug`` (its document saved so), or by
    the built-in it names where the document is no more than that."""
    body: dict[str, Any] = {"ruleset": slug or trial.document["based_on"], "round": trial.number}
    if trial.action in ("open", "go_out"):
        body |= {"action": trial.action, "melds": list(trial.cards)}
    elif trial.action in ("layoff", "swap"):
        body |= {"action": trial.action, "target": trial.cards[0], "cards": trial.cards[1]}
    else:
        body |= {"action": "open" if trial.action == "solve_open" else "go_out", "hand": trial.cards[0]}
    return body
