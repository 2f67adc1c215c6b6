"""The secrets of invitations to seats kept for friends (the stream keeps their digests)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_table_spectator_delay_tricks"),
    ]

    operations = [
        migrations.CreateModel(
            name="SeatInvitation",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seat", models.PositiveSmallIntegerField()),
                ("secret", models.CharField(max_length=64)),
                ("created_at", models.DateTimeField(auto_now=True)),
                (
                    "table",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="invitations",
                        to="games.table",
                    ),
                ),
            ],
            options={
                "db_table": "games_seat_invitation",
                "constraints": [
                    models.UniqueConstraint(
                        fields=("table", "seat"), name="one_invitation_per_seat"
                    )
                ],
            },
        ),
    ]
