"""The server as the start command runs it (``scorekeeping.serve.server``): slow clients, stalled bodies,
a database that is down, and logs without tokens. Each test starts real server processes."""

import http.client
import re
import socket
import ssl
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from scorekeeping.serve import tls
from scorekeeping.serve.network import certificate_hosts
from tests.servers import get as _get
from tests.servers import serving

pytestmark = pytest.mark.once  # real server processes: once in CI, on PostgreSQL

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def sqlite_url(fresh_sqlite):
    return fresh_sqlite  # migrated: the servers here start with migrate=False


def _create_game(port, context=None):
    request = urllib.request.Request(
        f"{'https' if context else 'http'}://127.0.0.1:{port}/api/games/",
        data=b'{"players": ["Ana", "Ben"], "first_dealer": "Ana"}',
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5, context=context) as response:
        import json

        return json.loads(response.read())


@pytest.mark.alone  # measures how long a request waits under load: CI runs it with nothing else
def test_fifty_slow_clients_do_not_starve_the_others(tmp_path, sqlite_url):
    with serving(tmp_path, sqlite_url, migrate=False) as (port, _log):
        game = _create_game(port)
        slow = []
        for _ in range(50):
            sock = socket.create_connection(("127.0.0.1", port))
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            slow.append(sock)
        worst = 0.0
        try:
            for second in range(5):
                for sock in slow:
                    sock.sendall(f"X-Trickle-{second}: 1\r\n".encode())
                for path in ("/healthz", f"/g/{game['id']}/"):
                    start = time.perf_counter()
                    status, _body = _get(port, path)
                    worst = max(worst, time.perf_counter() - start)
                    assert status == 200
                time.sleep(1)
        finally:
            for sock in slow:
                sock.close()
        assert worst < 1.0, f"a request took {worst:.2f} s while 50 clients trickled"


def test_a_stalled_body_is_answered_408(tmp_path, sqlite_url):
    with serving(tmp_path, sqlite_url, migrate=False, workers=1, env={"BODY_TIMEOUT": "1"}) as (port, _log):
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(
                b"POST /api/games/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b'Content-Length: 100\r\n\r\n{"players"'
            )
            sock.settimeout(10)
            start = time.monotonic()
            answer = sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 408 ")
        assert time.monotonic() - start < 5
        assert _get(port, "/healthz")[0] == 200


def test_a_database_that_is_down_answers_503_and_not_ready(tmp_path):
    down = "postgresql://postgres@127.0.0.1:1/nothing"
    with serving(tmp_path, down, workers=1, migrate=False) as (port, log):
        assert _get(port, "/healthz")[0] == 200
        assert _get(port, "/readyz")[0] == 503
        status, body = _get(port, "/api/games/abcdefghijkl/")
        assert status == 503 and b'"errors"' in body
        start = time.monotonic()
        status, body = _get(port, "/games/")
        assert status == 503 and b"cannot reach its database" in body
        assert time.monotonic() - start < 4.5  # the pool's wait (3 s), not the client's patience
        assert "database unavailable: OperationalError" in log.read_text()


def test_the_servers_log_holds_no_token(tmp_path, sqlite_url):
    with serving(tmp_path, sqlite_url, migrate=False, workers=1, env={"LOG_LEVEL": "INFO"}) as (port, log):
        game = _create_game(port)
        _get(port, f"/g/{game['id']}/join/{game['edit_token']}/")
        _get(port, f"/g/{game['id']}/join/{game['edit_token'][:-2]}zz/")
    text = log.read_text()  # the server has stopped: its log is whole
    assert f"/g/{game['id']}/join/[token]/" in text  # the requests were logged, the token cut
    assert game["edit_token"] not in text and game["edit_token"][:-2] not in text
    assert not re.search(r"/join/[A-Za-z0-9_-]{20,}", text)


def test_lan_https_serves_a_certificate_the_phones_can_trust_once(tmp_path, sqlite_url):
    folder = tmp_path / "tls"
    files = tls.ensure(folder, certificate_hosts("0.0.0.0"))
    assert {"127.0.0.1", "localhost"} <= tls.names(files.cert)
    assert (
        oct(files.key.stat().st_mode & 0o777) == "0o600" and oct((folder / "ca.key").stat().st_mode & 0o777) == "0o600"
    )
    # Made once: a second start keeps the authority the phones trust, and the server certificate.
    again = tls.ensure(folder, certificate_hosts("0.0.0.0"))
    assert again.ca.read_bytes() == files.ca.read_bytes() and again.cert.read_bytes() == files.cert.read_bytes()
    # A new address (the laptop joined another network) gets a new server certificate, same authority.
    moved = tls.ensure(folder, [*certificate_hosts("0.0.0.0"), "10.9.8.7"])
    assert "10.9.8.7" in tls.names(moved.cert) and moved.ca.read_bytes() == files.ca.read_bytes()

    trusting = ssl.create_default_context(cafile=str(files.ca))  # a phone with the authority installed
    env = {"LAN_HTTPS": "1", "TLS_DIR": str(folder), "HEADER_TIMEOUT": "2"}
    with serving(tmp_path, sqlite_url, migrate=False, workers=1, env=env, context=trusting) as (port, log):
        status, body = _get(port, "/healthz", context=trusting)
        assert status == 200
        status, body = _get(port, "/ca.crt", context=trusting)
        assert status == 200 and body == files.ca.read_bytes() and b"PRIVATE" not in body
        status, body = _get(port, "/trust/", context=trusting)
        assert status == 200 and tls.fingerprint(files.ca).encode() in body and b'href="/ca.crt"' in body
        # Every cookie a phone gets over the LAN's https is Secure: the grant (session), the token
        # (edit-<id>), the CSRF token, the messages and the language.
        game = _create_game(port, context=trusting)
        cookies = []
        connection = http.client.HTTPSConnection("127.0.0.1", port, context=trusting, timeout=5)
        for path in (f"/g/{game['id']}/join/{game['edit_token']}/", "/"):
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            cookies += response.headers.get_all("Set-Cookie") or []
        csrf = next(c.split(";")[0].split("=", 1)[1] for c in cookies if c.startswith("csrftoken="))
        origin = f"https://127.0.0.1:{port}"
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"csrftoken={csrf}"}
        headers |= {"Referer": f"{origin}/", "Origin": origin}
        connection.request("POST", "/i18n/setlang/", body=f"language=nl&csrfmiddlewaretoken={csrf}", headers=headers)
        response = connection.getresponse()
        response.read()
        cookies += response.headers.get_all("Set-Cookie") or []
        connection.close()
        names = {c.split("=", 1)[0] for c in cookies}
        assert {"sessionid", "messages", f"edit-{game['id']}", "csrftoken", "django_language"} <= names, cookies
        assert all("; Secure" in c for c in cookies), cookies
        with pytest.raises(urllib.error.URLError):  # a phone that does not trust it is warned
            _get(port, "/healthz", context=ssl.create_default_context())
        _plain_http_on_the_https_port_is_sent_to_https(port, trusting)
        assert "Traceback" not in log.read_text(), log.read_text()


def _plain_http_on_the_https_port_is_sent_to_https(port, trusting):
    # A phone that typed http:// gets a redirect to the same address over https, not an empty reply.
    plain = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    plain.request("GET", "/g/12/table/?lang=nl")
    response = plain.getresponse()
    assert response.status == 308, response.read()
    assert response.headers["Location"] == f"https://127.0.0.1:{port}/g/12/table/?lang=nl"
    plain.close()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5, context=trusting) as followed:
        assert followed.status == 200 and followed.url == f"https://127.0.0.1:{port}/healthz"
    # Only to a host the server answers for (ALLOWED_HOSTS), and only what http looks like.
    raw = socket.create_connection(("127.0.0.1", port), timeout=5)
    raw.sendall(b"GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n")
    assert raw.recv(200).startswith(b"HTTP/1.1 400 ")
    raw.close()
    raw = socket.create_connection(("127.0.0.1", port), timeout=5)
    raw.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"y" * 9000)
    assert raw.recv(200).startswith(b"HTTP/1.1 400 ")
    raw.close()
    # A connection that says nothing is closed after HEADER_TIMEOUT (2 s here), like a slow one.
    silent = socket.create_connection(("127.0.0.1", port), timeout=10)
    started = time.monotonic()
    assert silent.recv(10) == b"" and 1.5 < time.monotonic() - started < 6
    silent.close()


def test_keep_alive_connections_stay_open_and_nothing_is_logged_as_an_error(tmp_path, sqlite_url):
    # On Python 3.11, asyncio.wait_for around receive() could swallow the cancellation Django
    # sends its disconnect listener: every response then ended in "Exception in ASGI
    # application" and the keep-alive connection was closed under the client.
    with serving(tmp_path, sqlite_url, migrate=False, workers=1) as (port, log):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        for _ in range(5):
            connection.request("GET", "/healthz")
            response = connection.getresponse()
            assert response.status == 200
            response.read()
            time.sleep(0.2)  # a phone's next request on the open connection comes a moment later
        connection.close()
    assert "Exception in ASGI application" not in log.read_text()  # the server has stopped: its log is whole


def test_a_table_page_and_its_static_files_load_with_no_warning_in_the_log(tmp_path, sqlite_url):
    # WhiteNoise answered static files with a synchronous file iterator, which Django's ASGI
    # handler reads in a thread and warns about ("StreamingHttpResponse must consume synchronous
    # iterators"). ServeStatic's middleware streams them asynchronously: the log stays quiet.
    with serving(tmp_path, sqlite_url, migrate=False, workers=1) as (port, log):
        game = _create_game(port)
        status, html = _get(port, f"/g/{game['id']}/")
        assert status == 200
        assets = sorted(set(re.findall(rb'(?:href|src)="(/static/[^"]+)"', html)))
        assert {b"/static/css/app.css", b"/static/vendor/htmx.min.js", b"/static/js/entry.js"} <= set(assets)
        for asset in assets:
            request = urllib.request.Request(f"http://127.0.0.1:{port}{asset.decode()}")
            request.add_header("Accept-Encoding", "gzip")
            with urllib.request.urlopen(request, timeout=5) as response:
                assert response.status == 200 and response.read(), asset
                assert response.headers["X-Content-Type-Options"] == "nosniff", asset
    lines = log.read_text().splitlines()  # the server has stopped: its log is whole
    assert not [line for line in lines if "Warning" in line or "StreamingHttpResponse" in line]


def _send(port, head: bytes, body: bytes = b"", timeout: float = 10) -> bytes:
    """One raw request (``head`` up to its blank line), the whole answer read back."""
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.settimeout(timeout)
        sock.sendall(head + body)
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer) < answer.index(b"\r\n\r\n") + 4 + _length(answer):
            piece = sock.recv(65536)
            if not piece:
                break
            answer += piece
        return answer


def _length(answer: bytes) -> int:
    found = re.search(rb"(?i)content-length: (\d+)", answer)
    return int(found.group(1)) if found else 0


def _chunked(body: bytes, size: int = 1000) -> bytes:
    pieces = [body[i : i + size] for i in range(0, len(body), size)]
    return b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in pieces) + b"0\r\n\r\n"


def test_a_body_over_its_limit_is_refused_before_it_is_read(tmp_path, sqlite_url):
    spool = tmp_path / "spool"
    spool.mkdir()
    with serving(tmp_path, sqlite_url, migrate=False, workers=1, env={"TMPDIR": str(spool)}) as (port, _log):
        for path, kind in (("/api/games/", "application/json"), ("/api/games/import/sheet/", "multipart/form-data")):
            start = time.monotonic()
            answer = _send(
                port,
                f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: {kind}\r\nContent-Length: 500000000\r\n"
                "Accept-Language: nl\r\n\r\n".encode(),
                b"x" * 100_000,  # the start of the 500 MB: nothing more is sent, nor waited for
            )
            assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
            assert b"Het verzoek is te groot" in answer and b'"detail"' in answer
            assert time.monotonic() - start < 2
        assert list(spool.iterdir()) == []  # nothing spooled to disk
        # A length of 5,001 digits (httptools takes it; int() would not): 400, no 500, no traceback.
        answer = _send(
            port, b"POST /api/games/ HTTP/1.1\r\nHost: x\r\nContent-Length: " + b"0" * 5000 + b"5\r\n\r\nhello"
        )
        assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]
        # The page form is told in words too, not in JSON.
        answer = _send(port, b"POST /games/import/sheet/ HTTP/1.1\r\nHost: x\r\nContent-Length: 9999999\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 413 ") and b"at most 327,680 bytes" in answer
        assert _get(port, "/healthz")[0] == 200


def test_a_chunked_body_is_read_within_its_limit_and_refused_past_it(tmp_path, sqlite_url):
    with serving(tmp_path, sqlite_url, migrate=False, workers=1) as (port, _log):
        head = (
            b"POST /api/games/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        answer = _send(port, head, _chunked(b'{"players": ["Ana", "Ben"], "first_dealer": "Ana"}', size=7))
        assert answer.startswith(b"HTTP/1.1 201 "), answer[:300]
        assert b'"edit_token"' in answer
        huge = b'{"players": ["Ana", "Ben"], "first_dealer": "Ana", "x": "' + b"y" * 3_000_000 + b'"}'
        answer = _send(port, head, _chunked(huge, size=65536))
        assert answer.startswith(b"HTTP/1.1 413 ") and b"at most 2,621,440 bytes" in answer
        assert _get(port, "/healthz")[0] == 200


def test_sqlite_runs_in_wal_mode_and_a_busy_write_answers_429_soon(tmp_path, sqlite_url):
    import sqlite3

    env = {"SQLITE_BUSY_SECONDS": "0.5"}
    with serving(tmp_path, sqlite_url, migrate=False, workers=1, env=env) as (port, log):
        game = _create_game(port)
        path = sqlite_url.removeprefix("sqlite:///")
        holder = sqlite3.connect(path, isolation_level=None)
        assert holder.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        holder.execute("BEGIN IMMEDIATE")  # another writer holds the lock, as at a busy club night
        try:
            start = time.monotonic()
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/api/games/{game['id']}/rounds/",
                data=b'{"number": 1, "winner": "Ana", "points": {"Ben": 5}}',
                headers={"Content-Type": "application/json", "X-Game-Token": game["edit_token"]},
            )
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=10)
            assert refused.value.code == 429 and refused.value.headers["Retry-After"] == "1"
            assert b"try again" in refused.value.read().lower()
            assert time.monotonic() - start < 3
            assert _get(port, f"/api/games/{game['id']}/")[0] == 200  # readers never wait in WAL mode
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 201  # the same write, once the lock is free
        assert "database busy" in log.read_text()
