"""A game's and a night's ruleset may name a table's house rules: slugs of up to 40 characters."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeping", "0010_colours"),
    ]

    operations = [
        migrations.AlterField(model_name="game", name="ruleset", field=models.CharField(max_length=40)),
        migrations.AlterField(model_name="night", name="ruleset", field=models.CharField(max_length=40)),
    ]
