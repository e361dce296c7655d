from referee.engine import check_layoff, check_layout, check_swap, find_rules, parse_played


def opening(ruleset, variants, number, *melds, final=False, players=None):
    rules = find_rules(ruleset, variants)
    return check_layout(rules, number, [parse_played(m) for m in melds], final=final, players=players)


def layoff(ruleset, variants, number, target, cards, **kwargs):
    return check_layoff(find_rules(ruleset, variants), number, parse_played(target), parse_played(cards), **kwargs)


def swap(ruleset, variants, number, target, cards, **kwargs):
    return check_swap(find_rules(ruleset, variants), number, parse_played(target), parse_played(cards), **kwargs)


def shown(verdict):
    """The melds of a verdict as text, the way a player reads them."""
    return [str(m.reading) for m in verdict.melds]
