"""Every phone, every role, one round (issue 49): a model-based test of the round in progress.

Five phones follow one game of four players (Ana, Ben, Cy, Dee): Ana's and Ben's phones are
seated, one phone enters for everyone, one opened the edit link and never said who it is, one
only watches. Hypothesis' stateful testing plays any sequence of who-went-out (from any phone
that may record), a card tapped on a seated phone, a hand typed on a phone, Send, Record, Undo,
Redo, a reload and a dropped connection, each as the page's form sends it. After every step:

- no answer is a 5xx, and every refusal names why (its errors are in words);
- every connected phone, after one push (the live fetch its stream would trigger), shows the
  round the game is on, its entry is for that round, and its status line of the round in
  progress equals the server's (who went out, whose hand is in, for how many points);
- nothing a phone typed for the round still open is lost: a seated phone's own hand, typed and
  not sent, comes back in its form after a reload; what a phone sends arrives as typed;
- a Record that the server's own round allows (every hand in, the phone's view current, no cards
  typed for who went out) is never refused, and the totals equal the engine's scoring of the
  recorded hands.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass, field
from html import unescape

import pytest
from django.test import Client
from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from referee.engine import find_rules, parse_cards
from referee.engine.scoring import score_hand
from scorekeeping.services.games import game_create

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ana", "Ben", "Cy", "Dee"]
# Each player's cards, tapped in this order (distinct across hands: no hand holds more copies than the packs).
POOLS = {0: ["5C", "6C", "KC"], 1: ["5D", "6D", "KD"], 2: ["5H", "6H", "KH"], 3: ["5S", "6S", "KS"]}
RECORDERS = ["ana", "ben", "all", "asked"]
LAST = 6  # round 7 asks for whole hands of 13 cards: the model plays rounds 1 to 6


def _hidden(html: str, name: str) -> str | None:
    found = re.search(rf'name="{name}" value="([^"]*)"', html)
    return unescape(found[1]) if found else None


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _status_line(html: str) -> str | None:
    """The round in progress as a phone's page says it: "Ana went out · Ben ✓ 15 · Cy –", or None
    when no round is in progress; absent (``...``) when the fragment does not carry it."""
    part = re.search(r'<div id="draft-status"[^>]*>(.*?)</div>', html, re.S)
    if part is None:
        return "..."
    line = re.search(r'<p class="draft-line">(.*?)</p>', part[1], re.S)
    return _text(line[1]) if line else None


def _errors(html: str) -> str:
    """Every reason a page gives for a refusal: the list above the hands, each hand's own, a
    conflict's alert."""
    found = re.findall(r'<(?:div|p) class="(?:errors|error)"[^>]*>(.*?)</(?:div|p)>', html, re.S)
    return " ".join(_text(part) for part in found)


@dataclass
class Phone:
    key: str
    client: Client
    seat: int | None = None  # the player whose hand it scores
    records: bool = True
    typed: dict[int, list[str]] = field(default_factory=dict)  # hands typed here, not sent
    etag: str = ""
    connected: bool = True
    # The form as the phone last drew it.
    number: int = 1
    version: str = ""
    draft_winner: str = ""
    draft_version: str = ""
    winner: str = ""  # who went out as its form shows it
    offered: str = ""
    # What its screen shows of the game.
    shown_round: int | None = None
    line: str | None = None

    def draw(self, html: str) -> None:
        """Take what a page or a live fragment carries: the round announced, the status line of
        the round in progress, and the entry's state when the entry is drawn anew."""
        announced = re.search(r"Round (\d+) of 7", _text(html))
        if announced:
            self.shown_round = int(announced[1])
        line = _status_line(html)
        if line != "...":
            self.line = line
        form = re.search(r"<form[^>]*data-entry[^>]*>", html)
        if form is None:
            return
        offered = re.search(r'data-offered="([^"]*)"', form[0])
        self.offered = offered[1] if offered else ""
        number = re.search(r'data-round="(\d+)"', form[0])
        if number and int(number[1]) != self.number:
            self.typed = {}  # what it typed was for another round (the page keeps it per round)
        self.number = int(number[1]) if number else self.number
        self.version = _hidden(html, "version") or ""
        self.draft_winner = _hidden(html, "draft_winner") or ""
        self.draft_version = _hidden(html, "draft_version") or ""
        chosen = re.search(r'name="winner" value="(\w+)" checked', html)
        self.winner = chosen[1] if chosen else ""
        for seat in range(len(NAMES)):  # a seated phone's own hand, kept on the server, comes back
            value = _hidden_field(html, f"hand-{seat}")
            if seat == self.seat and value:
                self.typed[seat] = value.split()


def _event(text: str) -> None:
    """Counted in hypothesis' statistics (a sequence replayed by hand counts nothing)."""
    with contextlib.suppress(InvalidArgument):
        event(text)


def _hidden_field(html: str, name: str) -> str | None:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', html) or re.search(
        rf'<input[^>]*value="([^"]*)"[^>]*name="{name}"', html
    )
    return unescape(found[1]) if found else None


class RoundModel(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        # Made by the service, as the API's door would (many examples: the door's limit per address).
        game, token = game_create(ruleset="mexican", variants=[], players=NAMES, first_dealer="Ana")
        self.id, self.token, self.api = game.pk, token, Client()
        self.rules = find_rules("mexican")
        self.phones: dict[str, Phone] = {}
        for key, said in (("ana", "0"), ("ben", "1"), ("all", "everyone"), ("asked", None), ("watch", "watch")):
            client = Client()
            assert client.get(f"/g/{self.id}/join/{self.token}/").status_code == 302
            if said is not None:
                assert client.post(f"/g/{self.id}/seat/", {"player": said}).status_code == 302
            seat = int(said) if said in ("0", "1") else None
            self.phones[key] = Phone(key, client, seat=seat, records=said != "watch")
        for phone in self.phones.values():
            self._reload(phone)
        self.steps: list[str] = []

    # --- the server's truth ---------------------------------------------------------------
    def _get(self, path: str) -> dict:
        answer = self.api.get(path, headers={"X-Game-Token": self.token})
        assert answer.status_code == 200, answer.content[:300]
        return answer.json()

    def _game(self) -> dict:
        return self._get(f"/api/games/{self.id}/")

    def _draft(self) -> dict | None:
        answer = self.api.get(f"/api/games/{self.id}/draft/", headers={"X-Game-Token": self.token})
        return answer.json() if answer.status_code == 200 else None

    def _current(self) -> int:
        return len(self._game()["rounds"]) + 1

    # --- what a phone does ----------------------------------------------------------------
    def _reload(self, phone: Phone) -> str:
        answer = phone.client.get(f"/g/{self.id}/")
        assert answer.status_code == 200
        html = answer.content.decode()
        phone.etag = '"v{}"'.format(re.search(r'If-None-Match": "\\"v(\d+)', html)[1])
        phone.draw(html)
        return html

    def _push(self, phone: Phone) -> None:
        """The live fetch a change on the stream triggers (with the version the phone saw: 304
        while nothing changed), its fragments drawn."""
        headers = {"HX-Request": "true", "X-Entry-Pristine": "0" if phone.typed else "1", "If-None-Match": phone.etag}
        if phone.records:
            headers |= {"X-Entry-Version": phone.version, "X-Entry-Round": str(phone.number)}
            headers["X-Entry-Winner"] = phone.winner
            if phone.seat is not None:
                headers["X-Entry-Offered"] = phone.offered
        answer = phone.client.get(f"/g/{self.id}/live/", headers=headers)
        assert answer.status_code in (200, 304), answer.status_code
        if answer.status_code == 200:
            phone.etag = answer["ETag"]
            phone.draw(answer.content.decode())

    def _form(self, phone: Phone, **extra: str) -> dict[str, str]:
        data = {
            "number": str(phone.number),
            "version": phone.version,
            "draft_winner": phone.draft_winner,
            "draft_version": phone.draft_version,
            "winner": phone.winner,
        }
        for seat, cards in phone.typed.items():
            data[f"hand-{seat}"] = " ".join(cards)
        data.update(extra)
        return data

    def _post(self, phone: Phone, data: dict[str, str], path: str = "rounds/") -> tuple[int, str]:
        """A form sent as a phone without scripts sends it (a refusal is a 4xx with its reasons,
        a write a redirect); with scripts the same service answers, drawn in place."""
        answer = phone.client.post(f"/g/{self.id}/{path}", data)
        if answer.status_code == 302:
            return 302, self._reload(phone)
        html = answer.content.decode()
        assert answer.status_code < 500, html[:500]
        if 400 <= answer.status_code < 500:
            assert _errors(html), (answer.status_code, _text(html)[:400])  # a refusal names why
        phone.draw(html)
        return answer.status_code, html

    # --- the rules ------------------------------------------------------------------------
    @precondition(lambda self: self._current() <= LAST)
    @rule(who=st.sampled_from(RECORDERS), winner=st.sampled_from(["0", "1", "2", "3", "none"]))
    def went_out(self, who: str, winner: str) -> None:
        phone = self.phones[who]
        if phone.winner == winner:
            return  # the choice it shows already: a tap on it sends nothing
        phone.winner = winner
        active = (
            str(phone.seat) if phone.seat is not None and phone.seat != int(winner if winner != "none" else -1) else ""
        )
        stale = phone.number < self._current()  # its stream dropped: it missed a Record
        status, _html = self._post(phone, self._form(phone, preview="1", active=active))
        self.steps.append(f"{who} says {winner} went out: {status}")
        if stale:  # nothing is said for a round already recorded; the phone is shown the round to play
            assert phone.number == self._current(), (phone.number, self.steps[-6:])
            return
        if status == 200:
            draft = self._draft()
            assert draft is not None and draft["number"] == phone.number
            said = None if winner == "none" else NAMES[int(winner)]
            assert draft["winner"] == said, (draft, winner)
            phone.draft_winner = winner

    @precondition(lambda self: self._current() <= LAST)
    @rule(who=st.sampled_from(["ana", "ben"]))
    def tap_own_card(self, who: str) -> None:
        phone = self.phones[who]
        hand = phone.typed.get(phone.seat, [])
        pool = POOLS[phone.seat]
        if len(hand) == len(pool):
            return
        card = pool[len(hand)]
        data = self._form(phone, tap=card, active=str(phone.seat))
        data[f"hand-{phone.seat}"] = " ".join(hand)
        stale = phone.number < self._current()
        status, _html = self._post(phone, data)
        self.steps.append(f"{who} taps {card}: {status}")
        if stale:  # a card for a round already recorded: not kept; the phone is shown the round to play
            assert phone.number == self._current(), (phone.number, self.steps[-6:])
            return
        if status == 200:
            phone.typed[phone.seat] = [*hand, card]
            draft = self._draft()
            if draft and phone.winner not in ("", str(phone.seat)) and draft["winner"] != NAMES[phone.seat]:
                # Kept on the server at once: a reload loses nothing (a hand sent in changes only
                # when it is sent again).
                kept = draft["hands"].get(NAMES[phone.seat])
                if kept is None or not kept["sent_in"]:
                    assert kept is not None and kept["cards"] == phone.typed[phone.seat], (kept, phone.typed)

    @precondition(lambda self: self._current() <= LAST)
    @rule(who=st.sampled_from(["all", "asked", "ana", "ben"]), seat=st.sampled_from([0, 1, 2, 3]), n=st.integers(1, 3))
    def type_a_hand(self, who: str, seat: int, n: int) -> None:
        """Cards typed on a phone for a player it enters for (a seated phone: its own, or one
        without a phone), kept on the phone until sent."""
        phone = self.phones[who]
        if phone.seat is not None and seat != phone.seat and seat in (0, 1):
            return  # Ana's and Ben's hands are their own phones'
        phone.typed[seat] = POOLS[seat][:n]
        self.steps.append(f"{who} types {NAMES[seat]}: {phone.typed[seat]}")

    @precondition(lambda self: self._current() <= LAST)
    @rule(who=st.sampled_from(["all", "asked"]))
    def type_every_hand(self, who: str) -> None:
        """A phone entering for the table types every hand (the one who went out's too: its
        Record is then refused, as the page's preview already says, until those cards go)."""
        phone = self.phones[who]
        for seat in range(len(NAMES)):
            phone.typed[seat] = POOLS[seat][:2]
        self.steps.append(f"{who} types every hand")

    @precondition(lambda self: self._current() <= LAST)
    @rule(who=st.sampled_from(["ana", "ben"]))
    def send(self, who: str) -> None:
        phone = self.phones[who]
        before = self._draft()
        # The hand the keypad is on: the one typed last (its own first, as the entry opens on it).
        active = next(reversed(phone.typed), phone.seat)
        status, _html = self._post(phone, self._form(phone, op="hand", active=str(active)))
        self.steps.append(f"{who} sends {phone.typed}: {status}")
        _event(f"send: {status}")
        if status != 200:
            return
        draft = self._draft()
        assert draft is not None
        winner = draft["winner"]
        for seat, cards in phone.typed.items():
            name = NAMES[seat]
            if name == winner or (seat != phone.seat and seat in (0, 1)):
                continue
            kept = draft["hands"].get(name)
            already = before and before["hands"].get(name, {}).get("sent_in") and seat != phone.seat
            if not already and cards:
                assert kept and kept["sent_in"], (name, draft, self.steps[-6:])
                assert kept["cards"] == cards, (name, kept, cards)
        phone.typed = {}

    @precondition(lambda self: self._current() <= LAST)
    @rule(who=st.sampled_from(RECORDERS))
    def record(self, who: str) -> None:
        phone = self.phones[who]
        before_rounds = len(self._game()["rounds"])
        draft = self._draft()
        seen_version = phone.draft_version  # the round as this phone last saw it
        status, html = self._post(phone, self._form(phone, op="record"))
        self.steps.append(f"{who} records: {status}")
        kind = "a seated" if phone.seat is not None else "an unseated"
        _event(f"record on {kind} phone: {status} {_errors(html)[:50] if status >= 400 else ''}")
        after = self._game()["rounds"]
        if status in (200, 302):
            assert len(after) == before_rounds + 1
            if phone.seat is None and draft is not None:
                scores = {s["player"]: s for s in after[-1]["scores"]}
                for seat, cards in phone.typed.items():  # what it typed went in with its Record
                    name = NAMES[seat]
                    sent = draft["hands"].get(name, {})
                    if cards and name != draft["winner"] and not sent.get("sent_in"):
                        assert scores[name]["cards"] == cards, (name, scores)
            for p in self.phones.values():
                p.typed = {}
        else:
            assert len(after) == before_rounds  # a refusal changes nothing
            current = draft is not None and draft["number"] == phone.number == before_rounds + 1
            seen = current and seen_version == str(draft["version"])
            # The hands still missing once this phone's own typing goes in with its Record.
            typed = {NAMES[seat] for seat, cards in phone.typed.items() if cards} if phone.seat is None else set()
            missing = [name for name in (draft["missing"] if draft else []) if name not in typed]
            # Cards typed for who went out (and not sent in before they went out) refuse the
            # Record in the engine's words, as a round typed whole is refused.
            out = draft["winner"] if draft else None
            typed_for_out = out in typed and not (draft or {}).get("hands", {}).get(out, {}).get("sent_in")
            if seen and not missing and not typed_for_out:
                raise AssertionError(f"a Record the round allows was refused: {_errors(html)} {self.steps[-6:]}")

    @rule(who=st.sampled_from(RECORDERS), step=st.sampled_from(["undo", "redo"]))
    def history(self, who: str, step: str) -> None:
        phone = self.phones[who]
        status, _html = self._post(phone, {"version": phone.version}, path=f"{step}/")
        self.steps.append(f"{who} {step}: {status}")

    @rule(who=st.sampled_from([*RECORDERS, "watch"]))
    def reload(self, who: str) -> None:
        """The page opened again: a seated phone's own hand, kept on the server as it was typed,
        is in its form; what the phone typed and kept itself (the page's script keeps it in the
        phone's storage) comes back into the fields the page leaves empty."""
        phone = self.phones[who]
        local = dict(phone.typed)
        html = self._reload(phone)
        phone.connected = True
        draft = self._draft()
        if phone.seat is not None and draft and draft["number"] == self._current():
            kept = draft["hands"].get(NAMES[phone.seat])
            if kept and not kept["sent_in"] and kept["cards"]:
                shown = _hidden_field(html, f"hand-{phone.seat}") or ""
                assert shown.split() == kept["cards"], (shown, kept, self.steps[-6:])
        for seat, cards in local.items():
            phone.typed.setdefault(seat, cards)

    @rule(who=st.sampled_from([*RECORDERS, "watch"]))
    def drop_connection(self, who: str) -> None:
        """The stream drops: this phone misses the pushes until it reconnects (a reload, or the
        stream's own retry: the fetch then asks for everything since the version it saw)."""
        self.phones[who].connected = False

    @rule(who=st.sampled_from([*RECORDERS, "watch"]))
    def reconnect(self, who: str) -> None:
        self.phones[who].connected = True

    # --- after every step -------------------------------------------------------------------
    @invariant()
    def every_phone_shows_the_round_the_server_holds(self) -> None:
        game = self._game()
        current = len(game["rounds"]) + 1
        draft = self._draft()
        in_progress = draft if draft is not None and draft["number"] == current else None
        for phone in self.phones.values():
            if not phone.connected:
                continue
            self._push(phone)
            where = (phone.key, self.steps[-6:])
            if current <= self.rules.last_round:
                assert phone.shown_round == current, (phone.shown_round, current, *where)
                if phone.records:
                    assert phone.number == current, (phone.number, current, *where)
            if in_progress is None:
                assert phone.line is None, (phone.line, *where)
                continue
            line = phone.line
            assert line is not None, (in_progress, *where)
            for name in NAMES:
                if name == in_progress["winner"]:
                    assert f"{name} went out" in line, (line, in_progress, *where)
                elif name in in_progress["penalties"]:
                    assert f"{name} ✓ {in_progress['penalties'][name]}" in line, (line, in_progress, *where)
                else:
                    assert f"{name} ✓" not in line, (line, in_progress, *where)

    @invariant()
    def the_totals_are_the_engines(self) -> None:
        game = self._game()
        totals = dict.fromkeys(NAMES, 0)
        for rnd in game["rounds"]:
            for score in rnd["scores"]:
                if score["cards"]:
                    cards = parse_cards(" ".join(score["cards"]))
                    assert score["penalty"] == score_hand(self.rules, rnd["number"], cards).points, (rnd, score)
                totals[score["player"]] += score["penalty"]
        standings = self._get(f"/api/games/{self.id}/standings/")
        assert {row["player"]: row["total"] for row in standings["standings"]} == totals


# CI plays 12 sequences of up to 30 steps (about 20 s); ROUND_MODEL_EXAMPLES plays more.
RoundModel.TestCase.settings = settings(
    max_examples=int(os.environ.get("ROUND_MODEL_EXAMPLES", "12")), stateful_step_count=30, deadline=None
)
TestRoundModel = RoundModel.TestCase
