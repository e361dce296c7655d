"""The players' colours: one per player, kept for the game (and for a club member, across games).

Each colour has a shade for light pages and one for dark pages. The light shade carries white
text at 4.5:1 or more and stands 3:1 or more from the page; the dark shade carries the dark page
colour as text at 4.5:1 and stands 3:1 from dark surfaces (``tests/web/test_colours.py`` measures
both against static/css/app.css, which holds the same values as classes ``pc-<key>``). The hues
were chosen (lightness and hue) so that, as seen with normal sight and simulated protanopia,
deuteranopia and tritanopia, the first six (a full table) differ by a CIELAB distance of 15 or
more and all eight by 10 or more; a colour is never the only sign: the player's name or initial is always beside it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Colour:
    key: str
    name: Promise
    light: str
    dark: str


PALETTE: tuple[Colour, ...] = (
    Colour("blue", _("Blue"), "#006cf0", "#2989ff"),
    Colour("red", _("Red"), "#933215", "#e1572d"),
    Colour("green", _("Green"), "#117446", "#1dc978"),
    Colour("pink", _("Pink"), "#82365d", "#bd61a3"),
    Colour("gold", _("Gold"), "#996b00", "#dfbf20"),
    Colour("indigo", _("Indigo"), "#1f2a99", "#9ea1ff"),
    Colour("purple", _("Purple"), "#874ba5", "#c690da"),
    Colour("brown", _("Brown"), "#ac5953", "#a47850"),
)
KEYS: tuple[str, ...] = tuple(c.key for c in PALETTE)
BY_KEY = {c.key: c for c in PALETTE}
# Colours renamed since: a game exported before reads as its players saw it (the sixth colour was a
# grey-blue "slate", hardly a colour in dark rooms: issue 49).
RENAMED = {"slate": "indigo"}


def current_key(key: str) -> str:
    """A colour's key as it is named now (an older page or an export may name a renamed one)."""
    return RENAMED.get(key, key)


CHOICES = [(c.key, c.name) for c in PALETTE]


def in_seat_order(count: int, wished: Iterable[str | None] = ()) -> list[str]:
    """A colour for each of ``count`` seats: a seat's wish where it is free and known, else the
    first colour of the palette no seat holds (after eight, the palette comes round again)."""
    wishes = list(wished)[:count]
    wishes += [None] * (count - len(wishes))
    chosen: list[str | None] = []
    for wish in wishes:
        chosen.append(wish if wish in BY_KEY and wish not in chosen else None)
    for seat, colour in enumerate(chosen):
        if colour is None:
            free = [k for k in KEYS if k not in chosen]
            chosen[seat] = free[0] if free else KEYS[seat % len(KEYS)]
    return [c for c in chosen if c is not None]


def clashes(colours: Sequence[str]) -> list[str]:
    """The colours two or more seats were given."""
    return sorted({c for c in colours if colours.count(c) > 1}, key=KEYS.index)
