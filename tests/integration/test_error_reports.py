"""Error reports (telemetry.errors): the background threads' failures, which are only
logged, reach Sentry's transport (a capturing transport here, never the network); the
events carry the log context's ids as tags and no query string."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
import sentry_sdk
from sentry_sdk.envelope import Envelope
from sentry_sdk.transport import Transport

from bots.dispatch import DISPATCHER, send_bot_turns
from games.live.announcer import Announcer, announcer
from games.live.publisher import Publisher
from telemetry.errors import init_error_reporting, with_log_context
from telemetry.logs import scope

UNREACHABLE_REDIS = "redis://127.0.0.1:1/0"


class Captured(Transport):
    """Keeps every event it is handed."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[dict[str, Any]] = []

    def capture_envelope(self, envelope: Envelope) -> None:
        for item in envelope.items:
            event = item.get_event()
            if event is not None:
                self.events.append(event)


@pytest.fixture
def reported() -> Iterator[Captured]:
    transport = Captured()
    assert init_error_reporting("https://public@sentry.invalid/1", transport=transport)
    try:
        yield transport
    finally:
        sentry_sdk.get_client().close()
        sentry_sdk.init()  # no DSN: reporting off again for the rest of the run


def wait_for_event(transport: Captured, text: str, timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        for event in transport.events:
            if text in message_of(event):
                return event
        if time.monotonic() > deadline:
            seen = [message_of(event) for event in transport.events]
            raise AssertionError(f"no event with {text!r} after {timeout}s; got {seen}")
        time.sleep(0.05)


def message_of(event: dict[str, Any]) -> str:
    entry = event.get("logentry") or {}
    return str(entry.get("formatted") or entry.get("message") or event.get("message") or "")


def exception_types(event: dict[str, Any]) -> list[str]:
    return [value["type"] for value in (event.get("exception") or {}).get("values", [])]


def test_the_publishers_lost_redis_is_reported(reported: Captured) -> None:
    publisher = Publisher(UNREACHABLE_REDIS, linger=0)
    publisher.publish([("spades:test", b"[]")])

    assert publisher.flush(10)
    event = wait_for_event(reported, "commit notices dropped (1), Redis unreachable")
    assert event["level"] == "error"
    assert event["logger"] == "games.live.publisher"
    assert publisher.dropped == 1


def test_a_dispatcher_failure_is_reported_with_its_traceback(reported: Captured) -> None:
    dispatcher = announcer(DISPATCHER, send_bot_turns)
    dispatcher.submit(("not-a-table", "not-a-version"))

    assert dispatcher.flush(10)
    event = wait_for_event(reported, "bot dispatch for not-a-table vnot-a-version failed")
    assert exception_types(event) == ["ValueError"]
    assert event["logger"] == "bots.dispatch"


def test_an_announcer_whose_handler_raises_reports_it_and_lives_on(reported: Captured) -> None:
    handled: list[Any] = []

    def handler(batch: list[Any], loop: Any) -> None:
        handled.extend(batch)
        if batch[0] == ("boom",):
            raise RuntimeError("the notifier broke")

    failing = Announcer("test-failing", handler)
    failing.submit(("boom",))
    assert failing.flush(10)
    event = wait_for_event(reported, "announcer test-failing: a batch of 1 failed")
    assert exception_types(event) == ["RuntimeError"]

    failing.submit(("fine",))
    assert failing.flush(10)
    assert failing.thread.is_alive() and handled == [("boom",), ("fine",)]


def test_events_carry_the_log_context_and_no_query_string() -> None:
    event: dict[str, Any] = {
        "tags": {"kept": "1"},
        "request": {
            "url": "https://spades.example.org/ws/tables/t-1/?token=secret",
            "query_string": "token=secret",
        },
    }
    with scope("req-9", table_id="t-1"):
        sent = with_log_context(event, {})

    assert sent["tags"] == {"kept": "1", "request_id": "req-9", "table_id": "t-1"}
    assert sent["request"] == {"url": "https://spades.example.org/ws/tables/t-1/"}
    assert "secret" not in str(sent)


def test_no_dsn_no_reporting() -> None:
    assert init_error_reporting("") is False
