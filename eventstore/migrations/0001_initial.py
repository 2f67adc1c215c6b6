"""The event store's tables, append-only trigger and the runtime role's grants.

Raw SQL because Django models cannot express an ``xid8`` column defaulting to
``pg_current_xact_id()``, an identity column that refuses client values, a partial unique
index and a TRUNCATE trigger. See docs/eventstore.md.
"""

from django.db import migrations, models

CREATE_TABLES = r"""
CREATE TABLE eventstore_event (
    position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    stream_id text NOT NULL CHECK (stream_id <> '' AND length(stream_id) <= 200),
    version integer NOT NULL CHECK (version > 0),
    tx_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
    type text NOT NULL CHECK (type <> '' AND length(type) <= 200),
    schema_version integer NOT NULL CHECK (schema_version > 0),
    data jsonb NOT NULL CHECK (jsonb_typeof(data) = 'object'),
    metadata jsonb NOT NULL CHECK (jsonb_typeof(metadata) = 'object'),
    command_id text CHECK (command_id <> '' AND length(command_id) <= 200),
    recorded_at timestamptz NOT NULL DEFAULT now(),
    hash char(64) NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
    prev_hash char(64) NOT NULL CHECK (prev_hash ~ '^[0-9a-f]{64}$'),
    CONSTRAINT eventstore_event_stream_version_key UNIQUE (stream_id, version)
);
-- Idempotency: one command id per stream (set on the first event of a command's batch).
CREATE UNIQUE INDEX eventstore_event_stream_command_key
    ON eventstore_event (stream_id, command_id) WHERE command_id IS NOT NULL;
-- Subscriptions read in (tx_id, position) order below the snapshot's xmin.
CREATE INDEX eventstore_event_tx_position_idx ON eventstore_event (tx_id, position);

-- One row per stream: the append lock and compare-and-set target (version, head hash,
-- transaction id of the head event).
CREATE TABLE eventstore_stream (
    stream_id text PRIMARY KEY,
    version integer NOT NULL CHECK (version > 0),
    head_hash char(64) NOT NULL,
    head_tx_id xid8 NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION eventstore_reject_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'eventstore_event is append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege',
              HINT = 'Events are immutable; append a new event instead.';
END
$$;

CREATE TRIGGER eventstore_event_append_only
    BEFORE UPDATE OR DELETE OR TRUNCATE ON eventstore_event
    FOR EACH STATEMENT EXECUTE FUNCTION eventstore_reject_change();
"""

DROP_TABLES = r"""
DROP TABLE IF EXISTS eventstore_stream;
DROP TABLE IF EXISTS eventstore_event;
DROP FUNCTION IF EXISTS eventstore_reject_change();
"""

# Roles are cluster-wide; the test database and foreign setups may lack spades_app.
GRANTS = r"""
REVOKE ALL ON eventstore_event, eventstore_stream, eventstore_checkpoint FROM PUBLIC;
DO $$
BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'spades_app') THEN
        REVOKE ALL ON eventstore_event FROM spades_app;
        GRANT SELECT, INSERT ON eventstore_event TO spades_app;
        -- The identity column needs no sequence right for INSERT; nothing else may use it.
        REVOKE ALL ON SEQUENCE eventstore_event_position_seq FROM spades_app;
        REVOKE ALL ON eventstore_stream FROM spades_app;
        GRANT SELECT, INSERT, UPDATE ON eventstore_stream TO spades_app;
        REVOKE ALL ON eventstore_checkpoint FROM spades_app;
        GRANT SELECT, INSERT, UPDATE, DELETE ON eventstore_checkpoint TO spades_app;
    END IF;
END
$$;
"""


class Migration(migrations.Migration):
    initial = True

    dependencies: list[tuple[str, str]] = []

    operations = [
        migrations.RunSQL(CREATE_TABLES, DROP_TABLES),
        migrations.CreateModel(
            name="Event",
            fields=[
                ("position", models.BigIntegerField(primary_key=True, serialize=False)),
                ("stream_id", models.TextField()),
                ("version", models.IntegerField()),
                ("type", models.TextField()),
                ("schema_version", models.IntegerField()),
                ("data", models.JSONField()),
                ("metadata", models.JSONField()),
                ("command_id", models.TextField(null=True)),
                ("recorded_at", models.DateTimeField()),
                ("hash", models.CharField(max_length=64)),
                ("prev_hash", models.CharField(max_length=64)),
            ],
            options={
                "db_table": "eventstore_event",
                "ordering": ["position"],
                "managed": False,
            },
        ),
        migrations.CreateModel(
            name="Stream",
            fields=[
                ("stream_id", models.TextField(primary_key=True, serialize=False)),
                ("version", models.IntegerField()),
                ("head_hash", models.CharField(max_length=64)),
                ("updated_at", models.DateTimeField()),
            ],
            options={
                "db_table": "eventstore_stream",
                "managed": False,
            },
        ),
        migrations.CreateModel(
            name="Checkpoint",
            fields=[
                (
                    "name",
                    models.CharField(max_length=200, primary_key=True, serialize=False),
                ),
                ("last_tx_id", models.BigIntegerField(default=0)),
                ("last_position", models.BigIntegerField(default=0)),
                ("updated_at", models.DateTimeField(auto_now=True)),
            ],
            options={
                "db_table": "eventstore_checkpoint",
            },
        ),
        migrations.RunSQL(GRANTS, migrations.RunSQL.noop),
    ]
