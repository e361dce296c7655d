"""English, Dutch and Spanish: complete catalogues, the language follows the browser and sticks."""

import io
from pathlib import Path

import polib
import pytest
from django.conf import settings

from referee.engine import Card, find_rules

ROOT = Path(__file__).resolve().parents[1]
# Every language the site offers but the one its messages are written in: a language added to
# settings.LANGUAGES is checked here with no edit to this file.
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def test_the_languages_checked_are_those_offered_and_those_catalogued():
    """Each language offered has a catalogue and each catalogue is offered (none skips the checks below)."""
    catalogued = sorted(p.parent.parent.name for p in ROOT.glob("locale/*/LC_MESSAGES/django.po"))
    assert sorted(LANGUAGES) == catalogued
    assert LANGUAGES


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_in_the_catalogue_is_translated(language):
    po = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    untranslated = [e.msgid for e in po if not e.translated() or "fuzzy" in e.flags]
    assert untranslated == []
    assert len(po) > 400


KEYWORDS = {
    "_": None,
    "gettext": None,
    "gettext_lazy": None,
    "gettext_noop": None,
    "N_": None,
    "ngettext": (1, 2),
    "ngettext_lazy": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}


def _source_messages():
    """Every message the code and templates ask for, as (context, id), extracted in Python:
    Babel's Python extractor, over Django's own rendering of a template into gettext calls."""
    from babel.messages.extract import extract_python
    from django.utils.translation.template import templatize

    found = set()
    sources = [*ROOT.glob("referee/**/*.py"), *ROOT.glob("scorekeeping/**/*.py")]
    templates = [p for p in ROOT.glob("templates/**/*") if p.suffix in (".html", ".txt", ".webmanifest")]
    for path in sources + templates:
        text = path.read_text()
        if path in templates:
            # templatize writes gettext calls among filler that xgettext reads; Python's tokenizer
            # wants no stray indentation.
            text = "\n".join(line.strip() for line in templatize(text, origin=str(path)).splitlines())
        for _line, _function, message, _comments in extract_python(io.BytesIO(text.encode()), KEYWORDS, [], {}):
            parts = message if isinstance(message, tuple) else (message,)
            context = None
            if _function in ("pgettext", "npgettext"):
                context, parts = parts[0], parts[1:]
            if parts and parts[0]:
                found.add((context, parts[0]))
    return found


def test_every_string_in_the_code_and_templates_is_in_the_catalogues():
    """Extract the messages afresh from the sources: none may be missing from a catalogue or untranslated."""
    asked = _source_messages()
    assert len(asked) > 400
    for language in LANGUAGES:
        po = _catalogue(language)
        translated = {(e.msgctxt, e.msgid) for e in po if e.translated() and "fuzzy" not in e.flags}
        missing = sorted(asked - translated, key=str)
        assert missing == [], f"{language}: {missing[:10]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_keeps_its_placeholders(language):
    """A translation names exactly the placeholders of its message (what msgfmt --check-format checked)."""
    import re

    def names(text):
        return sorted(set(re.findall(r"\{(\w+)(?:![rs])?\}|%\((\w+)\)s", text)))

    wrong = [
        (e.msgid, s)
        for e in _catalogue(language)
        for s in _translations(e)
        if names(s) != names(e.msgid) and not (e.msgid_plural and names(s) == names(e.msgid_plural))
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("language", "card", "wilds", "contract"),
    [
        ("en", "Seven of clubs", "Fours and jokers are wild", "1 book of 3+ and 1 run of 4+"),
        ("nl", "Klaveren zeven", "Vieren en jokers zijn wild", "1 drieling van 3+ en 1 reeks van 4+"),
        ("es", "Siete de tréboles", "Los cuatros y los jokers son comodines", "1 grupo de 3+ y 1 escalera de 4+"),
    ],
)
def test_the_engine_speaks_the_active_language(language, card, wilds, contract):
    from django.utils import translation

    with translation.override(language):
        assert Card.parse("7C").name == card
        assert find_rules().wild_words(2) == wilds
        assert find_rules().contract_words(2) == contract


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "expected"),
    [("nl-NL,nl;q=0.9,en;q=0.5", "Begin een spel"), ("es-ES,es;q=0.8", "Empezar una partida"), ("fr", "Start a game")],
)
def test_the_language_follows_the_browser(client, accept, expected):
    html = client.get("/", HTTP_ACCEPT_LANGUAGE=accept).content.decode()
    assert expected in html


@pytest.mark.django_db
def test_the_chosen_language_sticks(client):
    response = client.post("/i18n/setlang/", {"language": "es", "next": "/rules/"})
    assert response.status_code == 302 and response["Location"] == "/rules/"
    html = client.get("/rules/mexican/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Rummy mexicano" in html and 'lang="es"' in html


@pytest.mark.django_db
def test_api_errors_are_in_the_language_asked_for(client):
    response = client.post(
        "/api/referee/check/",
        {"round": 2, "action": "open", "melds": ["7C 7D 4H", "QS KS AS 2S"]},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert "zou om de aas heen lopen (H-A-2)" in response.json()["reasons"][0]


def test_the_engine_speaks_english_on_its_own_and_what_is_bound_inside_a_block():
    from referee.engine import i18n

    class Recording:
        def __init__(self):
            self.asked = []

        def gettext(self, message):
            self.asked.append(message)
            return {"seven": "SEVEN"}.get(message, message)

        def ngettext(self, singular, plural, n):
            self.asked.append(plural)
            return singular if n == 1 else plural

        def pgettext(self, context, message):
            self.asked.append(f"{context}|{message}")
            return message

    assert i18n.ENGLISH.gettext("{rank} of {suit}") == "{rank} of {suit}"
    assert i18n.ENGLISH.ngettext("one", "many", 2) == "many"
    recording = Recording()
    with i18n.translating(recording):
        assert Card.parse("7C").name == "SEVEN of clubs"
        with i18n.translating(i18n.ENGLISH):
            assert Card.parse("7C").name == "Seven of clubs"
        assert i18n.ngettext("one", "many", 1) == "one"
    assert recording.asked == ["{rank} of {suit}", "seven", "clubs", "many"]
    assert Card.parse("7C").name == "Seven of clubs"  # unbound again: the installed default


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "name"), [("nl", "Klaveren zeven"), ("es", "Siete de tréboles"), ("en", "Seven of clubs")]
)
def test_each_request_speaks_its_own_language(client, accept, name):
    from django.utils import translation

    response = client.post(
        "/api/referee/score/", {"round": 2, "cards": "7C"}, content_type="application/json", HTTP_ACCEPT_LANGUAGE=accept
    )
    assert response.json()["cards"][0]["name"] == name
    with translation.override("en"):  # nothing the request bound outlives it
        assert Card.parse("7C").name == "Seven of clubs"


# --- one word per concept, and sentences without unfilled plurals or articles -------------

GLOSSARY = ROOT / "locale" / "glossary.toml"


def _catalogue(language):
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def _translations(entry):
    return [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())


def _glossary_terms():
    import tomllib

    glossary = tomllib.loads(GLOSSARY.read_text())
    return [
        pytest.param(language, name, term, id=f"{language}-{name}")
        for language in glossary
        for name, term in glossary[language].items()
    ]


@pytest.mark.parametrize(("language", "name", "term"), _glossary_terms())
def test_each_concept_has_one_word(language, name, term):
    import re

    po = _catalogue(language)
    by_id = {e.msgid: e for e in po if not e.msgctxt}
    for msgid, expected in term.get("messages", {}).items():
        assert by_id[msgid].msgstr == expected, (msgid, by_id[msgid].msgstr)
    for pattern in term.get("avoid", []):
        found = [(e.msgid, s) for e in po for s in _translations(e) if re.search(pattern, s, re.IGNORECASE)]
        assert found == [], f"{name}: {term['use']} — {pattern!r} found"
    for pattern in term.get("avoid_elsewhere", []):
        found = [
            e.msgid
            for e in po
            if e.msgid not in term["only_in"] and any(re.search(pattern, s) for s in _translations(e))
        ]
        assert found == [], f"{name}: {pattern!r} outside {term['only_in']}"


COUNTS = {  # placeholders that count; {k} (a contract's parts) and {most} (a limit) are never followed by a noun at 1
    "n", "count", "m", "buys", "total", "need", "cap", "parts", "limit", "least", "stock", "span",
    "missing", "minutes",
}  # fmt: skip
# Messages whose count can never be 1 (or 0), so a plural noun after it is always right.
NEVER_ONE = {
    "{count} melds were given; the contract of {where} has {parts}": "more than 8 melds",
    "{meld} has {n} cards; the contract asks for {wanted}": "a meld read as a book or run has 3+",
    "{n} cards are more than a hand holds in {where}: at most {cap} after the draw ({dealt} dealt, 1 drawn)": "8+",
    "{n} cards are every card a hand holds in {where} after the draw, leaving none to discard: "
    "the {word} is won by discarding the last card, so keep one back": "8+",
    "a {run} holds at most 13 cards; {meld} would hold {n}": "14+",
    "{contract} takes {need} cards and one more must stay in hand to discard; the hand has {n}": "6+",
    "these {n} cards cannot all be laid in {contract}": "the final round's exact hand size, 12+",
    "no way was found to lay these {n} cards in {contract}, but not every way was tried (runs that go all round "
    "a suit, or other places for the wilds the table's limits ask): lay out the melds you have in mind and "
    "check them as go out": "a final round's hand: dealt and drawn, 2+",
    "In {where} {name} holds exactly {n} cards, which score from {low} to {high}: {value} is not a total "
    "they can make": "12+",
    "In {where} {name} holds {least} to {n} cards, which score from {low} to {high}: {value} is not a "
    "total they can make": "7+",
    "{name} holds {n} cards, but could hold at most {most} ({dealt} dealt)": "more than the deal, 8+",
    "{n} cards are more than a hand holds in {where}: at most {cap} after the draw ({dealt} dealt, 1 "
    "drawn and 2 for each of {buys} buy)": "8+",
    "{name} holds {n} cards, but could hold at most {most} ({dealt} dealt and {buys} buy)": "8+",
    "{name}… is too long: names have at most {n} characters": "30",
    "{cards} spans {span} ranks ({low} to {high}), too far apart for a run of {n} cards: {gaps} but "
    "{wilds}": "4+ cards",
    "The request is too large: at most {size} bytes are accepted.": "megabytes",
    "Too many new games from this address: at most {count} in {minutes} minutes.": "an hour",
    "Too many wrong passwords from this address: at most {count} in {minutes} minutes.": "ten minutes",
    "Too many wrong edit tokens from this address: at most {count} in {minutes} minutes.": "ten minutes",
    "{word} {number} of {last}. Give each player {dealt} cards. {wilds}. Contract: {contract}. "
    "{dealer} deals, {first} starts. {stock} cards in the stock.": "7+ dealt, a stock of 20+",
    "the contract needs {need} cards; a hand holds at most {most}": "a contract is 6+ cards",
    "{players} players of {dealt} cards and the upcard need {need} cards; the deck holds {size}": "2+ players",
    "a book needs at least {least} cards; {cards} has {n}": "books.min is 3+",
    "a run needs at least {least} cards; {cards} has {n}": "runs.min is 3+",
    "{contract} takes {need} cards; the hand has {n}": "6+",
    "Too many house rulesets saved from this address: at most {count} in {minutes} minutes.": "an hour",
    "Too many tables drawn for this club's maker: at most {count} in {minutes} minutes.": "minutes",
}
PLURAL_NOUN_AFTER_ONE = (
    r"\b1 (cards|gaps|wilds|buys|points|melds|jokers|minutes|kaarten|gaten|wilde kaarten|aankopen|punten|meldingen"
    r"|cartas|huecos|comodines|compras|puntos|combinaciones)\b"
)


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_no_sentence_has_an_unfilled_plural_or_a_placeholder_article(language):
    """Every brace-format message rendered with its counts at 0, 1 and 2, in each language."""
    import re

    from django.utils import translation

    po = _catalogue("nl")  # the message ids; rendered through the language's own catalogue
    checked = 0
    for entry in po:
        if "python-brace-format" not in entry.flags:
            continue
        names = set(re.findall(r"\{(\w+)(?:![rs])?\}", entry.msgid + entry.msgid_plural))
        for count in (0, 1, 2):
            values = {name: (count if name in COUNTS else "X") for name in names}
            with translation.override(language):
                if entry.msgid_plural:
                    template = translation.ngettext(entry.msgid, entry.msgid_plural, count)
                elif entry.msgctxt:
                    template = translation.pgettext(entry.msgctxt, entry.msgid)
                else:
                    template = translation.gettext(entry.msgid)
            text = template.format(**values)
            checked += 1
            assert not re.search(r"[{}]", text), (entry.msgid, text)
            assert not re.search(r"\((a|s|e|es|en)\)|un\(a\)", text), (entry.msgid, text)
            assert not re.search(r"\b(\w+) \1\b", text.replace("X X", "")), (entry.msgid, text)
            if count == 1 and entry.msgid not in NEVER_ONE:
                assert not re.search(PLURAL_NOUN_AFTER_ONE, text), (entry.msgid, text)
    assert checked > 300


@pytest.mark.parametrize("language", ["nl", "es"])
def test_identities_and_round_words_read_whole_in_a_sentence(language):
    """Issue 23: every message that takes a wild's identity or a round's word, filled with real
    values the way the code fills them (a round word may come capitalised), has its article and
    no capital after a colon."""
    import re

    from django.utils import translation

    from referee.engine import Identity, find_rules
    from referee.engine.cards import Suit
    from referee.engine.i18n import capfirst

    from .referee.engine.verdicts import swap

    with translation.override(language):
        identity = Identity(7, Suit.HEARTS).name
        if language == "es":
            assert identity == "el siete de corazones"
            verdict = swap("mexican", ["wild-swap"], 2, "7C 7D 4H=7S", "7H")
            assert "el siete de corazones" in verdict.reasons[0]
        else:
            assert identity == "harten zeven"
        words = []
        for slug in ("mexican", "contract"):
            rules = find_rules(slug)
            name = rules.round_name(3)
            words += [capfirst(translation.gettext(rules.round_word)), name, capfirst(name)]
        po = _catalogue(language)
        checked = 0
        for entry in po:
            if not any(p in entry.msgid for p in ("{word}", "{where}", "{identity}")):
                continue
            for text in _translations(entry):
                for word in words:
                    filled = re.sub(r"\{word\}|\{where\}", word, text).replace("{identity}", identity)
                    filled = re.sub(r"\{[a-z_]+(![rs])?\}", "7", filled)
                    checked += 1
                    assert not re.search(r": [A-ZÁÉÍÓÚÑ][a-záéíóúñ]", filled), (entry.msgid, filled)
        assert checked > 50


# --- a round's name in every ruleset (issue 53) ----------------------------------------------

# Where a round's name goes (``rules.round_name``: "la ronda 3", "el reparto 3", "ronde 3").
ROUND_NAMED = ("where", "next", "found")
# The messages whose round name or word the code gives a capital (``capfirst``): the notices told
# to the other phones (changes.change_told), the waiting and in-progress titles, the recap's
# deciding round, the history's lines, the Read-aloud announcement, the table's title; they are
# read both ways. Every other one is read as the code fills it, lower-case (a fault begins so).
CAPITALISED = {
    "{where} recorded by {name}'s phone.",
    "{where} corrected by {name}'s phone.",
    "{where}: a change undone by {name}'s phone.",
    "{where} recorded on another phone.",
    "{where} corrected on another phone.",
    "{where}: a change undone on another phone.",
    "{where} is waiting",
    "{where} in progress",
    "{where} decided it, at the very end.",
    "{where} decided it: {names} led from there to the end.",
    "{round}: hands of {n}; {wilds}; {contract}.",
    "{word} {number}: {contract}",
    "{word} {number} recorded: {name} went out",
    "{word} {number} recorded: no one went out",
    "{word} {number} corrected",
    "{word} {number} recorded.",
    "{word} {number} saved.",
    "{word} {number} of {last}. Give each player {dealt} cards. {wilds}. Contract: {contract}. {dealer} deals, "
    "{first} starts. {stock} cards in the stock.",
    "%(word)s %(n)s",
    "%(word)s %(n)s of %(last)s",
}
# {last} and {round} name a round in these messages only; elsewhere a number, a rank, the word.
LAST_NAMES_A_ROUND = {
    "{found} is out of order here: {next} comes after {last}",
    "{where} of {name} has no go-out layout: it is won by discarding the last card; only {last} is won by laying "
    "the whole hand down",
}
ROUND_NAMES_A_ROUND = {"{round} is not played.", "{round}: hands of {n}; {wilds}; {contract}."}
# {word} (and %(word)s) is the round's word alone ("ronda", "reparto"), except where it names a meld's kind.
WORD_IS_NOT_A_ROUND = {"{meld} is not {word} either: {why}"}
_PARTICIPLES = "(corregid|anotad|registrad|guardad|terminad|jugad|empezad|deshech)"
_SPANISH_MISMATCHES = [
    r"\b(de|a) el\b",  # del, al
    r"\b(la|las|una|esta|primera|última|cada una)\s+repartos?\b",
    r"\b(el|los|un|este|primer|último)\s+rondas?\b",
    rf"\breparto \d+:? {_PARTICIPLES}as?\b",  # "El reparto 3: corregida"
    rf"\bronda \d+:? {_PARTICIPLES}os?\b",
]


def _round_forms(language):
    """Each ruleset's round name and word, as the code fills them, lower-case and capitalised."""
    from django.utils import translation

    from referee.engine import RULESETS
    from referee.engine.i18n import capfirst

    with translation.override(language):
        return {
            slug: {"name": rules.round_name(3), "word": translation.gettext(rules.round_word)}
            for slug, rules in RULESETS.items()
        } | {"capfirst": capfirst}


def _round_placeholders(msgid):
    """The placeholders of ``msgid`` a round's name or word fills: {name: "name" or "word"}."""
    import re

    found = {}
    for name in {a or b for a, b in re.findall(r"\{(\w+)\}|%\((\w+)\)s", msgid)}:
        named = {"last": msgid in LAST_NAMES_A_ROUND, "round": msgid in ROUND_NAMES_A_ROUND}
        if name in ROUND_NAMED or named.get(name):
            found[name] = "name"
        elif name == "word" and msgid not in WORD_IS_NOT_A_ROUND:
            found[name] = "word"
    return found


def _fill(text, values):
    import re

    text = re.sub(r"\{(\w+)(?:![rs])?\}", lambda m: values.get(m.group(1), "7"), text)
    return re.sub(r"%\((\w+)\)[sd]", lambda m: values.get(m.group(1), "7"), text)


def _round_faults(language, text):
    """What is wrong with a sentence that names a round: a contracted article (de el), an article
    or adjective of the other gender, a capital in mid-sentence."""
    import re

    faults = []
    if language == "es":
        faults += [p for p in _SPANISH_MISMATCHES if re.search(p, text, re.IGNORECASE)]
    if language == "nl":
        faults += [p for p in (r"\bhet ronde\b", r"\bde de\b") if re.search(p, text, re.IGNORECASE)]
    for m in re.finditer(r"\b(La|El|Los|Las|Ronda|Reparto|Ronde)\b", text):
        before = text[: m.start()].rstrip()
        if before and before[-1] not in ".!?¿¡":
            faults.append(f"capital in mid-sentence: {m.group(0)}")
    return faults


@pytest.mark.parametrize("language", ["es", "nl"])
def test_a_round_name_agrees_with_its_sentence_in_every_ruleset(language):
    """Issue 53: every message that takes a round's name (or word), rendered for each of the five
    rulesets (a round in Mexican Rummy, a deal in the Contract family: "la ronda 3", "el reparto 3"),
    reads right: no "de el reparto", no "La Reparto 3", no "corregida" after a deal, no capital
    article in mid-sentence."""
    forms = _round_forms(language)
    capfirst = forms.pop("capfirst")
    assert len(forms) == 5 and {f["word"] for f in forms.values()} >= (
        {"ronda", "reparto"} if language == "es" else {"ronde"}
    )
    wrong, checked = [], 0
    for entry in _catalogue(language):
        placeholders = _round_placeholders(entry.msgid)
        if not placeholders:
            continue
        for text in _translations(entry):
            for slug, form in forms.items():
                values = {name: form[kind] for name, kind in placeholders.items()}
                variants = [values]
                if entry.msgid in CAPITALISED:
                    first = next(n for n in placeholders if entry.msgid.startswith((f"{{{n}}}", f"%({n})s")))
                    variants.append(values | {first: capfirst(values[first])})
                for filled in variants:
                    sentence = _fill(text, filled)
                    checked += 1
                    wrong += [(entry.msgid, slug, sentence, f) for f in _round_faults(language, sentence)]
    assert wrong == []
    assert checked > 300


@pytest.mark.parametrize("language", ["es", "nl"])
def test_the_code_names_a_round_with_its_article_in_every_ruleset(language):
    """The same, through the code that fills them: a change told to the other phones, an undo, the
    recap's lines, a refused round number."""
    from django.utils import translation

    from referee.engine import RULESETS
    from referee.engine.stories import BestRound, Comeback, Recap, Swing
    from scorekeeping.changes import change_clause, change_told, undo_notice
    from scorekeeping.errors import InvalidInput
    from scorekeeping.models import Change
    from scorekeeping.services.rounds import refuse_number
    from scorekeeping.web.recap import best_round_line, recap_lines

    places = [(1, "Ana", 20), (2, "Ben", 45)]
    told = [
        Recap(
            ["Ana"],
            places,
            3,
            Swing(3, "Ana", "Ben", 40),
            [(1, ["Ben"]), (2, ["Ana"]), (3, ["Ana"])],
            Comeback("Ana", 30, 2),
        ),
        Recap(["Ana"], places, 2, None, [(1, ["Ben"]), (2, ["Ana"]), (3, ["Ana"])], None),
    ]
    wrong = []
    with translation.override(language):
        for slug, rules in RULESETS.items():
            said = []
            for action in Change.Action:
                for by in ("", "Ana"):
                    change = Change(action=action, round_number=3, by=by)
                    said += [change_told(rules, change), change_clause(rules, change), undo_notice(rules, change)]
            for recap in told:
                said += recap_lines(recap, rules)[1]
            said.append(best_round_line(BestRound(3, "Ana", 12), rules))
            with pytest.raises(InvalidInput) as refused:
                refuse_number(rules, rules.last_round + 1, rules.last_round)
            said.append(str(refused.value))
            wrong += [(slug, s, f) for s in said for f in _round_faults(language, s)]
            assert any(rules.round_name(3) in s for s in said), slug
    assert wrong == []


# The checks that name their languages by hand: a language in settings.LANGUAGES that one of
# them leaves out is untested there, so adding a language fails here until each names it.
HAND_WRITTEN = [
    test_the_engine_speaks_the_active_language,
    test_the_language_follows_the_browser,
    test_each_request_speaks_its_own_language,
    test_identities_and_round_words_read_whole_in_a_sentence,
    test_a_round_name_agrees_with_its_sentence_in_every_ruleset,
    test_the_code_names_a_round_with_its_article_in_every_ruleset,
]


@pytest.mark.parametrize("test", HAND_WRITTEN, ids=lambda test: test.__name__)
def test_every_language_is_in_the_checks_that_name_their_languages(test):
    (mark,) = [mark for mark in test.pytestmark if mark.name == "parametrize"]
    firsts = [str(value[0] if isinstance(value, tuple) else value) for value in mark.args[1]]
    missing = [code for code in LANGUAGES if not any(first.split(",")[0].split("-")[0] == code for first in firsts)]
    assert missing == [], f"{test.__name__} does not check {missing}"
