"""Find a stream's first event by command id alone (idempotent stream creation).

A command that creates a stream (e.g. create_table) does not know the stream id of an
earlier attempt; looking its command id up among first events needs this index (one row
per stream, so it costs nothing on other appends).
"""

from django.db import migrations

CREATE = """
CREATE INDEX eventstore_event_first_command_idx
    ON eventstore_event (command_id) WHERE version = 1 AND command_id IS NOT NULL;
"""

DROP = "DROP INDEX IF EXISTS eventstore_event_first_command_idx;"


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0002_safe_tx_bound")]

    operations = [migrations.RunSQL(CREATE, DROP)]
