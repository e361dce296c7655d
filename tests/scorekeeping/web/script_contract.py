"""The ids and data attributes the scripts in static/js rely on: the one list of them.

A template that drops or renames one of these breaks a script without an error anywhere (the
script finds nothing and does nothing). Each hook names the pages (the states of a page, see
``PAGES`` in tests/scorekeeping/web/test_script_contract.py) that must render it, and the scripts that use it.
The tests check both ways: each page renders its hooks, and every id or data attribute a script
in static/js names (getElementById, a selector, an ``.id ===`` comparison, hasAttribute, dataset)
is listed here or in ``SCRIPT_OWNED``. A new one in a script must be listed here first.

``#name`` is an id; ``#name-*`` an id of that prefix (one per seat, per round); ``data-name`` an
attribute. The vendored library (static/vendor) keeps its own contract: htmx's attributes.
"""

from typing import NamedTuple


class Hook(NamedTuple):
    pages: tuple[str, ...]
    scripts: tuple[str, ...]
    why: str


HOOKS: dict[str, Hook] = {
    # The table and its live updates.
    "#table-body": Hook(("table",), ("page.js", "place.js"), "the body htmx swaps; the offline copy follows it"),
    "#poller": Hook(("table",), ("live.js",), "fetches the changes at each event; its ETag is kept"),
    "#toast": Hook(("table",), ("place.js",), "the notice: placed over the Record bar, dismissed"),
    "#final": Hook(("table", "finished"), ("place.js",), "the finish, scrolled into view when the game ends"),
    "#entry-slot": Hook(("table",), ("live.js", "place.js"), "the entry's out-of-band slot, kept while typing"),
    "#insecure-note": Hook(("table",), ("page.js",), "shown once over plain http"),
    "data-version": Hook(("table",), ("place.js",), "the notice's game version: an older notice is not shown"),
    "data-told": Hook(("live-told",), ("place.js",), "a notice of another phone's change, told once"),
    "data-wake": Hook(("table", "game-room"), ("wake.js",), "the screen stays awake on this page"),
    "data-wake-webm": Hook(("table", "game-room"), ("wake.js",), "the video that keeps it awake over http"),
    "data-wake-mp4": Hook(("table", "game-room"), ("wake.js",), "the same, for Safari"),
    "data-speak": Hook(("table",), ("page.js",), "the announcement read aloud"),
    "data-copy": Hook(
        ("table", "rules-detail", "club-organiser"), ("page.js",), "a Copy button: the selector of its input"
    ),
    "data-share": Hook(
        ("club-organiser", "club-night-results"), ("page.js",), "a Share button: the selector of its link's input"
    ),
    "data-print": Hook(("club-night-results",), ("page.js",), "a Print button: the page's results on paper"),
    "data-live-poller": Hook(("club-night", "club-room", "game-room"), ("live.js",), "a poller other than the table's"),
    # The round entry.
    "#entry": Hook(("table",), ("entry.js", "place.js"), "the entry: its mode, kept in place after Record"),
    "#record-action": Hook(("table",), ("entry.js",), "Record or Send, swapped alone after an event"),
    "#entry-errors": Hook(("table", "refused"), ("entry.js", "place.js"), "the refusal's reasons"),
    "#hand-*": Hook(("table",), ("entry.js",), "a player's hand (the keypad types into it)"),
    "#result-*": Hook(("table", "preview"), ("entry.js",), "a hand's chips and penalty (the preview)"),
    "data-entry": Hook(("table",), ("entry.js", "live.js", "offline.js", "guards.js"), "the entry form"),
    "data-round": Hook(("table", "house-editor"), ("entry.js", "live.js", "editor.js"), "the round entered, edited"),
    "data-mode": Hook(("table",), ("entry.js",), "cards or points"),
    "data-entry-mode": Hook(("table",), ("entry.js",), "the cards/points toggle"),
    "data-tap": Hook(("table",), ("entry.js",), "a keypad key: the card it types"),
    "data-untap": Hook(("refused",), ("entry.js",), "a chip: the card it takes out"),
    "data-remove": Hook(("table",), ("entry.js",), "the label of a chip made by the script"),
    "data-seat": Hook(("table",), ("entry.js",), "a player's block in the entry"),
    "data-holds": Hook(("table-round-7",), ("entry.js",), "a fixed hand size: the keypad moves on when full"),
    "data-hand": Hook(("preview",), ("entry.js",), "the hand a preview answered for"),
    "data-preview": Hook(("table",), ("entry.js",), "a field whose change asks for a preview"),
    "data-step": Hook(("table-contract", "house-editor"), ("entry.js", "editor.js"), "a stepper: its step"),
    "data-for": Hook(("table-contract", "house-editor"), ("entry.js", "editor.js"), "a stepper: its field's id"),
    "data-refused": Hook(("refused",), ("entry.js", "place.js"), "the reasons of a refused Record"),
    "data-rechecked": Hook(("rechecked",), ("entry.js",), "a preview checked as Record would"),
    "data-draft": Hook(("table-draft",), ("entry.js",), "a round in progress: each hand sent in"),
    "data-send-hand": Hook(("table-draft",), ("entry.js",), "Send, with its text for a name"),
    "data-replace-hand": Hook(("table-draft",), ("entry.js",), "Replace, with its text for a name"),
    "data-replaces": Hook(("table-draft", "table-draft-everyone"), ("entry.js",), "a hand another phone sent in"),
    "data-mine": Hook(("table-draft",), ("entry.js",), "the seat of a seated phone's own player"),
    "data-offered": Hook(
        ("table-draft",), ("live.js",), "the hands a seated phone's form offers, told on a live fetch"
    ),
    "data-send-many": Hook(("table-draft",), ("entry.js",), "Send's text when it sends several hands"),
    "data-replace-only": Hook(
        ("table-draft-everyone",), ("entry.js",), "Replace beside Record, on a phone without a seat"
    ),
    # Every page (base.html).
    "data-autosubmit": Hook(("home",), ("page.js",), "the language list submits on change"),
    "data-offline-text": Hook(("home",), ("offline.js",), "the banner's text without a network"),
    "data-unsent-text": Hook(("home",), ("offline.js",), "the banner's text for a round not sent"),
    "data-resend-text": Hook(("home",), ("offline.js",), "the banner's button"),
    # New game, house rules.
    "#new-game": Hook(("new-game",), ("page.js",), "the names: Enter goes on to the next"),
    "#dealer": Hook(("new-game",), ("page.js",), "the dealer list follows the names"),
    "#player-*": Hook(("new-game",), ("page.js",), "a name (its number names its dealer option)"),
    "#house-editor": Hook(("house-editor",), ("editor.js",), "the house-rules form"),
    "#preview-body": Hook(("house-editor",), ("editor.js",), "the preview's scrolling box"),
    "#house-draft": Hook(("house-editor",), ("editor.js",), "the draft the server keeps: a preview sends what changed"),
    "#preview-round-*": Hook(("house-editor",), ("editor.js",), "a round of the preview"),
    "data-min": Hook(("house-editor",), ("editor.js",), "a stepper's field: its least"),
    "data-max": Hook(("house-editor",), ("editor.js",), "a stepper's field: its most"),
}

# Named by the scripts but made or set by them, never rendered by a template.
SCRIPT_OWNED: dict[str, str] = {
    "#offline": "offline.js draws the banner itself",
    "data-state": "offline.js: what its banner says",
    "data-dirty": "entry.js and live.js: the form was typed in",
    "data-asked-pristine": "live.js: what the poller asked",
    "data-double-tap": "guards.js: on <html> while a second tap where Record was is ignored",
}
