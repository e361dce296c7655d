"""A ruleset in words, rule by rule, and what a house ruleset changes from the one it is based on
(issue 49: "the saved house-rules page never mentions ace around, the table's key difference").

``rule_lines`` says every rule a table plays by as one sentence per aspect (a stable ``key``:
the players, the deck, each round, what is wild, books, runs, naturals, opening, layoffs,
swaps, buys, going out, the winner, penalties, the words a ruleset speaks). ``differences``
compares two rulesets aspect by aspect and keeps the sentences that differ: a house ruleset's
page says each change from its base in words. Pages show these lines; they hold no rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import rank_plural, rank_text
from .i18n import _, capfirst, ngettext
from .rules import AceMode, Rules, SwapPolicy, TieBreak
from .words import names_and

# The aspects that stand alone on a ruleset's page ("In short"); the rounds, the deck and the
# penalties have tables of their own there.
GENERAL = (
    "wilds",
    "books",
    "runs",
    "naturals",
    "opening",
    "joining",
    "layoff",
    "swap",
    "buys",
    "going_out",
    "cut",
    "winner",
)


@dataclass(frozen=True, slots=True)
class RuleLine:
    key: str  # the aspect the line tells: the same aspect of two rulesets has the same key
    text: str


def rule_lines(rules: Rules) -> list[RuleLine]:
    """Every rule of ``rules`` in words, one sentence per aspect, in the order a table learns them."""
    lines = [
        RuleLine("players", _("{low} to {high} players.").format(low=rules.min_players, high=rules.max_players)),
        RuleLine("deck", _deck(rules)),
        RuleLine(
            "rounds",
            ngettext("{n} {word}.", "{n} {words}.", rules.last_round).format(
                n=rules.last_round, word=_(rules.round_word), words=_(rules.round_plural)
            ),
        ),
    ]
    for number in range(1, rules.last_round + 1):
        lines.append(RuleLine(f"round-{number}", _round(rules, number)))
    lines += [
        RuleLine("wilds", _wilds(rules)),
        RuleLine("books", _books(rules)),
        RuleLine("runs", _runs(rules)),
        RuleLine("naturals", _naturals(rules)),
        RuleLine("opening", _opening(rules)),
        RuleLine("joining", _joining(rules)),
        RuleLine("layoff", _layoff(rules)),
        RuleLine("swap", _swap(rules)),
        RuleLine("buys", _buys(rules)),
        RuleLine("going_out", _going_out(rules)),
    ]
    if rules.cut_bonus:
        cut = _("The player right of the dealer cuts; cutting exactly the cards needed takes {n} off their total.")
        lines.append(RuleLine("cut", cut.format(n=rules.cut_bonus)))
    lines += [RuleLine("winner", _winner(rules)), RuleLine("points", _points(rules)), RuleLine("words", _words(rules))]
    return lines


def differences(base: Rules, house: Rules) -> list[str]:
    """What ``house`` changes from ``base``, in words: each aspect whose sentence differs, as
    ``house`` has it (a round ``base`` plays and ``house`` does not is said dropped)."""
    before = {line.key: line.text for line in rule_lines(base)}
    after = rule_lines(house)
    said = [line.text for line in after if before.get(line.key) != line.text]
    kept = {line.key for line in after}
    for number in range(house.last_round + 1, base.last_round + 1):
        if f"round-{number}" in before and f"round-{number}" not in kept:
            said.append(capfirst(_("{round} is not played.").format(round=base.round_name(number))))
    if "cut" in before and "cut" not in kept:
        said.append(_("No bonus for cutting exactly the cards needed."))
    return said


def _deck(rules: Rules) -> str:
    spans: list[tuple[int, int, int, int]] = []  # first and last player count, packs, jokers
    for n in range(rules.min_players, rules.max_players + 1):
        deck = rules.deck_for(n)
        if spans and spans[-1][2:] == (deck.packs, deck.jokers):
            spans[-1] = (spans[-1][0], n, deck.packs, deck.jokers)
        else:
            spans.append((n, n, deck.packs, deck.jokers))
    said = [
        _("{p} packs and {j} jokers ({c} cards)").format(p=packs, j=jokers, c=packs * 52 + jokers)
        for _low, _high, packs, jokers in spans
    ]
    if len(spans) == 1:
        return capfirst(said[0]) + "."
    parts = [
        _("with {low}-{high} players: {deck}").format(low=low, high=high, deck=deck)
        if low != high
        else _("with {n} players: {deck}").format(n=low, deck=deck)
        for (low, high, _p, _j), deck in zip(spans, said, strict=True)
    ]
    return capfirst("; ".join(parts)) + "."


def _round(rules: Rules, number: int) -> str:
    words = rules.in_words(number)
    return _("{round}: hands of {n}; {wilds}; {contract}.").format(
        round=capfirst(rules.round_name(number)), n=words.dealt, wilds=words.wilds.lower(), contract=words.contract
    )


def _wilds(rules: Rules) -> str:
    policy = rules.wilds
    parts = [_("Jokers are wild.") if policy.jokers else _("The deck holds no jokers.")]
    if policy.ranks:
        ranks = names_and([rank_plural(r) for r in policy.ranks])
        parts.append(capfirst(_("{ranks} are wild in every round.").format(ranks=ranks)))
    if not policy.natural:
        parts.append(_("A card of a wild rank is always wild: it never stands for itself."))
    return " ".join(parts)


def _books(rules: Rules) -> str:
    least = rules.books.least
    if rules.books.distinct_suits:
        text = _("{a_book}: {n} or more cards of one rank, no suit twice.")
    else:
        text = _("{a_book}: {n} or more cards of one rank, any suits.")
    return capfirst(text.format(a_book=_(rules.book_word), n=least))


def _runs(rules: Rules) -> str:
    ace = {
        AceMode.LOW: _("the ace only low (A-2-3)"),
        AceMode.HIGH: _("the ace only high (Q-K-A)"),
        AceMode.EITHER: _("the ace low (A-2-3) or high (Q-K-A), not round the corner"),
        AceMode.AROUND: _("the ace low, high or round the corner (K-A-2)"),
    }[rules.runs.ace]
    text = _("{a_run}: {n} or more cards in a row of one suit; {ace}.")
    return capfirst(text.format(a_run=_(rules.run_word), n=rules.runs.least, ace=ace))


def _naturals(rules: Rules) -> str:
    policy = rules.naturals
    parts: list[str] = []
    n = policy.per_meld
    if n:
        least = ngettext("Each meld holds at least {n} natural card.", "Each meld holds at least {n} natural cards.", n)
        parts.append(least.format(n=n))
    if policy.not_more_wilds:
        parts.append(_("A meld holds no more wilds than natural cards."))
    if not policy.adjacent_wilds:
        parts.append(_("No two wilds side by side in a run."))
    return " ".join(parts) or _("A meld may hold any number of wilds.")


def _opening(rules: Rules) -> str:
    if rules.exact_opening:
        return _("Meld exactly the contract: {b} and {r} of exactly the stated length.").format(
            b=_(rules.book_plural), r=_(rules.run_plural)
        )
    return _("Open with exactly the contract's components, all at once; each may be longer than its minimum.")


def _joining(rules: Rules) -> str:
    if rules.runs_may_join:
        return _("Two same-suit runs may touch; once laid they stay separate.")
    return _("Two {r} of the same suit in the meld must overlap or leave a gap.").format(r=_(rules.run_plural))


def _layoff(rules: Rules) -> str:
    if rules.layoff_on_opening_turn:
        return _("You may lay off on the turn you open.")
    return _("Lay off only on turns after the one you opened on.")


def _swap(rules: Rules) -> str:
    if rules.swap is SwapPolicy.NONE:
        return _("Wilds are fixed once played.")
    if rules.swap is SwapPolicy.ANY_WILD:
        return _("On your turn, the natural card a played wild stands for may replace it; you take the wild.")
    return _(
        "A joker in a sequence may be replaced by its real card by a player who melded on an earlier turn; "
        "a joker in a group is dead."
    )


def _buys(rules: Rules) -> str:
    buys = rules.buys
    if not buys.allowed:
        return _("No buying out of turn.")
    name = _(buys.name)
    if buys.limit:
        text = _('"{name}": take the top discard out of turn with a penalty card, at most {n} times a round.')
        text = text.format(name=name, n=buys.limit)
    else:
        text = _('"{name}": take the top discard out of turn with a penalty card, as often as you like.')
        text = text.format(name=name)
    if buys.not_twice_in_row:
        text += " " + _("Never twice in a row.")
    return text


def _going_out(rules: Rules) -> str:
    if rules.going_out_discard:
        return _("Go out by discarding your last card.")
    return _("Go out by laying down your last card; no discard is needed.")


def _winner(rules: Rules) -> str:
    if not rules.lowest_wins:
        if rules.tie_break is TieBreak.ROUND_WINS:
            return _("Highest total wins; on a tie, most rounds won; still tied, the place is shared.")
        return _("Highest total wins; equal totals share the place.")
    if rules.tie_break is TieBreak.ROUND_WINS:
        return _("Lowest total wins; on a tie, most rounds won; still tied, the place is shared.")
    return _("Lowest total wins; equal totals share the place.")


def _points(rules: Rules) -> str:
    penalties = rules.penalties
    parts = [_("a joker: {n}").format(n=penalties.joker)]
    if penalties.wild is not None:
        parts.append(_("a card of the round's wild rank: {n}").format(n=penalties.wild))
    costs: list[tuple[str, list[int]]] = []
    for rank in range(1, 14):
        if penalties.by_rank is not None:
            cost = str(penalties.by_rank[rank - 1])
        elif rank == 1:
            cost = str(penalties.ace)
        elif rank >= 10:
            cost = str(penalties.ten_to_king)
        else:
            cost = _("face value") if penalties.number is None else str(penalties.number)
        if costs and costs[-1][0] == cost:
            costs[-1][1].append(rank)
        else:
            costs.append((cost, [rank]))
    for cost, ranks in costs:
        named = rank_text(ranks[0]) if len(ranks) == 1 else f"{rank_text(ranks[0])}-{rank_text(ranks[-1])}"
        parts.append(f"{named}: {cost}")
    return _("Left in hand: {costs}.").format(costs="; ".join(parts))


def _words(rules: Rules) -> str:
    return _("Called: {round}, {book}, {run}.").format(
        round=_(rules.round_word), book=_(rules.book_word), run=_(rules.run_word)
    )
