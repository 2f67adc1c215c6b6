# The texts events refer to instead of holding (eventstore.erasable). Created in SQL and
# mapped as an unmanaged model, like the events: Django's test flush TRUNCATEs managed
# tables, and these rows must live as long as the events that refer to them.

import django.contrib.postgres.fields
from django.db import migrations, models

CREATE = r"""
CREATE TABLE eventstore_erasable_text (
    id uuid PRIMARY KEY,
    text text NOT NULL,
    salt varchar(32) NOT NULL,
    subjects varchar(100)[] NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    erased_at timestamptz NULL
);
CREATE INDEX erasable_text_subjects ON eventstore_erasable_text USING gin (subjects);
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'spades_app') THEN
        -- Erasing clears a row; removing one would leave its events pointing at nothing.
        GRANT SELECT, INSERT, UPDATE ON eventstore_erasable_text TO spades_app;
        REVOKE DELETE, TRUNCATE ON eventstore_erasable_text FROM spades_app;
    END IF;
END
$$;
"""

DROP = "DROP TABLE eventstore_erasable_text;"


class Migration(migrations.Migration):
    dependencies = [
        ("eventstore", "0005_safe_tx_bound_never_goes_back"),
    ]

    operations = [
        migrations.RunSQL(CREATE, DROP),
        migrations.CreateModel(
            name="ErasableTextRow",
            fields=[
                ("id", models.UUIDField(primary_key=True, serialize=False)),
                ("text", models.TextField(blank=True)),
                ("salt", models.CharField(blank=True, max_length=32)),
                (
                    "subjects",
                    django.contrib.postgres.fields.ArrayField(
                        base_field=models.CharField(max_length=100), size=None
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("erased_at", models.DateTimeField(blank=True, null=True)),
            ],
            options={"db_table": "eventstore_erasable_text", "managed": False},
        ),
    ]
