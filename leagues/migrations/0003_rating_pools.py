"""Ratings per pool (the site's and each league's): the old single-pool tables are
dropped and rebuilt by the ``league_rating_pools`` projection from the log (a new
projection name, so it starts from the first event)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("leagues", "0002_competition_due_at")]

    operations = [
        migrations.DeleteModel(name="PlayerRating"),
        migrations.DeleteModel(name="RatedResult"),
        migrations.CreateModel(
            name="PlayerRating",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("pool", models.CharField(max_length=80)),
                ("player", models.CharField(max_length=64)),
                ("mu", models.FloatField()),
                ("sigma", models.FloatField()),
                ("matches", models.PositiveIntegerField(default=0)),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(fields=("pool", "player"), name="leagues_rating_once")
                ],
            },
        ),
        migrations.CreateModel(
            name="RatedResult",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("pool", models.CharField(max_length=80)),
                ("result_key", models.CharField(max_length=160)),
                ("position", models.BigIntegerField()),
                ("north_south", models.JSONField()),
                ("east_west", models.JSONField()),
                ("winner", models.CharField(max_length=16, null=True)),
                ("superseded", models.BooleanField(default=False)),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("pool", "result_key"), name="leagues_rated_once"
                    )
                ],
            },
        ),
    ]
