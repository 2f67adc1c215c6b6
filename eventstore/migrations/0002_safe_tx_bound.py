"""``eventstore_safe_tx_bound()``: the transaction-id bound subscriptions read below.

Like ``pg_snapshot_xmin(pg_current_snapshot())``, but transactions that run in *other*
databases of the cluster do not hold it back: they can never write this database's events,
and a long one (another application, a test run, an idle session) would otherwise stall
every projection here. A running transaction whose database cannot be established counts
as ours (the bound stays conservative). See docs/eventstore.md.
"""

from django.db import migrations

CREATE = r"""
CREATE FUNCTION eventstore_safe_tx_bound() RETURNS xid8
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

DROP = "DROP FUNCTION IF EXISTS eventstore_safe_tx_bound();"


class Migration(migrations.Migration):
    dependencies = [("eventstore", "0001_initial")]

    operations = [migrations.RunSQL(CREATE, DROP)]
