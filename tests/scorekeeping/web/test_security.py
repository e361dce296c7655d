"""Who may do what, and the headers and escaping that keep a shared game safe."""

import gzip
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

from scorekeeping.config.redaction import redact
from scorekeeping.models import Game, RateLimit, Round
from tests.scorekeeping.web.games import ROUND_1, create
from tests.scorekeeping.web.markup import tags_on_one_line

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]


def test_tokens_are_long_random_and_only_hashed_in_the_database(client):
    a, b = create(client), create(client)
    assert len(a["edit_token"]) >= 43 and a["edit_token"] != b["edit_token"]
    stored = Game.objects.get(pk=a["id"]).edit_token_hash
    assert a["edit_token"] not in stored and len(stored) == 64


def test_the_edit_link_gives_a_phone_the_right_to_record(client):
    game = create(client)
    phone = Client()
    response = phone.get(f"/g/{game['id']}/join/{game['edit_token']}/")
    assert response.status_code == 302 and response["Location"] == f"/g/{game['id']}/"
    assert response["Referrer-Policy"] == "no-referrer"
    html = phone.get(response["Location"]).content.decode()
    assert "Record round 1" in html
    assert (
        phone.post(
            f"/g/{game['id']}/rounds/", {"version": "1", "number": "1", "winner": "0", "hand-1": "4C"}
        ).status_code
        == 302
    )
    assert Round.objects.count() == 1


def test_a_wrong_edit_link_is_refused(client):
    game = create(client)
    phone = Client()
    response = phone.get(f"/g/{game['id']}/join/{game['edit_token'][:-1]}x/")
    assert response.status_code == 403
    assert "This edit link is not right" in response.content.decode()
    assert "Record round 1" not in phone.get(f"/g/{game['id']}/").content.decode()


def test_view_pages_and_reads_never_show_the_token(client):
    game = create(client)
    viewer = Client()
    html = viewer.get(f"/g/{game['id']}/").content.decode()
    assert game["edit_token"] not in html
    assert "Edit link" not in html
    assert viewer.get(f"/api/games/{game['id']}/").json()["edit_url"] is None
    assert game["edit_token"] not in viewer.get(f"/api/games/{game['id']}/history/").content.decode()
    assert game["edit_token"] not in viewer.get(f"/g/{game['id']}/live/").content.decode()


def test_the_api_gives_the_edit_url_only_to_the_token_holder(client):
    game = create(client)
    assert game["edit_url"] == f"http://testserver/g/{game['id']}/join/{game['edit_token']}/"
    assert game["url"] == f"http://testserver/g/{game['id']}/"
    with_token = client.get(f"/api/games/{game['id']}/", headers={"X-Game-Token": game["edit_token"]}).json()
    assert with_token["edit_url"] == game["edit_url"]
    wrong = client.get(f"/api/games/{game['id']}/", headers={"X-Game-Token": "nope"}).json()
    assert wrong["edit_url"] is None


def test_the_edit_links_qr_code_is_served_to_its_phone_only_and_kept_by_no_cache(client):
    from scorekeeping.links import qr_document, qr_svg

    game = create(client)
    phone = Client()
    phone.get(f"/g/{game['id']}/join/{game['edit_token']}/")
    qr_svg.cache_clear()
    page = tags_on_one_line(phone.get(f"/g/{game['id']}/").content.decode())
    address = f"/g/{game['id']}/edit-qr.svg"
    alt = "QR code of the edit link: scan it to score"
    assert f'<img src="{address}" alt="{alt}" width="192" height="192" loading="lazy">' in page
    assert qr_svg.cache_info().currsize == 1  # the view link's code only: no cache holds the token's
    image = phone.get(address)
    assert image.status_code == 200 and image["Content-Type"] == "image/svg+xml"
    assert "no-store" in image["Cache-Control"]
    assert image.content == qr_document(f"http://testserver/g/{game['id']}/join/{game['edit_token']}/")
    assert qr_svg.cache_info().currsize == 1
    assert Client().get(address).status_code == 403  # a phone that follows
    granted_without_cookie = Client()
    granted_without_cookie.get(f"/g/{game['id']}/join/{game['edit_token']}/")
    granted_without_cookie.cookies.pop(f"edit-{game['id']}")
    assert granted_without_cookie.get(address).status_code == 404  # may record, has no link to show
    assert phone.post(address).status_code == 405


def test_the_table_page_carries_no_token_and_is_sent_compressed_the_link_comes_when_asked(client):
    """Issue 49: the recording phone's page held the edit link, so it was kept by no cache and sent
    uncompressed (55-64 KB). The link is now fetched when asked for, kept by no cache, never gzipped."""
    game = create(client)
    phone = Client()
    phone.get(f"/g/{game['id']}/join/{game['edit_token']}/")
    page = phone.get(f"/g/{game['id']}/", HTTP_ACCEPT_ENCODING="gzip")
    assert page["Content-Encoding"] == "gzip" and "no-store" not in page.get("Cache-Control", "")
    assert "private" in page["Cache-Control"]
    html = gzip.decompress(page.content).decode()
    assert game["edit_token"] not in html and 'id="entry"' in html and "Show the edit link" in html
    shown = phone.get(f"/g/{game['id']}/edit-link/show/", HTTP_ACCEPT_ENCODING="gzip", HTTP_HX_REQUEST="true")
    assert (
        shown.status_code == 200 and "no-store" in shown["Cache-Control"] and not shown.has_header("Content-Encoding")
    )
    assert f'value="http://testserver/g/{game["id"]}/join/{game["edit_token"]}/"' in shown.content.decode()
    assert "<html" not in shown.content.decode()  # the row alone, where the button was
    assert f"/join/{game['edit_token']}/" in phone.get(f"/g/{game['id']}/edit-link/show/").content.decode()  # a page
    assert Client().get(f"/g/{game['id']}/edit-link/show/").status_code == 403  # a phone that follows
    without_cookie = Client()
    without_cookie.get(f"/g/{game['id']}/join/{game['edit_token']}/")
    without_cookie.cookies.pop(f"edit-{game['id']}")
    assert without_cookie.get(f"/g/{game['id']}/edit-link/show/").status_code == 404
    assert phone.post(f"/g/{game['id']}/edit-link/show/").status_code == 405


def test_guessing_tokens_is_rate_limited(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "token": (3, 600)}
    game = create(client)
    url = f"/api/games/{game['id']}/rounds/"
    for _ in range(3):
        response = client.post(url, ROUND_1, content_type="application/json", headers={"X-Game-Token": "guess"})
        assert response.status_code == 403
    limited = client.post(url, ROUND_1, content_type="application/json", headers={"X-Game-Token": "guess"})
    assert limited.status_code == 429
    assert "Too many wrong edit tokens from this address: at most 3 in 10 minutes" in limited.json()["detail"]
    assert int(limited["Retry-After"]) > 0
    assert Client().get(f"/g/{game['id']}/join/guess/").status_code == 429
    assert Round.objects.count() == 0
    # A right token is never refused, however many wrong ones the address sent (a stranger on the
    # café's Wi-Fi cannot lock the table out): it records, and counts nothing.
    right = client.post(url, ROUND_1, content_type="application/json", headers={"X-Game-Token": game["edit_token"]})
    assert right.status_code == 201
    assert Client().get(f"/g/{game['id']}/join/{game['edit_token']}/").status_code == 302
    assert RateLimit.objects.get(key="token:127.0.0.1").count == 5


def test_creating_games_is_rate_limited(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "create": (2, 3600)}
    create(client)
    create(client)
    response = client.post("/api/games/", {"players": ["A", "B"]}, content_type="application/json")
    assert response.status_code == 429
    assert "Too many new games" in response.json()["detail"]
    page = client.post("/games/new/", {"ruleset": "mexican", "player": ["A", "B"], "op": "create"})
    assert page.status_code == 429 and "Too many new games" in page.content.decode()
    assert Game.objects.count() == 2
    assert RateLimit.objects.get(key="create:127.0.0.1").count == 2


def test_rate_limits_are_per_address(client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "create": (1, 3600)}
    create(client)
    other = Client(REMOTE_ADDR="10.0.0.2")
    assert other.post("/api/games/", {"players": ["A", "B"]}, content_type="application/json").status_code == 201


def test_security_headers_on_pages(client):
    game = create(client)
    for url in ("/", f"/g/{game['id']}/", "/referee/", "/api/rulesets/"):
        response = client.get(url)
        csp = response["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp and "frame-ancestors 'none'" in csp
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["X-Frame-Options"] == "DENY"
        assert response["Referrer-Policy"] == "same-origin"


def test_pages_have_no_inline_scripts(client):
    game = create(client)
    for url in ("/", "/games/new/", f"/g/{game['id']}/", "/referee/", "/rules/mexican/"):
        html = client.get(url).content.decode()
        assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == [], url
        assert " on" not in re.sub(r"\s+", " ", "".join(re.findall(r"<[^>]+\son\w+=", html)))


def test_names_are_shown_as_text(client):
    evil = "<script>alert(1)</script>"
    game = create(client, names=(evil, "Ben"))
    html = client.get(f"/g/{game['id']}/").content.decode()
    assert evil not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert evil not in client.get("/").content.decode()


def test_forms_need_the_csrf_token():
    csrf_client = Client(enforce_csrf_checks=True)
    response = csrf_client.post("/games/new/", {"ruleset": "mexican", "player": ["A", "B"], "op": "create"})
    assert response.status_code == 403
    assert Game.objects.count() == 0


def test_tokens_are_cut_from_log_lines(client, caplog):
    game = create(client)
    assert (
        redact(f"Forbidden: /g/{game['id']}/join/{game['edit_token']}/") == f"Forbidden: /g/{game['id']}/join/[token]/"
    )
    with caplog.at_level(logging.WARNING, logger="django.request"):
        Client().get(f"/g/{game['id']}/join/wrong-token-123/")
    from scorekeeping.config.redaction import RedactTokens

    lines = []
    for record in caplog.records:
        RedactTokens().filter(record)
        lines.append(record.getMessage())
    assert lines and all("wrong-token-123" not in line for line in lines)


def test_a_poll_of_an_unchanged_game_is_304_with_no_body_in_at_most_two_queries(client, django_assert_max_num_queries):
    game = create(client)
    url = f"/g/{game['id']}/live/"
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"] == '"v1"'
    with django_assert_max_num_queries(2):
        again = client.get(url, headers={"If-None-Match": '"v1"'})
    assert again.status_code == 304 and again.content == b""
    client.post(
        f"/api/games/{game['id']}/rounds/",
        ROUND_1,
        content_type="application/json",
        headers={"X-Game-Token": game["edit_token"]},
    )
    changed = client.get(url, headers={"If-None-Match": '"v1"'})
    assert changed.status_code == 200 and changed["ETag"] == '"v2"'
    html = changed.content.decode()
    assert 'id="scoreboard"' in html and 'hx-swap-oob="true"' in html and "Round 2 of 7" in html


def test_check_deploy_passes_with_the_production_settings_of_the_start_command():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "scorekeeping.config.settings",
        "SECRET_KEY": "x" * 20 + os.urandom(24).hex(),
    }
    for name in ("DJANGO_DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"):  # set for the browser tests, not by the start
        env.pop(name, None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_page_views_of_a_phone_that_did_nothing_write_no_session(client):
    from django.contrib.sessions.models import Session

    game = create(client)
    Session.objects.all().delete()
    for _ in range(50):  # a crawler: no cookies kept between requests
        assert Client().get(f"/g/{game['id']}/").status_code == 200
        assert Client().get("/").status_code == 200
    assert not Session.objects.exists()
    # The phone itself remembers the games it opened: its home page lists them, newest first.
    viewer = Client()
    other = create(client, names=("Cy", "Dee"))
    viewer.get(f"/g/{game['id']}/")
    viewer.get(f"/g/{other['id']}/")
    home = viewer.get("/").content.decode()
    assert home.index(f"/g/{other['id']}/") < home.index(f"/g/{game['id']}/")
    assert not Session.objects.exists()
    # A forged cookie is read as ids only, and no more than thirty of them.
    forged = Client()
    forged.cookies["games"] = " ".join([f"x{i}" for i in range(500)] + ["'; DROP TABLE x;--", game["id"]])
    assert forged.get("/").status_code == 200


def test_expired_sessions_are_deleted_by_the_app_when_a_new_one_is_made(client):
    import datetime as dt

    from django.contrib.sessions.models import Session
    from django.utils import timezone

    game = create(client)
    old = timezone.now() - dt.timedelta(days=1)
    Session.objects.bulk_create(
        [Session(session_key=f"expired{i:033d}", session_data="", expire_date=old) for i in range(40)]
    )
    live = Session.objects.create(
        session_key="live" + "0" * 36, session_data="", expire_date=old + dt.timedelta(days=30)
    )
    assert Client().get(f"/g/{game['id']}/join/{game['edit_token']}/").status_code == 302
    assert set(Session.objects.values_list("session_key", flat=True)) - {live.session_key} != set()
    assert not Session.objects.filter(expire_date__lt=timezone.now()).exists()
    assert Session.objects.filter(pk=live.pk).exists()


def test_a_new_edit_link_revokes_the_old_token_and_every_right_made_from_it(client):
    game = create(client)
    url = f"/g/{game['id']}/"
    keeper, other = Client(), Client()
    keeper.get(f"/g/{game['id']}/join/{game['edit_token']}/")
    other.get(f"/g/{game['id']}/join/{game['edit_token']}/")
    assert "New edit link" in keeper.get(url).content.decode()
    assert Client().post(f"/g/{game['id']}/edit-link/").status_code == 403  # a phone that follows
    assert keeper.get(f"/g/{game['id']}/edit-link/").status_code == 405
    response = keeper.post(f"/g/{game['id']}/edit-link/")
    assert response.status_code == 302 and response["Cache-Control"] == "no-store"
    new_token = response.cookies[f"edit-{game['id']}"].value
    assert new_token != game["edit_token"] and len(new_token) == 43
    page = keeper.get(url).content.decode()
    assert (
        "A new edit link is made" in page
        and f"/join/{new_token}/" in keeper.get(f"{url}edit-link/show/").content.decode()
    )
    # The phone that had joined with the old link follows only; the old link and token are refused.
    assert 'id="entry"' not in other.get(url).content.decode()
    assert other.post(f"/g/{game['id']}/rounds/", {"number": "1", "winner": "0"}).status_code == 403
    assert Client().get(f"/g/{game['id']}/join/{game['edit_token']}/").status_code == 403
    old = {"X-Game-Token": game["edit_token"]}
    assert (
        client.post(
            f"{url.replace('/g/', '/api/games/')}undo/", {}, content_type="application/json", headers=old
        ).status_code
        == 403
    )
    # The new link works on a new phone; the keeper records.
    assert Client().get(f"/g/{game['id']}/join/{new_token}/").status_code == 302
    assert keeper.post(f"/g/{game['id']}/rounds/", {"number": "1", "winner": "0", "hand-1": "4C"}).status_code == 302
    assert Round.objects.count() == 1


def test_the_api_replaces_the_edit_token(client):
    game = create(client)
    path = f"/api/games/{game['id']}/token/"
    assert client.post(path, headers={"X-Game-Token": "guess"}).status_code == 403
    response = client.post(path, headers={"X-Game-Token": game["edit_token"]})
    assert response.status_code == 201 and "no-store" in response["Cache-Control"]
    fresh = response.json()["edit_token"]
    assert fresh != game["edit_token"] and fresh in response.json()["edit_url"]
    assert client.post(path, headers={"X-Game-Token": game["edit_token"]}).status_code == 403
    assert client.post(path, headers={"X-Game-Token": fresh}).status_code == 201


def _played_out(client, game):
    """Every round of a Mexican game of two recorded (the players' list counts finished games)."""
    first, second = (p["name"] for p in game["players"])
    for number in range(1, 8):
        body = {"number": number, "winner": first, "points": {second: 65 if number == 7 else 10}}
        answer = client.post(
            f"/api/games/{game['id']}/rounds/",
            body,
            content_type="application/json",
            headers={"X-Game-Token": game["edit_token"]},
        )
        assert answer.status_code == 201, answer.content
    return game


def test_private_lists_show_each_phone_only_the_games_it_opened(client, settings):
    mine = _played_out(client, create(client, names=("Ana", "Ben")))
    theirs = _played_out(client, create(client, names=("Xavier", "Yolanda")))
    stranger = Client()
    assert f"/g/{theirs['id']}/" in stranger.get("/games/").content.decode()  # a home server lists everything
    settings.PRIVATE_LISTS = True
    for path in ("/games/", "/players/"):
        html = stranger.get(path).content.decode()
        assert f"/g/{theirs['id']}/" not in html and "Xavier" not in html and "Ana" not in html
    viewer = Client()
    viewer.get(f"/g/{mine['id']}/")
    games = viewer.get("/games/").content.decode()
    assert f"/g/{mine['id']}/" in games and f"/g/{theirs['id']}/" not in games
    assert "Games opened on this phone" in games
    players = viewer.get("/players/").content.decode()
    assert "Ana" in players and "Xavier" not in players


@pytest.mark.parametrize(
    "token",
    ["", "x" * 5000, "é\u0301", "\u202e", "0" * 43, "guess'; DROP TABLE scorekeeping_game;--"],
    ids=["empty", "huge", "combining", "bidi", "zeros", "sql"],
)
def test_replacing_the_edit_token_refuses_hostile_tokens_and_changes_nothing(client, token):
    game = create(client)
    before = Game.objects.get(pk=game["id"]).edit_token_hash
    response = client.post(
        f"/api/games/{game['id']}/token/",
        {"edit_token": "mine", "unknown": 10**30},
        content_type="application/json",
        headers={"X-Game-Token": token} if token else {},
    )
    assert response.status_code == 403 and "edit token" in response.json()["detail"]
    assert Game.objects.get(pk=game["id"]).edit_token_hash == before
    assert Client().post(f"/g/{game['id']}/edit-link/", {"token": token}).status_code == 403
    assert Game.objects.get(pk=game["id"]).edit_token_hash == before
