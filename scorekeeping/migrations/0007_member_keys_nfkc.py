"""Members' keys compared under NFKC and case folding (``name_key``): a fullwidth "Ａna" is Ana. A
club whose two members would now share a key keeps the later one's old key (no member is
merged away); such a pair is told apart as before."""

from typing import Any

from django.db import migrations

from referee.engine.words import name_key


def rekey(apps: Any, schema_editor: Any) -> None:
    Member = apps.get_model("scorekeeping", "Member")
    taken: dict[str, set[str]] = {}
    for member in Member.objects.order_by("club_id", "pk"):
        keys = taken.setdefault(member.club_id, set())
        key = name_key(member.name)
        if (
            key != member.key
            and key not in keys
            and not Member.objects.filter(club_id=member.club_id, key=key).exists()
        ):
            member.key = key
            member.save(update_fields=["key"])
        keys.add(member.key)


class Migration(migrations.Migration):
    dependencies = [("scorekeeping", "0006_clubtable_token_generation")]

    operations = [migrations.RunPython(rekey, migrations.RunPython.noop)]
