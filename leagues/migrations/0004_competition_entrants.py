"""The entrants (entered or invited) of each competition on its row, for the
entrants-per-organiser quota (leagues.services.quotas). Every append writes it; a
competition no command has touched since this migration counts 0 in its creator's total
until its next command (its own per-competition count is folded, always exact)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("leagues", "0003_rating_pools")]

    operations = [
        migrations.AddField(
            model_name="competition",
            name="entrants",
            field=models.PositiveIntegerField(default=0),
        ),
    ]
