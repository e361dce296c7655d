import pytest

from tests.helpers import record


@pytest.mark.parametrize("model", ["game", "player", "round", "change"])
def test_admin_lists_each_model(admin_client, game, model):
    record(game, 1, "Ana", {"Ben": "4C", "Cy": "5C", "Dee": "6C"})
    response = admin_client.get(f"/admin/scorekeeping/{model}/")
    assert response.status_code == 200
    assert game.pk.encode() in response.content or b"Ana" in response.content


def test_admin_shows_a_round_with_its_scores(admin_client, game):
    rnd = record(game, 1, "Ana", {"Ben": "4C KC", "Cy": "JK", "Dee": "3D AS"})
    response = admin_client.get(f"/admin/scorekeeping/round/{rnd.pk}/change/")
    assert response.status_code == 200
    assert b"4C KC" in response.content
