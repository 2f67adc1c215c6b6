"""The running role may read and insert deal secrets, never change or delete one."""

from __future__ import annotations

import os

import psycopg
import pytest
from django.db import connection
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from services.settings import DEFAULT_APP_DATABASE_URL, DEFAULT_OWNER_DATABASE_URL

pytestmark = pytest.mark.django_db


def test_the_app_role_cannot_update_or_delete_a_deal_secret():
    app_url = os.environ.get("DATABASE_URL", DEFAULT_APP_DATABASE_URL)
    owner_url = os.environ.get("DATABASE_OWNER_URL", DEFAULT_OWNER_DATABASE_URL)
    if conninfo_to_dict(app_url).get("user") == conninfo_to_dict(owner_url).get("user"):
        pytest.skip("DATABASE_URL and DATABASE_OWNER_URL use the same role")
    conninfo = make_conninfo(app_url, dbname=connection.settings_dict["NAME"])
    with psycopg.connect(conninfo, autocommit=True, connect_timeout=5) as app:
        app.execute("SELECT count(*) FROM games_table_secret")
        for statement in (
            "UPDATE games_table_secret SET seed = seed",
            "DELETE FROM games_table_secret",
            "TRUNCATE games_table_secret",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                app.execute(statement)
