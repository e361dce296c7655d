"""``{% gamecache %}``: the one way a template keeps a fragment of a game in the cache.

A fragment of the table is the same for every phone that sees the same game version in the same
language, so it is rendered once and kept (Django's ``{% cache %}``). Its key must name the game's
version, or the fragment is served stale after the next change: written by hand nine times, a
tenth would one day forget it. This tag writes the key's recipe once::

    {% gamecache "table-sheet" %}...{% endgamecache %}
    {% gamecache "draft-status" live %}...{% endgamecache %}
    {% gamecache "table-finish-actions" holds_token %}...{% endgamecache %}

is ``{% cache fragment_seconds "table-sheet" game.pk game.version LANGUAGE_CODE %}``, with
``game.live_version`` instead of ``game.version`` after ``live`` (a fragment that shows a round
being entered, which moves only the live version), and any further variables appended to the key
(what else the fragment depends on). The keys are exactly those of ``{% cache %}`` written by hand.
"""

from django import template
from django.template.base import Parser, Token
from django.templatetags.cache import CacheNode

register = template.Library()

LIVE = "live"


def fragment_vary_on(extra: list[str], *, live: bool = False) -> list[str]:
    """What a game fragment's key is made of, as template expressions, in order."""
    return ["game.pk", "game.live_version" if live else "game.version", "LANGUAGE_CODE", *extra]


@register.tag("gamecache")
def do_gamecache(parser: Parser, token: Token) -> CacheNode:
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError(f"'{bits[0]}' tag requires at least 1 argument: the fragment's name.")
    name, rest = bits[1], bits[2:]
    live = bool(rest) and rest[0] == LIVE
    if live:
        rest = rest[1:]
    nodelist = parser.parse(("endgamecache",))
    parser.delete_first_token()
    return CacheNode(
        nodelist,
        parser.compile_filter("fragment_seconds"),  # the view's LIVE_FRAGMENT_SECONDS
        name,
        [parser.compile_filter(expression) for expression in fragment_vary_on(rest, live=live)],
        None,
    )
