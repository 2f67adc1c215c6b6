"""Each rated match's rating change per player and pool (the ratings page's history),
written by the ``league_rating_pools`` projection from now on; the rows of the matches it
has rated already are filled in here, by replaying each pool's kept results in log
order exactly as the projection's recompute does (so the history ends at the ratings
stored)."""

from typing import Any

from django.db import migrations, models

from leagues.core.ratings import RatedMatch, rate_with_changes


def fill_history(apps: Any, schema_editor: Any) -> None:
    RatedResult = apps.get_model("leagues", "RatedResult")
    RatingChange = apps.get_model("leagues", "RatingChange")
    pools = RatedResult.objects.values_list("pool", flat=True).distinct()
    for pool in sorted(set(pools)):
        rows = RatedResult.objects.filter(pool=pool, superseded=False).order_by("position")
        matches = [
            RatedMatch(
                row.result_key,
                row.position,
                (row.north_south[0], row.north_south[1]),
                (row.east_west[0], row.east_west[1]),
                row.winner,
            )
            for row in rows
        ]
        _, changes = rate_with_changes(matches)
        RatingChange.objects.bulk_create(
            [
                RatingChange(
                    pool=pool,
                    player=c.before.player,
                    result_key=c.match,
                    position=c.order,
                    mu_before=c.before.mu,
                    sigma_before=c.before.sigma,
                    mu_after=c.after.mu,
                    sigma_after=c.after.sigma,
                )
                for c in changes
            ],
            batch_size=1000,
        )


class Migration(migrations.Migration):
    dependencies = [("leagues", "0004_competition_entrants")]

    operations = [
        migrations.CreateModel(
            name="RatingChange",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("pool", models.CharField(max_length=80)),
                ("player", models.CharField(max_length=64)),
                ("result_key", models.CharField(max_length=160)),
                ("position", models.BigIntegerField()),
                ("mu_before", models.FloatField()),
                ("sigma_before", models.FloatField()),
                ("mu_after", models.FloatField()),
                ("sigma_after", models.FloatField()),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("pool", "player", "result_key"),
                        name="leagues_rating_change_once",
                    )
                ],
                "indexes": [
                    models.Index(
                        fields=["pool", "player", "position"], name="leagues_rating_history"
                    )
                ],
            },
        ),
        migrations.RunPython(fill_history, migrations.RunPython.noop),
    ]
