"""The live fixtures (real processes on the test database) for the benchmarks' smoke tests."""

from tests.integration.live.conftest import live_db, live_env, live_logs, processes  # noqa: F401
