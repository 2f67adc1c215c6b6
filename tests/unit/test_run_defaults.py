"""bin/run serves the platform as production would: DEBUG off, with a key of its own."""

from __future__ import annotations

from pathlib import Path

RUN = Path(__file__).resolve().parents[2] / "bin" / "run"


def test_bin_run_keeps_debug_off_and_makes_a_local_secret_key() -> None:
    script = RUN.read_text()

    assert 'export DEBUG="${DEBUG:-0}"' in script
    assert "secret_key" in script and "umask 077" in script
