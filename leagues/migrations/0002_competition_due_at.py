from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("leagues", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="competition",
            name="due_at",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
    ]
