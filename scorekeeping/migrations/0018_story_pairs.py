"""What a profile reads, kept: each player's lowest and highest game total, longest streak and
rounds by number beside their sums, and each pair of players' meetings (``StoryPair``), so that
a profile costs its rulesets and opponents, not its games."""

from typing import Any

from django.db import migrations, models


def kept_from_the_games(apps: Any, schema_editor: Any) -> None:
    """The sums and pairs made again from the games (``manage.py stories --rebuild --write`` does
    the same at any time). The current code is used: this is the newest migration to touch the
    stories, and a database without games skips it."""
    if not apps.get_model("scorekeeping", "Game").objects.exists():
        return
    from scorekeeping.services.history import rebuilt

    rebuilt(write=True)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeping", "0017_draft_hands_version"),
    ]

    operations = [
        migrations.AddField(
            model_name="storysums",
            name="total_low",
            field=models.IntegerField(default=0, help_text="The lowest game total."),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="storysums",
            name="total_high",
            field=models.IntegerField(default=0, help_text="The highest game total."),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="storysums",
            name="streak",
            field=models.PositiveIntegerField(
                default=0, help_text="The longest win streak reached in a game of this ruleset."
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="storysums",
            name="by_round",
            field=models.JSONField(
                default=list, help_text="[round number, rounds played, their penalties] of every round number."
            ),
            preserve_default=False,
        ),
        migrations.CreateModel(
            name="StoryPair",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("scope", models.CharField(max_length=24)),
                ("player", models.CharField(max_length=120)),
                ("opponent", models.CharField(max_length=120)),
                ("games", models.PositiveIntegerField()),
                ("ahead", models.PositiveIntegerField()),
                ("behind", models.PositiveIntegerField()),
                (
                    "difference",
                    models.BigIntegerField(help_text="The opponent's totals less the player's, summed."),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("scope", "player", "opponent"), name="story_pair_unique")
                ],
            },
        ),
        migrations.RunPython(kept_from_the_games, migrations.RunPython.noop),
    ]
