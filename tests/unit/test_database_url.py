"""DATABASE_URL parsing: PostgreSQL only, with a clear error for anything else."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from services.dburl import parse_database_url, redact

ROOT = Path(__file__).resolve().parents[2]


def test_parses_a_full_postgresql_url() -> None:
    db = parse_database_url(
        "postgresql://spades_app:s%40cret@db.example:6543/spades?sslmode=require"
    )
    assert db == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "spades",
        "USER": "spades_app",
        "PASSWORD": "s@cret",
        "HOST": "db.example",
        "PORT": "6543",
        "OPTIONS": {"sslmode": "require"},
    }


def test_postgres_scheme_alias_and_unix_socket_host() -> None:
    db = parse_database_url("postgres://u@/spades?host=/var/run/postgresql")
    assert db["HOST"] == "/var/run/postgresql"
    assert db["PORT"] == ""
    assert db["OPTIONS"] == {}


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///db.sqlite3",
        "mysql://u:p@localhost/spades",
        "db.sqlite3",
    ],
)
def test_refuses_non_postgresql_urls(url: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="PostgreSQL only"):
        parse_database_url(url)


def test_refuses_a_url_without_database_name() -> None:
    with pytest.raises(ImproperlyConfigured, match="no database name"):
        parse_database_url("postgresql://u:p@localhost:5432/")


def test_errors_never_show_the_password() -> None:
    assert redact("mysql://u:hunter2@h/db") == "mysql://u:***@h/db"
    with pytest.raises(ImproperlyConfigured) as excinfo:
        parse_database_url("mysql://u:hunter2@h/db")
    assert "hunter2" not in str(excinfo.value)


@pytest.mark.parametrize("role", ["app", "owner"])
def test_settings_refuse_a_sqlite_database_url(role: str) -> None:
    """Importing the real settings with a SQLite DATABASE_URL fails at start-up."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "services.settings",
        "SPADES_DB_ROLE": role,
        "DATABASE_URL": "sqlite:///db.sqlite3",
    }
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DATABASE_URL must be a PostgreSQL URL" in result.stderr
