"""The players' colours: one truth (scorekeeping/colours.py) drawn by the stylesheet, each shade
readable on the pages it is drawn on, and a colour given to every player, chosen or in seat order."""

import re
from pathlib import Path

import pytest

from scorekeeping import colours
from scorekeeping.errors import InvalidInput
from scorekeeping.services.games import game_again, game_create

CSS = (Path(__file__).resolve().parents[3] / "static" / "css" / "app.css").read_text()
PAGE = {"light": ("#ffffff", "#f7f5ef"), "dark": ("#1d201d", "#121412")}


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted([luminance(a), luminance(b)], reverse=True)
    return (high + 0.05) / (low + 0.05)


def drawn(scheme: str) -> dict[str, str]:
    """The ``--pc`` of each ``.pc-<key>`` class in the stylesheet, outside or inside the dark block."""
    dark_start = CSS.index("@media (prefers-color-scheme: dark) {\n  :root { --on-pc")
    part = CSS[dark_start : CSS.index("\n}\n", dark_start)] if scheme == "dark" else CSS[:dark_start]
    return dict(re.findall(r"\.pc-([a-z]+) \{ --pc: (#[0-9a-f]{6}); \}", part))


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_stylesheet_draws_the_palette_as_written(scheme):
    assert drawn(scheme) == {c.key: getattr(c, scheme) for c in colours.PALETTE}


@pytest.mark.parametrize("colour", colours.PALETTE, ids=lambda c: c.key)
def test_every_shade_stands_out_from_its_page_and_carries_its_initial(colour):
    for background in PAGE["light"]:
        assert contrast(colour.light, background) >= 3, (colour.key, background)
    assert contrast(colour.light, "#ffffff") >= 4.5  # the initial, white on the colour
    for background in PAGE["dark"]:
        assert contrast(colour.dark, background) >= 3, (colour.key, background)
    assert contrast(colour.dark, "#121412") >= 4.5  # the initial, dark on the colour


# Machado, Oliveira and Fernandes (2009), severity 1.0: linear RGB as a protanope, a deuteranope and
# a tritanope sees it.
SIGHTS = {
    "normal": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.01182, 0.04294, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.3039)),
}


def seen(hex_colour: str, sight: str) -> tuple[float, float, float]:
    """CIELAB (D65) of a colour as the given sight sees it."""
    channels = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    rgb = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    r, g, b = (min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb, strict=True)))) for row in SIGHTS[sight])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


@pytest.mark.parametrize("sight", SIGHTS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_shades_stay_apart_for_every_sight(scheme, sight):
    """A full table's six colours differ by 15 CIELAB units or more, all eight by 10, for normal
    sight and the three common colour-blindnesses (a just noticeable difference is about 2.3)."""
    for count, least in ((6, 15), (8, 10)):
        labs = [(c.key, seen(getattr(c, scheme), sight)) for c in colours.PALETTE[:count]]
        for i, (a, lab_a) in enumerate(labs):
            for b, lab_b in labs[i + 1 :]:
                distance = sum((p - q) ** 2 for p, q in zip(lab_a, lab_b, strict=True)) ** 0.5
                assert distance >= least, (a, b, round(distance, 1))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("colour", colours.PALETTE, ids=lambda c: c.key)
def test_every_shade_is_a_colour_not_a_grey(scheme, colour):
    """Finding (issue 49): in dark mode the sixth player's colour was a grey (#bbc4c9, chroma 6):
    her row, button and chart line read as no one's. Each shade has a CIELAB chroma of 30 or more."""
    _lightness, a, b = seen(getattr(colour, scheme), "normal")
    assert (a * a + b * b) ** 0.5 >= 30, (colour.key, scheme)


@pytest.mark.django_db
def test_a_colour_renamed_is_read_under_its_new_name():
    """Slate became indigo: a game played again, or an import, naming the old key gets the new."""
    game, _token = game_create(
        ruleset="mexican", variants=[], players=["Ana", "Ben"], first_dealer="Ana", colours=["slate", "blue"]
    )
    assert [p.colour for p in game.players.all()] == ["indigo", "blue"]


@pytest.mark.django_db
def test_the_api_reads_a_renamed_colour_as_the_service_does(client):
    body = {"players": ["Ana", "Ben"], "colours": ["slate", "blue"]}
    answer = client.post("/api/games/", body, content_type="application/json")
    assert answer.status_code == 201, answer.content
    assert [p["colour"] for p in answer.json()["players"]] == ["indigo", "blue"]


def test_seats_take_the_palette_in_order_and_a_wish_where_it_is_free():
    assert colours.in_seat_order(3) == ["blue", "red", "green"]
    assert colours.in_seat_order(3, ["green", "green", None]) == ["green", "blue", "red"]
    assert colours.in_seat_order(3, ["mauve", "pink"]) == ["blue", "pink", "red"]
    assert len(set(colours.in_seat_order(8))) == 8
    assert colours.in_seat_order(9)[8] == "blue"  # the ninth seat: the palette comes round


@pytest.mark.django_db
def test_a_game_gives_each_player_a_colour_and_the_next_game_keeps_them():
    game, _token = game_create(
        ruleset="mexican",
        variants=[],
        players=["Ana", "Ben", "Cy"],
        first_dealer="Ana",
        colours=["pink", "blue", "gold"],
    )
    assert [p.colour for p in game.players.all()] == ["pink", "blue", "gold"]
    again, _token = game_again(game=game)
    assert [p.colour for p in again.players.all()] == ["pink", "blue", "gold"]
    plain, _token = game_create(ruleset="mexican", variants=[], players=["Ana", "Ben"], first_dealer="Ana")
    assert [p.colour for p in plain.players.all()] == ["blue", "red"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("given", "field", "words"),
    [
        (["blue", "blue", "gold"], "colours.1", "Ana & Ben have the same colour (Blue)"),
        (["blue", "mauve", "gold"], "colours.1", "Ben: the colour must be one of blue, red"),
        (["blue", 7, "gold"], "colours.1", "Ben: the colour must be one of"),
        (["blue"], "colours", "one colour per player (3), not 1"),
    ],
)
def test_a_wrong_colour_is_refused_by_name_and_makes_no_game(given, field, words):
    from scorekeeping.models import Game

    with pytest.raises(InvalidInput) as caught:
        game_create(ruleset="mexican", variants=[], players=["Ana", "Ben", "Cy"], first_dealer="Ana", colours=given)
    assert words in " ".join(caught.value.errors[field])
    assert not Game.objects.exists()
