"""The running role may only SELECT and INSERT deal secrets: a seed cannot be swapped later."""

from django.db import migrations

REVOKE = """
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'spades_app') THEN
        REVOKE UPDATE, DELETE, TRUNCATE ON games_table_secret FROM spades_app;
        GRANT SELECT, INSERT ON games_table_secret TO spades_app;
    END IF;
END
$$;
"""

GRANT_BACK = """
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'spades_app') THEN
        GRANT UPDATE, DELETE ON games_table_secret TO spades_app;
    END IF;
END
$$;
"""


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [migrations.RunSQL(REVOKE, GRANT_BACK)]
