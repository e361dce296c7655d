"""Sessions kept the raw edit token of every game a phone could change; keep its SHA-256 instead.

After this, a session's ``games`` map holds a grant (the token's hash, as the game row
holds it), which lets that session record and is useless as a token anywhere else.
"""

import hashlib
from typing import Any

from django.db import migrations


def _hash_tokens(apps: Any, schema_editor: Any) -> None:
    from django.contrib.sessions.backends.db import SessionStore

    Session = apps.get_model("sessions", "Session")
    store = SessionStore()
    for session in Session.objects.iterator():
        data = store.decode(session.session_data)
        games = data.get("games")
        if not isinstance(games, dict):
            continue
        hashed = {
            game_id: (hashlib.sha256(held.encode()).hexdigest() if held and len(held) != 64 else held)
            for game_id, held in games.items()
        }
        if hashed != games:
            data["games"] = hashed
            session.session_data = store.encode(data)
            session.save(update_fields=["session_data"])


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeping", "0002_ratelimit"),
        ("sessions", "0001_initial"),
    ]

    operations = [migrations.RunPython(_hash_tokens, migrations.RunPython.noop)]
