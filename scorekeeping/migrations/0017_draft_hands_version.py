"""The version a round in progress last had a hand sent in at: a Record refused only for what it
missed, not for its own "who went out". Rounds in progress when this runs count every change
they had as a hand's (the cautious reading: a Record that saw less is refused, as before)."""

from typing import Any

from django.db import migrations, models
from django.db.models import F


def every_change_a_hand(apps: Any, schema_editor: Any) -> None:
    apps.get_model("scorekeeping", "Draft").objects.update(hands_version=F("version"))


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeping", "0016_story_sums"),
    ]

    operations = [
        migrations.AddField(
            model_name="draft",
            name="hands_version",
            field=models.PositiveIntegerField(
                default=0, help_text="The version a hand was last sent in at (0: none yet): what a Record must have seen."
            ),
        ),
        migrations.RunPython(every_change_a_hand, migrations.RunPython.noop),
    ]
