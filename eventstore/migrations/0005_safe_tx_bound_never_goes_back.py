"""``eventstore_safe_tx_bound()`` never goes back: the other databases' transactions are
listed *before* the snapshot is taken.

Migration 0002 read ``pg_stat_activity`` after the snapshot (a SQL function's query takes
its snapshot when it starts). Another database's transaction that was in the snapshot but
ended before ``pg_stat_activity`` was read could not be placed, so it counted as ours and
the bound dropped below one returned a moment earlier. Subscriptions only waited a little,
but a signed checkpoint published at the earlier bound then looked "ahead of this store"
(``verify_events --against``, ``publish_checkpoint``), the likely cause of the signed
checkpoints test's one failure while other test runs used other databases of the cluster.

Listed first, a transaction of another database is either in the list, or got its id after
the list was read, so it is newer than any bound returned before; counting it as ours then
cannot take the bound below an earlier one. The snapshot is the one a statement of this
function takes (every caller runs in READ COMMITTED). ``pg_stat_clear_snapshot()``: a list
cached earlier in the caller's transaction would be older than that snapshot again. See
docs/eventstore.md.
"""

from django.db import migrations

CREATE = r"""
CREATE OR REPLACE FUNCTION eventstore_safe_tx_bound() RETURNS xid8
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    foreign_xids bigint[];
    snap pg_snapshot;
BEGIN
    PERFORM pg_stat_clear_snapshot();
    SELECT coalesce(array_agg(a.backend_xid::text::bigint), '{}') INTO foreign_xids
      FROM pg_stat_activity a
     WHERE a.backend_xid IS NOT NULL
       AND a.datid IS DISTINCT FROM
           (SELECT oid FROM pg_database WHERE datname = current_database());
    SELECT pg_current_snapshot() INTO snap;
    RETURN coalesce(
        (SELECT min(x) FROM pg_snapshot_xip(snap) AS x
          WHERE (x::text::bigint % 4294967296) <> ALL (foreign_xids)),
        pg_snapshot_xmax(snap));
END
$$;
"""

# Migration 0002's function, as it was.
PREVIOUS = r"""
CREATE OR REPLACE FUNCTION eventstore_safe_tx_bound() RETURNS xid8
LANGUAGE sql VOLATILE AS $$
    WITH snap AS (SELECT pg_current_snapshot() AS s),
         foreign_xids AS (
             SELECT a.backend_xid::text::bigint AS xid32
               FROM pg_stat_activity a
              WHERE a.backend_xid IS NOT NULL
                AND a.datid IS DISTINCT FROM
                    (SELECT oid FROM pg_database WHERE datname = current_database()))
    SELECT coalesce(
        (SELECT min(x) FROM snap, pg_snapshot_xip(snap.s) AS x
          WHERE (x::text::bigint % 4294967296) NOT IN (SELECT xid32 FROM foreign_xids)),
        (SELECT pg_snapshot_xmax(s) FROM snap))
$$;
"""


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0004_broken_stream")]

    operations = [migrations.RunSQL(CREATE, PREVIOUS)]
