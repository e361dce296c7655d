"""A hypothesis strategy that makes house documents: random knobs and rounds over Mexican Rummy,
each round's deal large enough for its contract (the engine's and the API's properties)."""

from hypothesis import strategies as st

from referee.engine.documents import MAX_DEALT, RANK_KEYS


@st.composite
def documents(draw):
    runs_min = draw(st.integers(3, 5))
    books_min = draw(st.integers(3, 4))
    distinct = draw(st.booleans())
    per_meld = draw(st.integers(0, 2))
    rounds = []
    for _ in range(draw(st.integers(1, 3))):
        parts = draw(st.lists(st.sampled_from(["book", "run"]), min_size=1, max_size=3))
        contract = [
            {"meld": m, "size": books_min if m == "book" else draw(st.integers(runs_min, runs_min + 1))} for m in parts
        ]
        need = sum(c["size"] for c in contract)
        rounds.append(
            {
                "dealt": draw(st.integers(need, min(need + 3, MAX_DEALT))),  # three runs of 6 need 18
                "contract": contract,
                "wild_rank": draw(st.sampled_from([None, *RANK_KEYS])),
                "final": False,
            }
        )
    return {
        "based_on": "mexican",
        "name": "House",
        "players": {"min": 2, "max": draw(st.integers(2, 4))},
        "rounds": rounds,
        "wilds": {
            "jokers": True,
            "ranks": draw(st.lists(st.sampled_from(RANK_KEYS), max_size=2, unique=True)),
            "natural": draw(st.booleans()),
        },
        "books": {"min": books_min, "suits": "distinct" if distinct else "any"},
        "runs": {"min": runs_min, "ace": draw(st.sampled_from(["low", "high", "either", "around"]))},
        "naturals": {
            "per_meld": per_meld,
            "wilds": draw(st.sampled_from(["any", "not_more"])),
            "adjacent_wilds": draw(st.booleans()),
        },
        "going_out": {"discard": draw(st.booleans())},
        "lowest_wins": draw(st.booleans()),
    }
