"""Tests connect as the owner role; the runtime role cannot change the schema."""

from __future__ import annotations

import os

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from psycopg.conninfo import conninfo_to_dict

from services.settings import DEFAULT_APP_DATABASE_URL, DEFAULT_OWNER_DATABASE_URL


@pytest.mark.django_db
def test_tests_run_as_the_owner_role() -> None:
    assert settings.SPADES_DB_ROLE == "owner"
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolcreatedb FROM pg_roles WHERE rolname = current_user")
        (can_create_db,) = cursor.fetchone()
    assert can_create_db is True


def test_runtime_role_cannot_create_tables() -> None:
    app_url = os.environ.get("DATABASE_URL", DEFAULT_APP_DATABASE_URL)
    owner_url = os.environ.get("DATABASE_OWNER_URL", DEFAULT_OWNER_DATABASE_URL)
    if conninfo_to_dict(app_url).get("user") == conninfo_to_dict(owner_url).get("user"):
        pytest.skip("DATABASE_URL and DATABASE_OWNER_URL use the same role")
    with (
        psycopg.connect(app_url, connect_timeout=5) as conn,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        conn.execute("CREATE TABLE spades_ddl_probe (id int)")
