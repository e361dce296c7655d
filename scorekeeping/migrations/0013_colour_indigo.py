from typing import Any

from django.db import migrations, models


def rename(apps: Any, schema_editor: Any, old: str = "slate", new: str = "indigo") -> None:
    """The sixth colour was a grey-blue, hardly a colour in dark rooms (issue 49): its players and
    members take the indigo that replaces it."""
    for model in ("Player", "Member"):
        apps.get_model("scorekeeping", model).objects.filter(colour=old).update(colour=new)


def back(apps: Any, schema_editor: Any) -> None:
    rename(apps, schema_editor, old="indigo", new="slate")


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeping", "0012_colour_labels"),
    ]

    operations = [
        migrations.RunPython(rename, back),
        migrations.AlterField(
            model_name="member",
            name="colour",
            field=models.CharField(
                choices=[
                    ("blue", "Blue"),
                    ("red", "Red"),
                    ("green", "Green"),
                    ("pink", "Pink"),
                    ("gold", "Gold"),
                    ("indigo", "Indigo"),
                    ("purple", "Purple"),
                    ("brown", "Brown"),
                ],
                default="blue",
                help_text="Kept across the club's games.",
                max_length=12,
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="colour",
            field=models.CharField(
                choices=[
                    ("blue", "Blue"),
                    ("red", "Red"),
                    ("green", "Green"),
                    ("pink", "Pink"),
                    ("gold", "Gold"),
                    ("indigo", "Indigo"),
                    ("purple", "Purple"),
                    ("brown", "Brown"),
                ],
                default="blue",
                help_text="Marks the player everywhere.",
                max_length=12,
            ),
        ),
    ]
