"""Shared test configuration.

The database role: pytest connects as the owner (``SPADES_DB_ROLE=owner``), set by the
``services.testing.pytest_plugin`` plugin that pyproject.toml loads with ``-p`` *before*
pytest-django reads the settings (a conftest would be too late for that).

Layers: every test under tests/integration/ is marked ``integration`` and every test under
tests/e2e/ is marked ``e2e`` automatically, so ``-m e2e`` always finds the browser tests.

Hypothesis: no per-example deadline. The suite runs on 2 shared cores (CI, or beside other
checkouts); an example that takes 300 ms there is a slow machine, not a wrong answer, and
the speed targets live in the benchmarks.

Rate limits: every test starts with no request counted (``clear_throttle_counts``), so
the real limits apply within a test and never carry over from the one before. Likewise
the web's token cache (``accounts.token_cache``) starts empty in every test.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from accounts.token_cache import tokens_seen
from services.api.throttles import clear_throttle_counts

TESTS_DIR = Path(__file__).resolve().parent
hypothesis_settings.register_profile("spades", deadline=None)
hypothesis_settings.load_profile("spades")

LAYER_MARKS = {"integration": pytest.mark.integration, "e2e": pytest.mark.e2e}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        try:
            layer = Path(item.path).resolve().relative_to(TESTS_DIR).parts[0]
        except ValueError:
            continue
        mark = LAYER_MARKS.get(layer)
        if mark is not None:
            item.add_marker(mark)


@pytest.fixture(autouse=True)
def fresh_throttle_counts() -> Iterator[None]:
    """The API throttles' and WebSocket limits' counts (in Redis), cleared before each test."""
    clear_throttle_counts()
    yield


@pytest.fixture(autouse=True)
def fresh_token_cache() -> Iterator[None]:
    """No token resolution kept by an earlier test (its rows rolled back) answers here."""
    tokens_seen.clear()
    yield
