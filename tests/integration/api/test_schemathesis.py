"""Property-based fuzzing of the whole API from its own OpenAPI schema: no 5xx, ever.

schemathesis generates requests for every operation of ``/api/schema/`` (valid ones and,
for request bodies and queries, invalid ones) and sends them in-process to the WSGI app,
authenticated as a seated player. Path ids are pinned to a real, started table most of the
time so the commands reach the services rather than stopping at 404.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core import signals
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from services.wsgi import application

pytestmark = pytest.mark.django_db

#: Examples per operation and mode: about 30 operations x 2 modes, about a minute.
#: SPADES_FUZZ_EXAMPLES=200 for a deeper run by hand.
EXAMPLES = int(os.environ.get("SPADES_FUZZ_EXAMPLES", "15"))
#: Every operation: no 5xx.
CHECKS = [not_a_server_error]
#: The operations of tables, presets, rescoring and accounts also answer only statuses,
#: content types and shapes their schema documents.
CONFORMANCE = [status_code_conformance, content_type_conformance, response_schema_conformance]
CONFORMING_PATHS = ("/api/auth/", "/api/tables", "/api/presets", "/api/rescore")
OTHERS = ("/suggestion",)  # the browser client's helper, documented by its owner


def _checks(operation: Any) -> list[Any]:
    path = operation.path
    if path.startswith(CONFORMING_PATHS) and not path.endswith(OTHERS):
        return CHECKS + CONFORMANCE
    return CHECKS


@pytest.fixture
def wsgi_keeps_test_connection() -> Iterator[None]:
    """Django's WSGI handler closes the database connection after each request, which would
    close the test's transaction; Django's own test client unhooks the same signal."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture
def unthrottled(settings: Any) -> None:
    """Rate limits out of the way, so every example reaches its view (the limits have
    tests of their own: tests/integration/api/test_throttles.py)."""
    settings.THROTTLE_RATES = {scope: "100000/min" for scope in settings.THROTTLE_RATES}


def _operations(schema: Any) -> list[Any]:
    operations = []
    for result in schema.get_all_operations():
        operations.append(result.ok())
    # Logging out revokes the token every other operation is sent with: last.
    return sorted(operations, key=lambda operation: operation.path == "/api/auth/logout")


def test_no_operation_answers_5xx(
    started_table: dict[str, Any],
    players: dict[str, Any],
    wsgi_keeps_test_connection: None,
    unthrottled: None,
) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    token = Token.objects.get(user=players["north"].user).key
    headers = {"Authorization": f"Token {token}"}
    table_id = started_table["id"]
    operations = _operations(schema)
    assert len(operations) >= 25, [op.label for op in operations]
    failures: list[str] = []

    for operation in operations:
        checks = _checks(operation)
        for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):

            @given(
                case=operation.as_strategy(generation_mode=mode),
                real=st.booleans(),
                checks=st.just(checks),
            )
            @settings(
                max_examples=EXAMPLES,
                deadline=None,
                database=None,
                phases=[Phase.explicit, Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
            def run(case: Any, real: bool, checks: list[Any]) -> None:
                if real and case.path_parameters and "table_id" in case.path_parameters:
                    case.path_parameters["table_id"] = table_id
                response = case.call(headers=headers)
                case.validate_response(response, checks=checks)

            try:
                run()
            except Unsatisfiable:
                # Nothing to make invalid (no body, query or typed path): negative mode is moot.
                assert mode is schemathesis.GenerationMode.NEGATIVE, operation.label
            except (Exception, BaseExceptionGroup) as error:  # report every operation's failure
                failures.append(f"{operation.label} [{mode}]: {error}")

    assert not failures, "\n\n".join(failures)
