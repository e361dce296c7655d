"""One guard per kind of right, on every view that writes (docs/architecture.md, "Guards and reads"),
and one way to read a game or a club: a missing one answers 404 from the selector itself, to a page
and to the API alike."""

import inspect

import pytest
from django.test import Client
from django.urls import URLPattern, get_resolver
from rest_framework.permissions import SAFE_METHODS
from rest_framework.views import APIView

from scorekeeping.api import permissions
from scorekeeping.api import urls as api_urls
from scorekeeping.errors import NotFound
from scorekeeping.selectors import game_get, game_head
from scorekeeping.selectors.clubs import club_get
from scorekeeping.web import guards
from scorekeeping.web import session as phone
from scorekeeping.web import urls as web_urls

JSON = "application/json"

# The API's writes that need no right: each makes something new, counted by the limit on new
# things (``access.creating``); the sheet import names its club in the body, and checks the
# organiser's token there with ``permissions.club_organised``.
OPEN_API_WRITES = {"api-games", "api-import", "api-import-sheet", "api-clubs", "api-rulesets"}

# The pages that write and need no guard's right: a new game and the imports, counted by the limit
# on new games. (The edit and organiser links are GETs that check the token in their address.)
# Writes anyone may make (each counted by its limit), and the editor's preview (a POST that writes nothing).
OPEN_PAGE_WRITES = {"game-new", "game-import", "game-import-sheet", "house-new", "house-preview", "club-new"}


def _patterns(urlconf):
    """The site's own addresses (the referee's API computes and keeps nothing; the admin is Django's)."""
    for entry in get_resolver(urlconf).url_patterns:
        assert isinstance(entry, URLPattern)
        yield str(entry.pattern), entry


def _api_views():
    for _route, entry in _patterns(api_urls):
        cls = getattr(entry.callback, "cls", None)
        assert cls is not None and issubclass(cls, APIView)
        yield entry.name, cls


def _writes(cls: type[APIView]) -> list[str]:
    return [m for m in ("post", "put", "patch", "delete") if hasattr(cls, m) and m.upper() not in SAFE_METHODS]


def test_every_api_view_that_writes_carries_a_guard():
    writing = {name: cls for name, cls in _api_views() if _writes(cls)}
    assert len(writing) > 15  # the walk found the API
    unguarded = {
        name
        for name, cls in writing.items()
        if not any(
            issubclass(p, (permissions.GameEditToken, permissions.ClubOrganiser)) for p in cls.permission_classes
        )
    }
    assert unguarded == OPEN_API_WRITES


def test_a_game_writes_guard_is_the_edit_token_and_a_clubs_the_organisers():
    for route, entry in _patterns(api_urls):
        cls = entry.callback.cls
        if not _writes(cls) or entry.name in OPEN_API_WRITES:
            continue
        wanted = permissions.GameEditToken if "<game:game_id>" in route else permissions.ClubOrganiser
        assert wanted in cls.permission_classes, entry.name


def test_no_api_view_checks_a_token_itself():
    import scorekeeping.api.clubs
    import scorekeeping.api.games
    import scorekeeping.api.rounds
    import scorekeeping.api.stories

    for module in (scorekeeping.api.clubs, scorekeeping.api.games, scorekeeping.api.rounds, scorekeeping.api.stories):
        source = inspect.getsource(module)
        assert "check_token" not in source and "check_organiser" not in source, module.__name__


def _page_methods(view) -> set[str]:
    """The methods a page answers, as ``require_http_methods`` closes over them (all if it does not)."""
    for cell in inspect.getclosurevars(view).nonlocals.values():
        if isinstance(cell, list | tuple | set) and cell and all(isinstance(m, str) and m.isupper() for m in cell):
            return set(cell)
    return {"GET", "HEAD", "POST"}


API_GUARDS = (permissions.GameEditToken, permissions.ClubOrganiser)  # a right's permission classes


def _guard_of(view):
    """Which guard wraps a page, read from its wrappers' own code (``functools.wraps`` gives each
    the view's name, not its code's): a guard made by ``_guard`` by the right it checks."""
    made = {phone.can_edit: guards.editing, phone.holds_token: guards.holding_token}
    while view is not None:
        code = view.__code__.co_qualname
        if code.startswith("_guard."):
            return made[inspect.getclosurevars(view).nonlocals["allowed"]]
        for guard in (guards.organiser_only, guards.at_open_night):
            if code.startswith(f"{guard.__name__}."):
                return guard
        view = getattr(view, "__wrapped__", None)
    return None


def test_every_page_that_writes_carries_a_guard():
    pages = {entry.name: entry.callback for _route, entry in _patterns(web_urls)}
    writing = {name: view for name, view in pages.items() if "POST" in _page_methods(view)}
    assert {"round-new", "club-draw", "club-night-go"} <= set(writing)
    unguarded = {name for name, view in writing.items() if _guard_of(view) is None}
    assert unguarded == OPEN_PAGE_WRITES
    assert {name: _guard_of(view) for name, view in writing.items() if name not in OPEN_PAGE_WRITES} == {
        "round-new": guards.editing,
        "round-edit": guards.editing,
        "undo": guards.editing,
        "redo": guards.editing,
        "seat": guards.editing,
        "play-again": guards.holding_token,
        "edit-link-replace": guards.holding_token,
        "club-night-me": guards.at_open_night,
        "club-night-go": guards.at_open_night,
        "club-members": guards.organiser_only,
        "club-night-new": guards.organiser_only,
        "club-present": guards.organiser_only,
        "club-draw": guards.organiser_only,
        "club-finish": guards.organiser_only,
        "club-ladder-shown": guards.organiser_only,
    }


# --- the selectors: one read each, 404 in one place ---------------------------------


@pytest.mark.django_db
def test_the_selectors_not_found_is_djangos_404():
    from django.http import Http404

    for read in (lambda: game_head(game_id="nope"), lambda: game_get(game_id="nope"), lambda: club_get(club_id="x")):
        with pytest.raises(NotFound) as caught:
            read()
        assert isinstance(caught.value, Http404)


@pytest.mark.django_db
def test_the_game_head_is_one_query(django_assert_num_queries, django_assert_max_num_queries, client: Client):
    made = client.post("/api/games/", {"players": ["Ana", "Ben"]}, content_type=JSON).json()
    with django_assert_num_queries(1):
        assert game_head(game_id=made["id"]).pk == made["id"]
    with django_assert_max_num_queries(4):
        assert len(game_get(game_id=made["id"]).players.all()) == 2


@pytest.mark.django_db
@pytest.mark.parametrize(
    "path",
    ["/g/nosuchgame/", "/g/nosuchgame/recap/", "/g/nosuchgame/sheet/", "/c/nosuchclub/", "/c/nosuchclub/ladder/"],
)
def test_a_missing_game_or_club_is_a_404_page(client: Client, path: str):
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.django_db
def test_a_missing_game_is_a_404_to_a_page_that_writes(client: Client):
    assert client.post("/g/nosuchgame/rounds/", {}).status_code == 404
    assert client.post("/c/nosuchclub/nights/1/draw/", {}).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/games/nosuchgame/"),
        ("post", "/api/games/nosuchgame/rounds/"),
        ("put", "/api/games/nosuchgame/draft/"),
        ("get", "/api/clubs/nosuchclub/"),
        ("put", "/api/clubs/nosuchclub/members/"),
    ],
)
def test_a_missing_game_or_club_is_a_404_in_the_apis_one_error_shape(client: Client, method: str, path: str):
    response = getattr(client, method)(path, {}, content_type=JSON, headers={"X-Game-Token": "x", "X-Club-Token": "x"})
    assert response.status_code == 404
    body = response.json()
    assert set(body) == {"detail", "errors"} and body["detail"]


@pytest.mark.django_db
def test_a_guard_leaves_a_method_the_view_does_not_answer_to_drf(client: Client):
    """405, not the token's 403: the guard checks only the writes the view answers."""
    made = client.post("/api/games/", {"players": ["Ana", "Ben"]}, content_type=JSON).json()
    assert client.delete(f"/api/games/{made['id']}/undo/").status_code == 405
    assert client.get(f"/api/games/{made['id']}/draft/").status_code == 404  # public read: no round in progress
    assert client.post(f"/api/games/{made['id']}/undo/", {}, content_type=JSON).status_code == 403


@pytest.mark.django_db
def test_the_organisers_page_guard_checks_the_token_before_it_looks_for_the_night(client: Client):
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type=JSON).json()
    draw = f"/c/{made['id']}/nights/999999/draw/"
    assert client.post(draw, {}).status_code == 403  # no organiser's cookie: the night is not looked for
    client.get(f"/c/{made['id']}/join/{made['organiser_token']}/")  # the organiser link keeps the token
    assert client.post(draw, {}).status_code == 404  # no such night: a 404, not a message on the club page
