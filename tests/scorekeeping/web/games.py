"""Games made through the API for the page tests, and phones that hold a game's edit link."""

from django.test import Client


def api_game(client, names=("Ana", "Ben", "Cy")):
    body = {"players": list(names), "first_dealer": names[0]}
    return client.post("/api/games/", body, content_type="application/json").json()


def recording_phone(game, **kwargs):
    phone = Client(**kwargs)
    assert phone.get(f"/g/{game['id']}/join/{game['edit_token']}/").status_code == 302
    return phone


def create(client, names=("Ana", "Ben")):
    response = client.post(
        "/api/games/", {"players": list(names), "first_dealer": names[0]}, content_type="application/json"
    )
    assert response.status_code == 201, response.content
    return response.json()


ROUND_1 = {"number": 1, "winner": "Ana", "hands": {"Ben": "4C"}}
