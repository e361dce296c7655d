"""A game's change stream (``/g/<id>/events/``) on real server processes, on SQLite (a watcher per
process) and on PostgreSQL (LISTEN/NOTIFY): two processes on one database, as two machines."""

import contextlib
import json
import os
import re
import signal
import socket
import time
import urllib.error
import urllib.request
from contextlib import contextmanager

import pytest

from tests.servers import copy_of, serving

pytestmark = pytest.mark.once  # real server processes: once in CI


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def kind(request):
    return request.param


@pytest.fixture
def database(kind, request):
    """A migrated database of the test's own, for a server with settings of its own."""
    return request.getfixturevalue(f"fresh_{kind}")


@pytest.fixture(scope="module")
def servers(kind, request, tmp_path_factory):
    """Two server processes (a worker each) on one database, as two machines: started once for
    the tests here that need no settings of their own (each makes games and clubs of its own)."""
    folder = tmp_path_factory.mktemp("live")
    with (
        copy_of(request.getfixturevalue(f"migrated_{kind}"), folder) as url,
        serving(folder, url, workers=1, migrate=False) as (one, _log1),
        serving(folder, url, workers=1, migrate=False) as (other, _log2),
    ):
        yield one, other


def api(port, method, path, body=None, token=None):
    headers = {"Content-Type": "application/json", **({"X-Game-Token": token} if token else {})}
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def new_game(port):
    game = api(port, "POST", "/api/games/", {"players": ["Ana", "Ben"], "first_dealer": "Ana"})
    return game["id"], game["edit_token"], game["version"]


def record(port, game_id, token, number):
    body = {"number": number, "winner": "Ana", "hands": {"Ben": "5C"}}
    return api(port, "POST", f"/api/games/{game_id}/rounds/", body, token)


class Stream:
    """An EventSource's side of the wire: raw HTTP/1.1, blocks read as they arrive."""

    def __init__(self, port, game_id, headers=None, query="", source="127.0.0.1", path=None):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        path = path or f"/g/{game_id}/events/"
        request = f"GET {path}{query} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n{extra}\r\n"
        self.sock.sendall(request.encode())
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1])
        self.head = head.decode("latin-1").lower()

    def _fill(self, enough, deadline):
        while not enough():
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError(self.buffer)
            self.buffer += chunk

    def _until(self, marker, timeout=10.0):
        self._fill(lambda: marker in self.buffer, time.monotonic() + timeout)
        found, _sep, self.buffer = self.buffer.partition(marker)
        return found

    def block(self, timeout=10.0):
        """The next SSE block (chunked framing stripped): comments and fields, as text."""
        deadline = time.monotonic() + timeout
        text = ""
        while "\n\n" not in text:
            size = int(self._until(b"\r\n", deadline - time.monotonic()), 16)
            if size == 0:
                raise EOFError(text)
            self._fill(lambda size=size: len(self.buffer) >= size + 2, deadline)
            text += self.buffer[:size].decode()
            self.buffer = self.buffer[size + 2 :]
        return text

    def events(self, timeout=10.0):
        """Blocks until one with an event in it; the whole text read."""
        text = ""
        while "event: change" not in text:
            text += self.block(timeout)
        return text

    def close(self):
        self.sock.close()


@contextmanager
def stream(port, game_id, **kwargs):
    s = Stream(port, game_id, **kwargs)
    try:
        yield s
    finally:
        s.close()


def test_a_round_recorded_through_one_process_reaches_a_stream_opened_on_another(servers):
    one, other = servers
    game_id, token, version = new_game(one)
    with stream(other, game_id) as s:
        assert s.status == 200 and "content-type: text/event-stream" in s.head
        assert "x-accel-buffering: no" in s.head and "cache-control: no-cache" in s.head
        first = s.block()
        assert "retry: 2000" in first
        if f"id: {version}" not in first:
            assert f"id: {version}" in s.block()  # where the client stands, without an event
        # From its first block on the stream hears every change: the first round comes at once.
        delays = []
        for number in (1, 2, 3):
            started = time.monotonic()
            game = record(one, game_id, token, number)
            text = s.events()
            delays.append(time.monotonic() - started)
            assert f"id: {game['version']}" in text and f"data: {game['version']}" in text
        # From the write's request to the event on the other process (the commit is inside it).
        assert max(delays) < 1.0, delays


def test_each_step_of_a_round_in_progress_reaches_the_streams_of_every_process(servers):
    """A round scored hand by hand (issue 15): starting it and each hand sent in are events on
    another process's stream, numbered by the live version; the game's version stays put."""
    one, other = servers
    game_id, token, version = new_game(one)
    with stream(other, game_id) as s:
        s.block()  # from here on it hears every change
        draft = f"/api/games/{game_id}/draft/"
        api(one, "PUT", draft, {"number": 1, "winner": "Ana"}, token)
        assert f"id: {version + 1}" in s.events(timeout=2)
        api(one, "PUT", draft + "hands/Ben/", {"cards": "5C"}, token)
        assert f"id: {version + 2}" in s.events(timeout=2)
        assert api(one, "GET", f"/api/games/{game_id}/")["version"] == version
        game = api(one, "POST", draft + "record/", {}, token)
        assert game["version"] == version + 1 and f"id: {version + 3}" in s.events(timeout=2)


def test_reconnecting_with_last_event_id_gets_what_it_missed_at_once(servers):
    port, _other = servers
    game_id, token, version = new_game(port)
    game = record(port, game_id, token, 1)
    with stream(port, game_id, headers={"Last-Event-ID": str(version)}) as s:
        assert f"id: {game['version']}" in s.events(timeout=2)
    with stream(port, game_id, query=f"?v={version}") as s:  # the page's first connection
        assert f"id: {game['version']}" in s.events(timeout=2)
    with stream(port, game_id, headers={"Last-Event-ID": str(game["version"])}) as s:
        assert "event:" not in s.block(timeout=2)  # up to date: nothing to say yet
    with stream(port, "nosuchgame") as s:
        assert s.status == 404


def test_the_stream_sends_a_heartbeat_and_ends_cleanly_when_the_server_stops(tmp_path, database):
    env = {"LIVE_HEARTBEAT": "0.5"}
    with serving(tmp_path, database, workers=1, migrate=False, env=env) as (port, log):
        game_id, _token, _version = new_game(port)
        with stream(port, game_id) as s:
            s.block()
            assert ": keep-alive" in s.block(timeout=2) + s.block(timeout=2)
            master = int(re.search(r"\[(\d+)\] \[INFO\] Listening at", log.read_text())[1])
            os.kill(master, signal.SIGTERM)
            ended = time.monotonic()
            text = ""
            with pytest.raises(EOFError):
                while True:
                    text += s.block(timeout=5)
            assert ": closing" in text and "retry: 500" in text
            assert time.monotonic() - ended < 5  # not the 10 s graceful timeout: the stream ended itself


def test_only_get_and_head(servers):
    port, _other = servers
    game_id, _token, _version = new_game(port)
    request = urllib.request.Request(f"http://127.0.0.1:{port}/g/{game_id}/events/", method="HEAD")
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status == 200 and response.headers["Content-Type"].startswith("text/event-stream")
    request = urllib.request.Request(f"http://127.0.0.1:{port}/g/{game_id}/events/", data=b"", method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert refused.value.code == 405 and refused.value.headers["Allow"] == "GET, HEAD"


def test_one_address_may_hold_only_so_many_streams(tmp_path, database):
    with serving(tmp_path, database, workers=1, migrate=False, env={"LIVE_STREAMS_PER_CLIENT": "2"}) as (port, _log):
        game_id, _token, _version = new_game(port)
        with stream(port, game_id) as one, stream(port, game_id) as two:
            assert one.status == two.status == 200
            with stream(port, game_id) as three:
                assert three.status == 429 and "retry-after: 30" in three.head
        # Both closed: once the server has seen them go, the address may open streams again.
        deadline = time.monotonic() + 5
        while True:
            with stream(port, game_id) as again:
                if again.status == 200:
                    break
            assert time.monotonic() < deadline, "two closed streams still count against the address"
            time.sleep(0.02)  # polling a condition: the server sees a closed stream go by itself


def test_a_club_nights_phones_behind_one_router_are_not_held_to_one_addresss_share(tmp_path, database):
    """A club evening: every member's phone on the night's page, all behind the club's router.
    The night is held to a game's cap (and the address to its overall share), not to one
    address's share of one game, which a game's own stream still is."""
    env = {"LIVE_STREAMS_PER_CLIENT": "2", "LIVE_STREAMS_PER_GAME": "4"}
    with serving(tmp_path, database, workers=1, migrate=False, env=env) as (port, _log):
        club = api(port, "POST", "/api/clubs/", {"name": "De Joker"})
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/clubs/{club['id']}/nights/",
            json.dumps({"sittings": 1}).encode(),
            {"Content-Type": "application/json", "X-Club-Token": club["organiser_token"]},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            night = json.loads(response.read())
        path = f"/c/{club['id']}/nights/{night['id']}/events/"
        with contextlib.ExitStack() as phones:
            opened = [phones.enter_context(stream(port, None, path=path)) for _ in range(4)]
            assert [s.status for s in opened] == [200] * 4  # past the 2 one address holds on a game
            with stream(port, None, path=path) as fifth:
                assert fifth.status == 429  # the night's own cap (a game's: 4 here)
        game_id = new_game(port)[0]
        with stream(port, game_id) as one, stream(port, game_id) as two, stream(port, game_id) as three:
            assert (one.status, two.status, three.status) == (200, 200, 429)


def test_one_game_and_one_process_may_hold_only_so_many_streams(tmp_path, database):
    env = {"LIVE_STREAMS_PER_GAME": "3", "LIVE_STREAMS_MAX": "5", "LIVE_STREAMS_PER_ADDRESS": "5"}
    with serving(tmp_path, database, workers=1, migrate=False, env=env) as (port, _log):
        busy, quiet = new_game(port)[0], new_game(port)[0]
        # Three phones at three addresses on one game; a fourth, from yet another address, is refused.
        with (
            stream(port, busy, source="127.0.0.2") as a,
            stream(port, busy, source="127.0.0.3") as b,
            stream(port, busy, source="127.0.0.4") as c,
        ):
            assert a.status == b.status == c.status == 200
            with stream(port, busy, source="127.0.0.5") as d:
                assert d.status == 429 and "retry-after: 30" in d.head
            # Another table is not touched by the crowd on the first; the process's own cap is 5.
            with stream(port, quiet) as e, stream(port, quiet) as f:
                assert e.status == f.status == 200
                with stream(port, quiet) as g:
                    assert g.status == 503 and "retry-after: 30" in g.head
                assert urllib.request.urlopen(f"http://127.0.0.1:{port}/g/{quiet}/", timeout=5).status == 200


def test_a_club_nights_stream_hears_its_draws_and_every_round_at_its_tables(servers):
    """The room screen follows the night: a draw, and a round recorded at one of its tables."""
    port, _other = servers
    club = api(port, "POST", "/api/clubs/", {"name": "De Joker"})
    headers = {"Content-Type": "application/json", "X-Club-Token": club["organiser_token"]}

    def organiser(method, path, body):
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/clubs/{club['id']}{path}",
            json.dumps(body).encode(),
            headers,
            method=method,
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    night = organiser("POST", "/nights/", {"sittings": 2})
    organiser("PUT", f"/nights/{night['id']}/present/", {"names": ["Ana", "Ben", "Cy", "Dee"]})
    path = f"/c/{club['id']}/nights/{night['id']}/events/"
    with stream(port, None, path=path) as seen:
        assert seen.status == 200
        first = seen.block()
        version = int(re.search(r"id: (\d+)", first).group(1))
        table = organiser("POST", f"/nights/{night['id']}/sittings/", {})["tables"][0]
        assert f"id: {version + 1}" in seen.events()  # the draw
        token = re.search(r"/join/([^/]+)/$", table["game"]["edit_url"]).group(1)
        winner, *others = table["players"]
        body = {"number": 1, "winner": winner, "points": dict.fromkeys(others, 5)}
        api(port, "POST", f"/api/games/{table['game']['id']}/rounds/", body, token)
        assert "event: change" in seen.events()  # a round at one of its tables
    with stream(port, None, path=f"/c/{club['id']}/nights/999/events/") as missing:
        assert missing.status == 404
