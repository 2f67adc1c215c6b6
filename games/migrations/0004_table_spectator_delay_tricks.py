from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0003_table_abandoned_status"),
    ]

    operations = [
        migrations.AddField(
            model_name="table",
            name="spectator_delay_tricks",
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]
