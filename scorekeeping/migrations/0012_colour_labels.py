"""The colours' labels as the palette names them now ("red" was first labelled "Orange"):
choices only, nothing changes in the database."""

from django.db import migrations, models

CHOICES = [
    ("blue", "Blue"),
    ("red", "Red"),
    ("green", "Green"),
    ("pink", "Pink"),
    ("gold", "Gold"),
    ("slate", "Slate"),
    ("purple", "Purple"),
    ("brown", "Brown"),
]


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeping", "0011_ruleset_house_slugs"),
    ]

    operations = [
        migrations.AlterField(
            model_name="member",
            name="colour",
            field=models.CharField(
                choices=CHOICES, default="blue", help_text="Kept across the club's games.", max_length=12
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="colour",
            field=models.CharField(
                choices=CHOICES, default="blue", help_text="Marks the player everywhere.", max_length=12
            ),
        ),
    ]
