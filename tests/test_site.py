import pytest
import yaml
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from scorekeeping.config.env import env_bool, env_int, env_list, env_str


def test_healthz_answers_without_the_database(client):
    # No django_db mark: pytest-django fails any query this test would make.
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"


def test_schema_is_served(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"/api/referee/check/" in response.content


def test_schema_validates_without_warnings(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))
    assert "/api/referee/score/" in (tmp_path / "schema.yml").read_text()


def test_every_request_body_is_described_for_its_callers(client):
    # A component's description comes from its serializer's docstring, or a base class's.
    components = yaml.safe_load(client.get("/api/schema/").content)["components"]["schemas"]
    requests = {name: c for name, c in components.items() if name.endswith("Request")}
    assert len(requests) >= 6
    for name, component in requests.items():
        description = component.get("description", "")
        assert description, name
        assert "serializer" not in description.lower() and "DRF" not in description, (name, description)


@pytest.mark.parametrize(("raw", "value"), [("1", True), ("TRUE", True), ("off", False), ("0", False), ("", False)])
def test_env_bool(monkeypatch, raw, value):
    monkeypatch.setenv("X_FLAG", raw)
    assert env_bool("X_FLAG") is value


def test_env_helpers_fail_clearly_on_bad_values(monkeypatch):
    monkeypatch.setenv("X_FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="X_FLAG must be a boolean"):
        env_bool("X_FLAG")
    monkeypatch.setenv("X_NUM", "ten")
    with pytest.raises(ImproperlyConfigured, match="X_NUM must be a whole number, not 'ten'"):
        env_int("X_NUM", 1)


def test_env_defaults(monkeypatch):
    monkeypatch.delenv("X_NUM", raising=False)
    assert env_int("X_NUM", 7) == 7
    monkeypatch.setenv("X_LIST", "a.example, b.example,")
    assert env_list("X_LIST", []) == ["a.example", "b.example"]
    for blank in ("", "  "):  # DATABASE_URL= in a shell or a .env file means "not set"
        monkeypatch.setenv("X_STR", blank)
        assert env_str("X_STR", "sqlite:///db.sqlite3") == "sqlite:///db.sqlite3"
    monkeypatch.setenv("X_STR", "postgresql://db/x")
    assert env_str("X_STR", "sqlite:///db.sqlite3") == "postgresql://db/x"


def test_addresses_command_prints_urls(capsys):
    call_command("addresses", "--host", "0.0.0.0", "--port", "8123")
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8123/" in out
    assert "Or scan this with the phone's camera:" in out
    assert "█" in out or "▀" in out  # the QR code, drawn with block characters
