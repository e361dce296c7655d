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


@pytest.fixture
def on_a_lan(monkeypatch):
    from scorekeeping.serve import network

    monkeypatch.setattr(network, "lan_addresses", lambda: ["192.168.1.20"])


def test_addresses_command_prints_urls(capsys, settings, on_a_lan):
    settings.LAN_HTTPS = False
    call_command("addresses", "--host", "0.0.0.0", "--port", "8123")
    out = capsys.readouterr().out
    assert "Listening on 0.0.0.0:8123 (every address of this machine)." in out
    assert "Open the table on this machine: http://127.0.0.1:8123/" in out
    assert "Open the table on a phone on the same network:\n  http://192.168.1.20:8123/\n" in out
    assert "Or scan this with the phone's camera:" in out
    assert "█" in out or "▀" in out  # the QR code, drawn with block characters


def test_addresses_command_says_phones_cannot_reach_a_loopback_server(capsys, settings, on_a_lan):
    # HOST=127.0.0.1 once printed "Open the table on a phone: http://127.0.0.1:...", which a phone
    # cannot open (it is the phone itself), and a QR code of it.
    settings.LAN_HTTPS = False
    for host, here in (("127.0.0.1", "http://127.0.0.1:8123/"), ("localhost", "http://localhost:8123/")):
        call_command("addresses", "--host", host, "--port", "8123")
        out = capsys.readouterr().out
        assert f"Listening on {host}:8123 (this machine only)." in out
        assert f"Open the table on this machine: {here}" in out
        assert "Phones cannot reach this server" in out and "HOST=0.0.0.0 bash .ci/start" in out
        assert "on a phone" not in out and "192.168.1.20" not in out
        assert "scan" not in out and "█" not in out and "▀" not in out


def test_addresses_command_behind_a_proxy_names_the_public_address(capsys, settings, on_a_lan):
    settings.LAN_HTTPS, settings.PUBLIC_URL = False, "https://rummy.example.org"
    call_command("addresses", "--host", "127.0.0.1", "--port", "8123")
    out = capsys.readouterr().out
    assert "Listening on 127.0.0.1:8123 (this machine only)." in out
    assert "Phones open the public address, which share links and QR codes name: https://rummy.example.org" in out
    assert "Phones cannot reach" not in out and "192.168.1.20" not in out


def test_addresses_command_names_the_one_address_it_is_bound_to(capsys, settings, on_a_lan):
    settings.LAN_HTTPS = False
    call_command("addresses", "--host", "10.0.0.7", "--port", "8123", "--no-qr")
    out = capsys.readouterr().out
    assert "Listening on 10.0.0.7:8123 (this one address)." in out
    assert "Open the table on a phone on the same network:\n  http://10.0.0.7:8123/\n" in out
    assert "192.168.1.20" not in out and "127.0.0.1" not in out


def test_addresses_command_without_a_network_says_no_phone_can_reach_it_yet(capsys, settings, monkeypatch):
    from scorekeeping.serve import network

    monkeypatch.setattr(network, "lan_addresses", lambda: [])
    settings.LAN_HTTPS = False
    call_command("addresses", "--host", "0.0.0.0", "--port", "8123")
    out = capsys.readouterr().out
    assert "Open the table on this machine: http://127.0.0.1:8123/" in out
    assert "No phone can reach it yet" in out and "scan" not in out
