"""Test-only helpers (imported by pytest, never by running services)."""
