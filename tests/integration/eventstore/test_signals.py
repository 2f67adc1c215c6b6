"""events_committed is sent after the commit, once per append, never on rollback."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from eventstore import reading, recorder
from eventstore.records import NewEvent
from eventstore.signals import events_committed

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def received() -> Any:
    calls: list[dict[str, Any]] = []

    def receiver(sender: Any, **kwargs: Any) -> None:
        calls.append(kwargs)

    events_committed.connect(receiver, weak=False)
    yield calls
    events_committed.disconnect(receiver)


def test_sent_only_after_commit(stream_prefix: str, received: list[dict[str, Any]]) -> None:
    stream = f"{stream_prefix}-a"
    with transaction.atomic():
        result = recorder.append(stream, 0, [NewEvent("A", {}), NewEvent("B", {})])
        recorder.append(f"{stream_prefix}-b", 0, [NewEvent("C", {})])
        assert received == []
    mine = [call for call in received if call["stream_id"].startswith(stream_prefix)]
    assert [call["stream_id"] for call in mine] == [stream, f"{stream_prefix}-b"]
    assert mine[0]["events"] == result.events


def test_not_sent_on_rollback(stream_prefix: str, received: list[dict[str, Any]]) -> None:
    stream = f"{stream_prefix}-a"
    with pytest.raises(RuntimeError), transaction.atomic():
        recorder.append(stream, 0, [NewEvent("A", {})])
        raise RuntimeError("the command failed after appending")
    assert [c for c in received if c["stream_id"].startswith(stream_prefix)] == []
    assert reading.stream_version(stream) == 0


def test_not_sent_for_a_duplicate_command(
    stream_prefix: str, received: list[dict[str, Any]]
) -> None:
    stream = f"{stream_prefix}-a"
    for _ in range(2):
        with transaction.atomic():
            recorder.append(stream, 0, [NewEvent("A", {})], command_id="c")
    assert len([c for c in received if c["stream_id"] == stream]) == 1


def test_the_appenders_context_reaches_the_receivers_unchanged(
    stream_prefix: str, received: list[dict[str, Any]]
) -> None:
    stream = f"{stream_prefix}-a"
    with transaction.atomic():
        recorder.append(stream, 0, [NewEvent("A", {})], context={"bot_to_act": True})
        recorder.append(f"{stream_prefix}-b", 0, [NewEvent("B", {})])
    mine = {c["stream_id"]: c for c in received if c["stream_id"].startswith(stream_prefix)}
    assert mine[stream]["context"] == {"bot_to_act": True}
    assert mine[f"{stream_prefix}-b"]["context"] == {}
