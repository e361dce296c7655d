"""The OpenAPI document against real answers (issue 33, finding 11): every club and game endpoint,
called on real rows, answers what ``manage.py spectacular`` says it answers for that path, method
and status, and nothing more (the object schemas are closed here: an undocumented key fails)."""

import io
import json
import re
from urllib.parse import urlsplit

import jsonschema
import pytest
from django.core.management import call_command
from django.urls import resolve

from referee.engine import find_rules
from tests.helpers import thirteen

pytestmark = pytest.mark.django_db

METHODS = {"get", "post", "put", "patch", "delete"}
MEXICAN = find_rules("mexican", [])


@pytest.fixture(scope="module")
def schema(tmp_path_factory):
    path = tmp_path_factory.mktemp("openapi") / "schema.json"
    call_command("spectacular", "--format", "openapi-json", "--file", str(path))
    return json.loads(path.read_text())


def strict(node, components):
    """``node`` with each ``$ref`` replaced by its component, OpenAPI 3.0's ``nullable`` said in
    JSON Schema, and each object with named properties closed to any other key."""
    if isinstance(node, list):
        return [strict(item, components) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return strict(components[node["$ref"].removeprefix("#/components/schemas/")], components)
    closed = {}
    for key, value in node.items():
        if key == "properties":
            closed[key] = {name: strict(field, components) for name, field in value.items()}
        elif key != "nullable":
            closed[key] = strict(value, components)
    if closed.get("type") == "object" and "properties" in closed:
        closed.setdefault("additionalProperties", False)
    return {"anyOf": [closed, {"type": "null"}]} if node.get("nullable") else closed


def openapi_path(url):
    """The schema's path of a URL: ``/api/clubs/{club_id}/`` for ``/api/clubs/Ab3/``."""
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", resolve(urlsplit(url).path).route)


@pytest.fixture
def api(client, schema):
    """Calls the API and holds each answer to the schema of its path, method and status."""

    class Api:
        def __init__(self):
            self.called = set()

        def __call__(self, method, url, body=None, status=200, headers=None, multipart=False):
            call = getattr(client, method)
            if multipart:
                response = call(url, body, headers=headers or {})
            else:
                response = call(url, body, content_type="application/json", headers=headers or {})
            assert response.status_code == status, response.content
            path = openapi_path(url)
            self.called.add((path, method, status))
            responses = schema["paths"][path][method]["responses"]
            assert str(status) in responses, f"{method.upper()} {path} answered an undocumented {status}"
            documented = responses[str(status)].get("content", {}).get("application/json", {}).get("schema")
            if documented is None:
                assert response.content == b"", f"{method.upper()} {path} {status} is documented without a body"
                return response
            validator = jsonschema.Draft4Validator(strict(documented, schema["components"]["schemas"]))
            errors = [f"{e.json_path}: {e.message}" for e in validator.iter_errors(response.json())]
            assert errors == [], f"{method.upper()} {path} {status}: " + "; ".join(errors)
            return response

        def uncalled(self, prefix):
            """The operations under ``prefix`` never called to a success (2xx)."""
            operations = {
                (path, method) for path, ops in schema["paths"].items() if path.startswith(prefix) for method in ops
            }
            succeeded = {(path, method) for path, method, status in self.called if status < 300}
            return sorted(op for op in operations if op[1] in METHODS and op not in succeeded)

    return Api()


def play_to_the_end(api, table):
    """The table's game played to its end, through the API (each answer held to the schema too)."""
    token = {"X-Game-Token": re.search(r"/join/([^/]+)/$", table["game"]["edit_url"]).group(1)}
    url = f"/api/games/{table['game']['id']}/rounds/"
    winner, *others = table["players"]
    for number in range(1, MEXICAN.last_round):
        body = {"number": number, "winner": winner, "points": {name: 5 * (i + 1) for i, name in enumerate(others)}}
        api("post", url, body, 201, token)
    body = {"number": MEXICAN.last_round, "winner": winner, "hands": thirteen(others)}
    return api("post", url, body, 201, token).json()


def test_every_club_answer_is_the_one_the_schema_documents(api):
    made = api("post", "/api/clubs/", {"name": "Rummy club De Joker"}, 201).json()
    api("post", "/api/clubs/", {"name": ""}, 400)
    base, organiser = f"/api/clubs/{made['id']}", {"X-Club-Token": made["organiser_token"]}
    api("get", f"{base}/")
    api("get", "/api/clubs/nosuchclub/", status=404)
    names = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    api("put", f"{base}/members/", {"names": names}, 200, organiser)
    api("put", f"{base}/members/", {"names": ["Zed"]}, 403)
    api("put", f"{base}/members/", {"names": "Zed"}, 400, organiser)
    api("patch", f"{base}/members/Gus/", {"name": "Guus"}, 200, organiser)
    api("patch", f"{base}/members/Zed/", {"name": "Zoe"}, 404, organiser)
    body = {"ruleset": "mexican", "sittings": 2, "date": "2026-11-04"}
    night = api("post", f"{base}/nights/", body, 201, organiser).json()
    api("post", f"{base}/nights/", {**body, "sittings": 0}, 400, organiser)
    url = f"{base}/nights/{night['id']}"
    api("put", f"{url}/present/", {"names": [*names[:6], "Ivo"]}, 200, organiser)  # Ivo becomes a member
    sitting = api("post", f"{url}/sittings/", {}, 201, organiser).json()
    api("post", f"{url}/sittings/", {}, 409, organiser)  # the tables are still playing
    four, three = sorted(sitting["tables"], key=lambda t: -len(t["players"]))
    api("get", f"{url}/")  # without the organiser's token: no edit links
    api("get", f"{url}/", headers=organiser)
    api("get", f"{url}/", status=403, headers={"X-Club-Token": "x" * 43})
    api("get", f"{base}/nights/999999/", status=404)
    play_to_the_end(api, four)
    api("post", f"{url}/sittings/1/tables/{three['number']}/token/", {}, 200, organiser)
    api("post", f"{url}/sittings/1/tables/{three['number']}/end/", {}, 200, organiser)
    api("post", f"{url}/sittings/1/tables/{three['number']}/token/", {}, 409, organiser)  # an ended table
    api("post", f"{url}/sittings/9/tables/1/end/", {}, 404, organiser)
    api("get", f"{base}/members/{four['players'][0]}/")
    api("get", f"{base}/members/Nobody/", status=404)
    api("delete", f"{base}/members/Hal/", status=204, headers=organiser)
    api("get", f"{base}/records/")
    api("get", f"{base}/season/")
    api("get", f"{base}/season/?from=2026-11-01&to=2026-11-30&best=1&minimum=2")
    api("get", f"{base}/season/?best=0", status=400)
    api("post", f"{url}/finish/", {}, 200, organiser)
    api("put", f"{url}/present/", {"names": ["Zed"]}, 409, organiser)
    api("get", f"{base}/")
    api("get", f"{base}/ladder/")  # the club's ladder, rated from its finished games
    api("get", f"{base}/ladder/?ruleset=poker", status=400)
    api("get", "/api/ladder/")
    assert api.uncalled("/api/clubs/") == [] and api.uncalled("/api/ladder/") == []


def test_every_game_answer_is_the_one_the_schema_documents(api, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "token": (1, 600)}
    made = api("post", "/api/games/", {"players": ["Ana", "Ben", "Cy"], "first_dealer": "Ana"}, 201).json()
    api("post", "/api/games/", {"players": ["Ana"], "colour": "red"}, 400)
    base, token = f"/api/games/{made['id']}", {"X-Game-Token": made["edit_token"]}
    api("get", f"{base}/")
    api("get", f"{base}/", headers=token)
    api("get", "/api/games/nosuchgame/", status=404)
    api("get", f"{base}/", headers={"X-Game-Token": "x" * 43})  # a wrong token reads what anyone may
    api("get", f"{base}/", status=429, headers={"X-Game-Token": "y" * 43})  # past the wrong-token limit
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "token": (10_000, 600)}
    api("post", f"{base}/rounds/", {"number": 1, "winner": "Ana", "points": {"Ben": 10, "Cy": 25}}, 201, token)
    api("post", f"{base}/rounds/", {"number": 2, "winner": "Ana"}, 403)
    api("post", f"{base}/rounds/", {"number": 1, "winner": "Ana"}, 409, token)
    api("put", f"{base}/rounds/1/", {"winner": "Ben", "points": {"Ana": 10, "Cy": 25}}, 200, token)
    api("put", f"{base}/draft/", {"number": 2, "winner": "Cy"}, 200, token)
    api("put", f"{base}/draft/hands/Ana/", {"cards": "4C KC"}, 200, token)
    api("get", f"{base}/draft/")
    api("put", f"{base}/draft/hands/Ben/", {"points": 15}, 200, token)
    api("post", f"{base}/draft/record/", {}, 201, token)
    api("get", f"{base}/draft/", status=404)
    api("put", f"{base}/draft/", {"number": 3, "winner": None}, 200, token)
    api("delete", f"{base}/draft/", status=204, headers=token)
    api("get", f"{base}/standings/")
    api("get", f"{base}/history/")
    api("get", f"{base}/recap/")
    api("post", f"{base}/undo/", {}, 200, token)
    document = api("get", f"{base}/export/").json()
    api("post", "/api/games/import/", document, 201)
    api("post", f"{base}/token/", None, 201, token)
    sheet = io.BytesIO(b"Round,Ana,Ben\n1,0,10\n")
    sheet.name = "sheet.csv"
    api("post", "/api/games/import/sheet/", {"file": sheet, "ruleset": "mexican"}, 201, multipart=True)
    assert api.uncalled("/api/games/") == []
