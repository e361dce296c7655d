"""Names that look alike are one name, or no name: invisible formatting characters (Unicode Cf: a
zero-width space, a right-to-left override) are refused, and names are compared under NFKC and
case folding, so "Ａna" (fullwidth) and "ANA" are Ana, at a table and in a club."""

import pytest

from referee.engine.words import invisible_in, name_key
from scorekeeping.models import Game, Member

JSON = "application/json"


@pytest.mark.parametrize(
    ("name", "same_as"),
    [("Ａna", "ana"), ("ANA", "Ana"), ("ﬁn", "Fin"), ("Straße", "STRASSE")],
    ids=["fullwidth", "case", "ligature", "sharp-s"],
)
def test_names_are_compared_under_nfkc_and_case_folding(name, same_as):
    assert name_key(name) == name_key(same_as)


@pytest.mark.parametrize(
    ("name", "code"),
    [("Ana\u200b", "U+200B"), ("\u202eAna", "U+202E"), ("A\u2060na", "U+2060"), ("Ana\ufeff", "U+FEFF")],
    ids=["zero-width-space", "right-to-left-override", "word-joiner", "byte-order-mark"],
)
def test_an_invisible_formatting_character_is_named(name, code):
    assert invisible_in(name) == code


def test_an_emoji_joined_with_a_zero_width_joiner_is_a_name():
    assert invisible_in("\U0001f469\u200d\U0001f9b0 Fay") is None
    assert invisible_in("Fa\u200dy") == "U+200D"  # between letters it only hides


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("players", "said"),
    [
        (["Ana", "Ana\u200b"], "invisible character (U+200B)"),
        (["Ana", "\u202eanA"], "invisible character (U+202E)"),
        (["Ana", "Ａna"], "already at the table"),
    ],
    ids=["zero-width-space", "right-to-left-override", "fullwidth"],
)
def test_a_table_refuses_a_look_alike_name(client, players, said):
    answer = client.post("/api/games/", {"players": [*players, "Cy"], "first_dealer": "Cy"}, content_type=JSON)
    assert answer.status_code == 400 and said in answer.json()["detail"], answer.json()
    assert Game.objects.count() == 0


@pytest.mark.django_db
def test_a_club_takes_look_alikes_as_one_member_or_refuses_them(client):
    made = client.post("/api/clubs/", {"name": "De Joker"}, content_type=JSON).json()
    headers = {"X-Club-Token": made["organiser_token"]}
    members = f"/api/clubs/{made['id']}/members/"
    refused = client.put(members, {"names": ["Ana", "Ana\u200b", "Ben"]}, content_type=JSON, headers=headers)
    assert refused.status_code == 400 and "U+200B" in refused.json()["detail"]
    assert refused.json()["errors"] == {"names.1": [refused.json()["detail"]]}
    assert Member.objects.count() == 0
    taken = client.put(members, {"names": ["Ana", "Ａna", "ANA", "Ben"]}, content_type=JSON, headers=headers)
    assert taken.status_code == 200, taken.content
    assert sorted(Member.objects.values_list("name", flat=True)) == ["Ana", "Ben"]
